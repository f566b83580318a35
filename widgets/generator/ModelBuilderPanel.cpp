#include "generator/ModelBuilderPanel.h"

#include "common/FieldValue.h"
#include "common/InterfaceScale.h"
#include "core/Error.h"
#include "generate/GeneratorValues.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/ParallelismFit.h"
#include "generator/GeneratorField.h"
#include "generator/GeneratorPresentation.h"
#include "generator/MemoryBar.h"
#include "hardware/Accelerator.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>
#include <QVariant>
#include <algorithm>
#include <iterator>
#include <utility>

namespace astrolabe::widgets {

using namespace astrolabe::generate;

namespace {

QFormLayout* group(QVBoxLayout* column, const QString& title) {
    auto* box = new QGroupBox(title);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    column->addWidget(box);
    return form;
}

QString npusText(qint64 n) {
    return n == 1 ? ModelBuilderPanel::tr("1 NPU") : ModelBuilderPanel::tr("%L1 NPUs").arg(n);
}

} // namespace

ModelBuilderPanel::ModelBuilderPanel(QWidget* parent)
    : QWidget(parent) {
    auto* fields = new QWidget;
    auto* column = new QVBoxLayout(fields);

    QFormLayout* top = group(column, tr("Preset"));
    m_preset = new QComboBox;
    for (const ModelPreset& p : modelPresets())
        m_preset->addItem(QString::fromStdString(p.name), QString::fromStdString(p.description));
    m_resetPreset = new QPushButton(tr("Reset to preset"));
    m_resetPreset->setToolTip(tr("Forget your edits and load the preset as published"));
    auto* presetRow = new QHBoxLayout;
    presetRow->addWidget(m_preset, 1);
    presetRow->addWidget(m_resetPreset);
    top->addRow(tr("Model"), presetRow);
    m_gpu = new QComboBox;
    m_gpu->addItem(tr("as the preset"), QString());
    for (const hardware::Accelerator& a : hardware::accelerators())
        m_gpu->addItem(QString::fromStdString(a.label), QString::fromStdString(a.name));
    m_gpu->setToolTip(tr("Peak, HBM bandwidth and HBM capacity from the accelerator's datasheet "
                         "(resources/hardware); the Compute fields stay editable"));
    top->addRow(tr("Accelerator"), m_gpu);
    m_npus = new QLabel;
    top->addRow(tr("NPUs"), m_npus);

    QString groupName;
    QFormLayout* form = nullptr;
    for (const GeneratorSetting& s : generatorSettings()) {
        const GeneratorFieldLook look = generatorFieldLook(s);
        if (!look.inBuilder)
            continue;
        if (!form || groupName != QString::fromStdString(look.box)) {
            groupName = QString::fromStdString(look.box);
            form = group(column, tr(look.box.c_str()));
        }
        QWidget* field = makeGeneratorField(s);
        const QString label = tr(s.label.c_str());
        form->addRow(label, field);
        m_labels.insert(field, label);
        onGeneratorFieldChanged(field, this, [this, label, field] { onFieldEdited(label, field); });
        m_fields.push_back({&s, field, look.transformerOnly});
    }
    column->addStretch(1);

    auto* scroll = new QScrollArea;
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(fields->sizeHint().width() + 24);
    // The form's width follows the interface scale once the widgets have their new font (Qt
    // passes it on by events, after changed()).
    connect(&InterfaceScale::instance(), &InterfaceScale::changed, scroll, [scroll, fields] {
        QTimer::singleShot(0, scroll, [scroll, fields] {
            scroll->setMinimumWidth(fields->sizeHint().width() + InterfaceScale::px(24));
        });
    });

    auto* right = new QVBoxLayout;
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_figures = new QPlainTextEdit;
    m_figures->setReadOnly(true);
    // A font of its own does not follow the application's: presentation mode scales it here.
    const auto fixedFont = [figures = m_figures] {
        QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        if (font.pointSizeF() > 0)
            font.setPointSizeF(font.pointSizeF() * InterfaceScale::factor());
        figures->setFont(font);
    };
    fixedFont();
    connect(&InterfaceScale::instance(), &InterfaceScale::changed, m_figures, fixedFont);
    m_figures->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_generate = new QPushButton(tr("Generate traces"));
    m_memoryBar = new MemoryBar;
    right->addWidget(m_status);
    right->addWidget(m_memoryBar);
    right->addWidget(m_figures, 1);
    right->addWidget(m_generate, 0, Qt::AlignRight);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(scroll);
    layout->addLayout(right, 1);

    connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
        applyPreset(m_preset->currentText());
        emit fieldEdited(tr("Model"));
    });
    connect(m_gpu, &QComboBox::currentIndexChanged, this, [this] {
        applyAccelerator(true);
        emit fieldEdited(tr("Accelerator"));
    });
    connect(m_resetPreset, &QPushButton::clicked, this, [this] {
        resetToPreset();
        emit fieldEdited(tr("Model"));
    });
    connect(m_generate, &QPushButton::clicked, this, [this] { emit generateRequested(spec()); });

    applyPreset(m_preset->currentText());
}

bool ModelBuilderPanel::applyPreset(const QString& name) {
    for (const ModelPreset& p : modelPresets())
        if (QString::fromStdString(p.name) == name) {
            if (m_preset->currentText() != name) {
                const QSignalBlocker block(m_preset);
                m_preset->setCurrentText(name);
            }
            m_preset->setToolTip(QString::fromStdString(p.description));
            // The user's edits win over the preset: only untouched fields change.
            QHash<QWidget*, QVariant> kept;
            for (QWidget* w : std::as_const(m_touched))
                kept.insert(w, fieldValue(w));
            m_origin = p.spec.model;
            setSpec(p.spec);
            applyAccelerator(false);
            m_loading = true;
            for (auto it = kept.cbegin(); it != kept.cend(); ++it)
                setFieldValue(it.key(), it.value());
            m_loading = false;
            if (m_platformNpus > 0)
                fitToPlatform();
            else
                refresh();
            return true;
        }
    return false;
}

bool ModelBuilderPanel::setAccelerator(const QString& name) {
    const int index = m_gpu->findData(name);
    if (index < 0)
        return false;
    m_gpu->setCurrentIndex(index); // applies it through currentIndexChanged when it changes
    return true;
}

QString ModelBuilderPanel::accelerator() const {
    return m_gpu->currentData().toString();
}

void ModelBuilderPanel::applyAccelerator(bool overEdits) {
    const QString name = accelerator();
    if (name.isEmpty())
        return;
    generate::GeneratorSpec s = spec();
    s.compute =
        generate::acceleratorCompute(hardware::findAccelerator(name.toStdString()), s.compute);
    m_loading = true;
    for (const Field& f : m_fields)
        if ((f.setting->path == "compute.peakTflops" || f.setting->path == "compute.hbmGBps" ||
             f.setting->path == "compute.hbmCapacityGiB") &&
            (overEdits || !m_touched.contains(f.widget))) {
            showGeneratorValue(*f.setting, f.widget, s);
            m_touched.remove(f.widget);
        }
    m_loading = false;
    refresh();
}

void ModelBuilderPanel::resetToPreset() {
    m_touched.clear();
    applyPreset(m_preset->currentText());
}

QStringList ModelBuilderPanel::touchedFields() const {
    QStringList out;
    for (QWidget* w : m_touched)
        out << m_labels.value(w);
    out.sort();
    return out;
}

void ModelBuilderPanel::setPlatformNpus(int npus) {
    // Only a new count refits: an unrelated project edit must not undo a split the user chose.
    if (npus == m_platformNpus)
        return;
    m_platformNpus = npus;
    fitToPlatform();
}

void ModelBuilderPanel::fitToPlatform() {
    m_fitReason.clear();
    if (m_platformNpus > 0) {
        // Micro-batches per pipeline are a field of the form: the global batch follows dp.
        const ParallelFit fit =
            fitParallelism(spec(), m_platformNpus, BatchRule::MicroBatchesFixed);
        m_fitReason = QString::fromStdString(fit.reason);
        if (fit.fits) {
            m_loading = true;
            const std::string degrees[] = {"parallel.tp", "parallel.pp", "parallel.dp",
                                           "parallel.ep"};
            for (const Field& f : m_fields)
                if (std::ranges::find(degrees, f.setting->path) != std::end(degrees))
                    showGeneratorValue(*f.setting, f.widget, fit.spec);
            m_loading = false;
        }
    }
    refresh();
}

QString ModelBuilderPanel::platformLine(const GeneratorSpec& s) const {
    if (m_platformNpus <= 0)
        return {};
    const QString key = QStringLiteral("platform").leftJustified(22, ' ');
    if (s.parallel.npus() == m_platformNpus)
        return key +
               tr("fits the platform's %1 (%2)\n")
                   .arg(npusText(m_platformNpus), QString::fromStdString(splitLabel(s.parallel)));
    QString line = key + tr("needs %1 but the platform has %2: Generate and Run needs them "
                            "equal\n")
                             .arg(npusText(s.parallel.npus()), npusText(m_platformNpus));
    if (!m_fitReason.isEmpty())
        line += QStringLiteral("  ").leftJustified(22, ' ') + m_fitReason + QLatin1Char('\n');
    return line;
}

void ModelBuilderPanel::setSpec(const GeneratorSpec& s) {
    m_base = s;
    // A spec this form produced (an undo step) still descends from the same origin; any other
    // spec is a model of its own.
    if (s.model.name != builtModelName(s.model, m_origin))
        m_origin = s.model;
    m_loading = true;
    // Transformer-only fields make no sense for DLRM / ResNet.
    const bool transformer = s.model.kind == ModelKind::Transformer;
    for (const Field& f : m_fields) {
        showGeneratorValue(*f.setting, f.widget, s);
        f.widget->setEnabled(transformer || !f.transformerOnly);
    }
    m_loading = false;
    refresh();
}

GeneratorSpec ModelBuilderPanel::spec() const {
    GeneratorSpec s = m_base;
    // Micro-batches per pipeline set the global batch from micro-batch and dp: applied last.
    for (const bool last : {false, true})
        for (const Field& f : m_fields)
            if (f.setting->applyLast == last)
                f.setting->set(s, generatorFieldValue(*f.setting, f.widget));
    s.model.name = builtModelName(s.model, m_origin);
    return s;
}

QString ModelBuilderPanel::figuresText() const {
    return m_figures->toPlainText();
}

void ModelBuilderPanel::onFieldEdited(const QString& field, QWidget* widget) {
    if (m_loading)
        return;
    m_touched.insert(widget);
    emit fieldEdited(field);
    refresh();
}

void ModelBuilderPanel::refresh() {
    if (m_loading)
        return;
    const GeneratorSpec s = spec();
    m_npus->setText(QString::number(s.parallel.npus()) +
                    tr(" (global batch %1)").arg(s.training.globalBatch));
    try {
        const ModelFigures f = computeFigures(s);
        m_figures->setPlainText(platformLine(s) + QString::fromStdString(formatFigures(f)));
        m_valid = true;
        m_outOfMemory = f.outOfMemory;
        m_memoryBar->setMemory(f.memory.weights, f.memory.gradients, f.memory.optimizer,
                               f.memory.activations, f.hbmCapacityBytes);
        m_status->setText(f.outOfMemory
                              ? tr("Out of memory: %1 per NPU exceeds %2 HBM")
                                    .arg(QString::fromStdString(formatBytes(f.memory.total())),
                                         QString::fromStdString(formatBytes(f.hbmCapacityBytes)))
                              : tr("Fits in memory."));
        m_status->setStyleSheet(f.outOfMemory ? "color: #b00020; font-weight: bold" : "");
    } catch (const ErrorList& e) {
        QStringList lines;
        for (const Error& one : e.errors())
            lines << QString::fromStdString(
                formatError(one.kind(), one.message(), one.where(), one.hint()));
        m_figures->setPlainText(platformLine(s) + lines.join('\n'));
        m_valid = false;
    } catch (const Error& e) {
        m_figures->setPlainText(platformLine(s) + QString::fromStdString(e.what()));
        m_valid = false;
    }
    if (!m_valid) {
        m_outOfMemory = false;
        m_memoryBar->clear();
        m_status->setText(tr("Invalid configuration:"));
        m_status->setStyleSheet("color: #b00020; font-weight: bold");
    }
    m_generate->setEnabled(m_valid);
    emit specChanged();
}

void ModelBuilderPanel::setGenerateText(const QString& text, const QString& toolTip) {
    m_generate->setText(text);
    m_generate->setToolTip(toolTip);
}

} // namespace astrolabe::widgets
