#include "generator/ModelBuilderPanel.h"

#include "common/FieldValue.h"
#include "core/Error.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/ParallelismFit.h"
#include "generator/MemoryBar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QVariant>
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

const QStringList kPlacements{"tp,dp,pp", "tp,pp,dp", "dp,tp,pp",
                              "dp,pp,tp", "pp,tp,dp", "pp,dp,tp"};

QString npusText(int n) {
    return n == 1 ? ModelBuilderPanel::tr("1 NPU") : ModelBuilderPanel::tr("%1 NPUs").arg(n);
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
    m_npus = new QLabel;
    top->addRow(tr("NPUs"), m_npus);

    QFormLayout* model = group(column, tr("Model"));
    m_layers = addInt(model, tr("Layers"), 1, 100000);
    m_hidden = addInt(model, tr("Hidden size"), 1, 1 << 20);
    m_heads = addInt(model, tr("Attention heads"), 1, 1 << 16);
    m_kvHeads = addInt(model, tr("KV heads (0 = MHA)"), 0, 1 << 16, tr("grouped-query attention"));
    m_ffn = addInt(model, tr("FFN size"), 1, 1 << 22);
    m_vocabulary = addInt(model, tr("Vocabulary"), 1, 1 << 24);
    m_sequence = addInt(model, tr("Sequence"), 1, 1 << 24);
    m_swiglu = addCheck(model, tr("SwiGLU"));
    m_experts = addInt(model, tr("Experts (0 = dense)"), 0, 1 << 16);
    m_topK = addInt(model, tr("Top-k"), 0, 1 << 10);
    m_sharedExperts = addInt(model, tr("Shared experts"), 0, 1 << 10);
    m_expertFfn = addInt(model, tr("Expert FFN size"), 0, 1 << 22);

    QFormLayout* training = group(column, tr("Training"));
    m_microBatch = addInt(training, tr("Micro-batch"), 1, 1 << 20);
    m_microBatches = addInt(training, tr("Micro-batches / pipeline"), 1, 1 << 20,
                            tr("global batch = micro-batches x micro-batch x dp"));
    m_bytes = new QComboBox;
    m_bytes->addItems({"1", "2", "4"});
    training->addRow(tr("Bytes per element"), m_bytes);
    m_flash = addCheck(training, tr("Fused (flash) attention"));

    QFormLayout* parallel = group(column, tr("Parallelism"));
    m_tp = addInt(parallel, tr("Tensor (TP)"), 1, 1 << 16);
    m_pp = addInt(parallel, tr("Pipeline (PP)"), 1, 1 << 16);
    m_dp = addInt(parallel, tr("Data (DP)"), 1, 1 << 20);
    m_ep = addInt(parallel, tr("Expert (EP, within DP)"), 1, 1 << 16);
    m_schedule = new QComboBox;
    m_schedule->addItems({"gpipe", "1f1b", "interleaved"});
    parallel->addRow(tr("Schedule"), m_schedule);
    m_virtualStages = addInt(parallel, tr("Virtual stages"), 1, 1 << 10);
    m_zero = new QComboBox;
    m_zero->addItems({"0 (all-reduce)", "1 (optimizer)", "2 (+ gradients)", "3 (+ weights, FSDP)"});
    parallel->addRow(tr("ZeRO stage"), m_zero);
    m_sp = addCheck(parallel, tr("Sequence parallel"));
    m_recompute = addCheck(parallel, tr("Activation recompute"));
    m_bucketMiB = addInt(parallel, tr("Gradient bucket (MiB)"), 1, 1 << 20);
    m_placement = new QComboBox;
    m_placement->addItems(kPlacements);
    m_placement->setToolTip(tr("innermost (consecutive ranks) first"));
    parallel->addRow(tr("Placement"), m_placement);

    QFormLayout* compute = group(column, tr("Compute (per NPU)"));
    m_peak = addDouble(compute, tr("Peak"), 0.1, 1e6, 1, tr(" TFLOP/s"));
    m_hbmBandwidth = addDouble(compute, tr("HBM bandwidth"), 1, 1e7, 0, tr(" GB/s"));
    m_efficiency = addDouble(compute, tr("Efficiency"), 0.01, 1, 2, {});
    m_efficiency->setSingleStep(0.05);
    m_hbmCapacity = addDouble(compute, tr("HBM capacity"), 1, 1e6, 0, tr(" GiB"));
    column->addStretch(1);

    auto* scroll = new QScrollArea;
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(fields->sizeHint().width() + 24);

    auto* right = new QVBoxLayout;
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_figures = new QPlainTextEdit;
    m_figures->setReadOnly(true);
    m_figures->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
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

    const std::pair<QComboBox*, QString> combos[] = {{m_bytes, tr("Bytes per element")},
                                                     {m_schedule, tr("Schedule")},
                                                     {m_zero, tr("ZeRO stage")},
                                                     {m_placement, tr("Placement")}};
    for (const auto& [combo, label] : combos) {
        m_labels.insert(combo, label);
        connect(combo, &QComboBox::currentIndexChanged, this,
                [this, label, w = combo] { onFieldEdited(label, w); });
    }
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
        applyPreset(m_preset->currentText());
        emit fieldEdited(tr("Model"));
    });
    connect(m_resetPreset, &QPushButton::clicked, this, [this] {
        resetToPreset();
        emit fieldEdited(tr("Model"));
    });
    connect(m_generate, &QPushButton::clicked, this, [this] { emit generateRequested(spec()); });

    applyPreset(m_preset->currentText());
}

QSpinBox* ModelBuilderPanel::addInt(QFormLayout* form, const QString& label, int min, int max,
                                    const QString& tip) {
    auto* box = new QSpinBox;
    box->setRange(min, max);
    box->setGroupSeparatorShown(true);
    box->setToolTip(tip);
    form->addRow(label, box);
    m_labels.insert(box, label);
    connect(box, &QSpinBox::valueChanged, this, [this, label, box] { onFieldEdited(label, box); });
    return box;
}

QDoubleSpinBox* ModelBuilderPanel::addDouble(QFormLayout* form, const QString& label, double min,
                                             double max, int decimals, const QString& suffix) {
    auto* box = new QDoubleSpinBox;
    box->setRange(min, max);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    form->addRow(label, box);
    m_labels.insert(box, label);
    connect(box, &QDoubleSpinBox::valueChanged, this,
            [this, label, box] { onFieldEdited(label, box); });
    return box;
}

QCheckBox* ModelBuilderPanel::addCheck(QFormLayout* form, const QString& label) {
    auto* box = new QCheckBox;
    form->addRow(label, box);
    m_labels.insert(box, label);
    connect(box, &QCheckBox::toggled, this, [this, label, box] { onFieldEdited(label, box); });
    return box;
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
            m_tp->setValue(fit.spec.parallel.tp);
            m_pp->setValue(fit.spec.parallel.pp);
            m_dp->setValue(fit.spec.parallel.dp);
            m_ep->setValue(fit.spec.parallel.ep);
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
    const ModelSpec& m = s.model;
    m_layers->setValue(m.layers);
    m_hidden->setValue(m.hidden);
    m_heads->setValue(m.heads);
    m_kvHeads->setValue(m.kvHeads);
    m_ffn->setValue(m.ffn);
    m_vocabulary->setValue(m.vocabulary);
    m_sequence->setValue(m.sequence);
    m_swiglu->setChecked(m.swiglu);
    m_experts->setValue(m.experts);
    m_topK->setValue(m.topK);
    m_sharedExperts->setValue(m.sharedExperts);
    m_expertFfn->setValue(m.expertFfn);
    m_microBatch->setValue(s.training.microBatch);
    m_microBatches->setValue(std::max(1, s.microBatches()));
    m_bytes->setCurrentText(QString::number(s.training.bytesPerElement));
    m_flash->setChecked(s.training.flashAttention);
    const ParallelSpec& p = s.parallel;
    m_tp->setValue(p.tp);
    m_pp->setValue(p.pp);
    m_dp->setValue(p.dp);
    m_ep->setValue(p.ep);
    m_schedule->setCurrentText(pipelineScheduleName(p.schedule));
    m_virtualStages->setValue(p.virtualStages);
    m_zero->setCurrentIndex(p.zeroStage);
    m_sp->setChecked(p.sequenceParallel);
    m_recompute->setChecked(p.recompute);
    m_bucketMiB->setValue(int(p.bucketBytes >> 20));
    m_placement->setCurrentIndex(
        std::max(0, int(kPlacements.indexOf(QString::fromStdString(p.placement)))));
    m_peak->setValue(s.compute.peakTflops);
    m_hbmBandwidth->setValue(s.compute.hbmGBps);
    m_efficiency->setValue(s.compute.efficiency);
    m_hbmCapacity->setValue(s.compute.hbmCapacityGiB);
    // Transformer-only fields make no sense for DLRM / ResNet.
    const bool transformer = m.kind == ModelKind::Transformer;
    for (QWidget* w : std::initializer_list<QWidget*>{
             m_layers,   m_hidden,    m_heads,   m_kvHeads, m_ffn,           m_vocabulary,
             m_sequence, m_swiglu,    m_experts, m_topK,    m_sharedExperts, m_expertFfn,
             m_flash,    m_tp,        m_pp,      m_ep,      m_schedule,      m_virtualStages,
             m_sp,       m_recompute, m_zero})
        w->setEnabled(transformer);
    m_loading = false;
    refresh();
}

GeneratorSpec ModelBuilderPanel::spec() const {
    GeneratorSpec s = m_base;
    ModelSpec& m = s.model;
    m.layers = m_layers->value();
    m.hidden = m_hidden->value();
    m.heads = m_heads->value();
    m.kvHeads = m_kvHeads->value();
    m.ffn = m_ffn->value();
    m.vocabulary = m_vocabulary->value();
    m.sequence = m_sequence->value();
    m.swiglu = m_swiglu->isChecked();
    m.experts = m_experts->value();
    m.topK = m_topK->value();
    m.sharedExperts = m_sharedExperts->value();
    m.expertFfn = m_expertFfn->value();
    m.name = builtModelName(m, m_origin);
    ParallelSpec& p = s.parallel;
    p.tp = m_tp->value();
    p.pp = m_pp->value();
    p.dp = m_dp->value();
    p.ep = m_ep->value();
    p.schedule = parsePipelineSchedule(m_schedule->currentText().toStdString());
    p.virtualStages = m_virtualStages->value();
    p.zeroStage = m_zero->currentIndex();
    p.sequenceParallel = m_sp->isChecked();
    p.recompute = m_recompute->isChecked();
    p.bucketBytes = uint64_t(m_bucketMiB->value()) << 20;
    p.placement = m_placement->currentText().toStdString();
    s.training.microBatch = m_microBatch->value();
    s.training.globalBatch = m_microBatches->value() * m_microBatch->value() * p.dp;
    s.training.bytesPerElement = m_bytes->currentText().toInt();
    s.training.flashAttention = m_flash->isChecked();
    s.compute.peakTflops = m_peak->value();
    s.compute.hbmGBps = m_hbmBandwidth->value();
    s.compute.efficiency = m_efficiency->value();
    s.compute.hbmCapacityGiB = m_hbmCapacity->value();
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
