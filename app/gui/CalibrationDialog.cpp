#include "gui/CalibrationDialog.h"

#include "calibrate/CalibratedProject.h"
#include "calibrate/CalibrationPlot.h"
#include "core/Error.h"
#include "gui/ProjectDocument.h"
#include "png/SvgPngModule.h"
#include "png/SvgRender.h"
#include "spec/PlatformSpec.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScatterSeries>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace astrolabe::gui {
namespace {

/// "Dimension 1: Switch of 2 NPUs (inter-node)"
QString dimensionLabel(const PlatformSpec& platform, size_t d) {
    const DimensionSpec& dim = platform.dimensions[d];
    QString where;
    if (platform.dimensions.size() > 1)
        where = d == 0                                ? QObject::tr(" (intra-node)")
                : d + 1 == platform.dimensions.size() ? QObject::tr(" (inter-node)")
                                                      : QString();
    return QObject::tr("Dimension %1: %2 of %3 NPUs%4")
        .arg(d)
        .arg(QString::fromUtf8(blockKindName(dim.kind)))
        .arg(dim.size)
        .arg(where);
}

} // namespace

CalibrationDialog::CalibrationDialog(ProjectDocument* document, QWidget* parent)
    : QDialog(parent)
    , m_document(document)
    , m_files(new QListWidget(this))
    , m_dimension(new QComboBox(this))
    , m_fit(new QPushButton(tr("&Fit"), this))
    , m_apply(new QPushButton(tr("&Apply to Project"), this))
    , m_saveChart(new QPushButton(tr("&Save Chart\u2026"), this))
    , m_report(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_chart(new QChartView(this)) {
    setWindowTitle(tr("Calibrate from nccl-tests"));
    auto* add = new QPushButton(tr("Add &Files\u2026"), this);
    auto* remove = new QPushButton(tr("&Remove"), this);
    connect(add, &QPushButton::clicked, this, &CalibrationDialog::chooseFiles);
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_files->selectedItems());
        updateButtons();
    });
    m_files->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_files->setToolTip(tr("Output of all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
                           "alltoall_perf or sendrecv_perf (or rccl-tests), text or CSV, "
                           "all from the dimension chosen below."));
    const PlatformSpec& platform = document->spec().platform;
    for (size_t d = 0; d < platform.dimensions.size(); ++d)
        m_dimension->addItem(dimensionLabel(platform, d));
    m_files->setMaximumHeight(m_files->fontMetrics().height() * 6);
    // Another dimension: its own notes (its NPU count against the runs' ranks), and Apply again.
    connect(m_dimension, &QComboBox::currentIndexChanged, this, [this] {
        if (m_result && !m_fitting)
            showPreview();
    });
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_report->setPlaceholderText(tr("The fit and its held-out errors appear here."));
    m_chart->setMinimumSize(480, 300);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();

    auto* fileButtons = new QVBoxLayout;
    fileButtons->addWidget(add);
    fileButtons->addWidget(remove);
    fileButtons->addStretch();
    auto* files = new QHBoxLayout;
    files->addWidget(m_files, 1);
    files->addLayout(fileButtons);
    auto* form = new QFormLayout;
    form->addRow(tr("Measurements:"), files);
    form->addRow(tr("They exercised:"), m_dimension);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_fit, QDialogButtonBox::ActionRole);
    buttons->addButton(m_apply, QDialogButtonBox::ApplyRole);
    buttons->addButton(m_saveChart, QDialogButtonBox::ActionRole);
    m_saveChart->setToolTip(tr("The chart as SVG or PNG, as 'astrolabe-cli calibrate --plot' "
                               "draws it"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_fit, &QPushButton::clicked, this, &CalibrationDialog::fit);
    connect(m_apply, &QPushButton::clicked, this, &CalibrationDialog::applyToProject);
    connect(m_saveChart, &QPushButton::clicked, this, &CalibrationDialog::chooseChartFile);
    // The report's tables want the width more than the chart does; the handle moves it.
    auto* results = new QSplitter(Qt::Horizontal, this);
    results->addWidget(m_report);
    results->addWidget(m_chart);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);
    results->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(results, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    updateButtons();
    // The report's lines run to about 110 characters and the chart wants as much: open wide
    // enough for both side by side (the report scrolls sideways below that).
    const QSize wanted(
        m_report->fontMetrics().horizontalAdvance(QString(112, QLatin1Char('M'))) + 560, 720);
    const QSize room = parent ? parent->size() * 0.95 : wanted;
    resize(std::min(wanted.width(), std::max(room.width(), 900)),
           std::min(wanted.height(), std::max(room.height(), 600)));
    const int shared = width() - 40;
    results->setSizes({shared * 3 / 5, shared * 2 / 5});
}

CalibrationDialog::~CalibrationDialog() {
    if (m_worker.joinable())
        m_worker.join();
}

void CalibrationDialog::chooseFiles() {
    addFiles(QFileDialog::getOpenFileNames(
        this, tr("nccl-tests Output"), QString(),
        tr("nccl-tests output (*.txt *.log *.out *.csv);;All files (*)")));
}

void CalibrationDialog::addFiles(const QStringList& paths) {
    for (const QString& path : paths)
        if (m_files->findItems(path, Qt::MatchExactly).isEmpty())
            m_files->addItem(path);
    updateButtons();
}

void CalibrationDialog::setDimension(int dimension) {
    m_dimension->setCurrentIndex(dimension);
}

bool CalibrationDialog::fit() {
    if (m_fitting || m_files->count() == 0)
        return false;
    std::vector<std::string> paths;
    for (int i = 0; i < m_files->count(); ++i)
        paths.push_back(m_files->item(i)->text().toStdString());
    FitOptions options;
    options.reduceUsPerByte = reduceUsPerByte(m_document->spec());
    if (m_worker.joinable())
        m_worker.join();
    m_fitting = true;
    m_result.reset();
    m_report->setPlainText(tr("Fitting\u2026"));
    setStatus(QString(), false);
    updateButtons();
    m_worker = std::thread([this, paths, options] {
        std::shared_ptr<const Calibration> result;
        QString error;
        try {
            std::vector<NcclRun> runs;
            for (const std::string& path : paths)
                runs.push_back(readNcclTests(path));
            result = std::make_shared<const Calibration>(calibrate(std::move(runs), options));
        } catch (const Error& e) {
            error = QString::fromStdString(e.what());
        }
        // The dialog outlives the worker (its destructor joins), so `this` is still there.
        QMetaObject::invokeMethod(
            this, [this, result, error] { showResult(result, error); }, Qt::QueuedConnection);
    });
    return true;
}

void CalibrationDialog::showResult(std::shared_ptr<const Calibration> calibration,
                                   const QString& error) {
    m_fitting = false;
    m_result = std::move(calibration);
    if (!m_result) {
        fail(error);
        return;
    }
    if (!showPreview())
        return;
    showChart(*m_result);
    updateButtons();
    emit fitted(true);
}

bool CalibrationDialog::showPreview() {
    m_applied = false;
    SimulationSpec preview = m_document->spec();
    const int dimension = m_dimension->currentIndex();
    AppliedCalibration applied;
    try {
        applied = applyCalibration(preview, dimension, m_result->fit, m_result->runs);
    } catch (const Error& e) {
        m_result.reset();
        fail(QString::fromStdString(e.what()));
        return false;
    }
    // What does not match the project (rank counts, mixed systems) comes first, where it is
    // read before the numbers it puts in doubt.
    QString notes;
    for (const std::string& w : applied.warnings)
        notes += tr("Note: %1\n").arg(QString::fromStdString(w));
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap); // its tables stay tables
    m_report->setPlainText((notes.isEmpty() ? QString() : notes + QLatin1Char('\n')) +
                           QString::fromStdString(calibrationReportText(*m_result)) +
                           QString::fromStdString(applied.settings));
    const QString apply = tr("Apply to Project writes the settings of the last regime into "
                             "dimension %1; Edit > Undo takes them back.")
                              .arg(dimension);
    if (applied.warnings.empty())
        setStatus(tr("Fitted. %1").arg(apply), false);
    else
        setStatus(
            tr("Fitted, but check %1 first: %2. %3")
                .arg(applied.warnings.size() == 1
                         ? tr("the note at the top of the report")
                         : tr("the %1 notes at the top of the report").arg(applied.warnings.size()),
                     QString::fromStdString(applied.warnings.front()), apply),
            true);
    updateButtons();
    return true;
}

void CalibrationDialog::fail(const QString& error) {
    // The message as the command line prints it (file:line: what was expected, found, hint),
    // wrapped, under a report that says nothing was fitted, and no chart of an earlier fit.
    m_report->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_report->setPlainText(tr("No fit: the files could not be fitted.\n\n%1").arg(error));
    clearChart();
    setStatus(tr("The fit failed: %1").arg(error), true);
    updateButtons();
    emit fitted(false);
}

void CalibrationDialog::setStatus(const QString& text, bool problem) {
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color: #b00020;") : QString());
    m_status->setVisible(!text.isEmpty());
}

QString CalibrationDialog::statusText() const {
    return m_status->text();
}

void CalibrationDialog::clearChart() {
    QChart* old = m_chart->chart();
    m_chart->setChart(new QChart);
    delete old;
}

void CalibrationDialog::showChart(const Calibration& c) {
    auto* chart = new QChart;
    chart->setTitle(tr("Bus bandwidth: measured (dots), fitted (line), held out (squares)"));
    auto* x = new QLogValueAxis;
    x->setBase(10);
    x->setLabelFormat(QStringLiteral("%.0e"));
    x->setTitleText(tr("message size (bytes)"));
    auto* y = new QLogValueAxis;
    y->setLabelFormat(QStringLiteral("%g"));
    y->setTitleText(tr("bus bandwidth (GB/s)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    std::vector<NcclCollective> seen;
    for (const CalibrationPoint& p : c.points)
        if (std::find(seen.begin(), seen.end(), p.collective) == seen.end())
            seen.push_back(p.collective);
    double minSize = HUGE_VAL, maxSize = 0, minBus = HUGE_VAL, maxBus = 0;
    const auto cover = [&](double size, double bus) {
        minSize = std::min(minSize, size);
        maxSize = std::max(maxSize, size);
        minBus = std::min(minBus, bus);
        maxBus = std::max(maxBus, bus);
    };
    const auto busGBps = [](const CalibrationPoint& p, double us) {
        return ncclBusFactor(p.collective, p.ranks) * static_cast<double>(p.sizeBytes) / (us * 1e3);
    };
    for (const NcclCollective collective : seen) {
        const QString name = QString::fromUtf8(ncclCollectiveName(collective));
        // The collective's colour of the command line's chart, for its dots, line and squares.
        const QColor colour(QString::fromLatin1(calibrationColour(collective)));
        auto* measured = new QScatterSeries;
        measured->setName(name);
        measured->setMarkerSize(6);
        measured->setColor(colour);
        measured->setBorderColor(colour);
        auto* heldOut = new QScatterSeries;
        heldOut->setName(tr("%1 held out").arg(name));
        // Hollow and larger than the dots, drawn over them: a prediction within a few per cent
        // of its measurement sits on the dot and would hide under it.
        heldOut->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        heldOut->setMarkerSize(11);
        heldOut->setBrush(Qt::NoBrush);
        heldOut->setPen(QPen(colour.darker(150), 1.5));
        auto* line = new QLineSeries;
        line->setName(tr("%1 fitted").arg(name));
        line->setPen(QPen(colour, 2));
        uint64_t lo = UINT64_MAX, hi = 0;
        int ranks = 0;
        for (size_t i = 0; i < c.points.size(); ++i) {
            const CalibrationPoint& p = c.points[i];
            if (p.collective != collective)
                continue;
            ranks = p.ranks;
            lo = std::min(lo, p.sizeBytes);
            hi = std::max(hi, p.sizeBytes);
            const double s = static_cast<double>(p.sizeBytes);
            const double bus = std::max(busGBps(p, p.timeUs), 1e-4);
            measured->append(s, bus);
            cover(s, bus);
            if (i < c.heldOut.predictedUs.size() && c.heldOut.predictedUs[i] > 0) {
                const double predicted = std::max(busGBps(p, c.heldOut.predictedUs[i]), 1e-4);
                heldOut->append(s, predicted);
                cover(s, predicted);
            }
        }
        for (int k = 0; k <= 100 && hi > 0; ++k) {
            const double s = static_cast<double>(lo) *
                             std::pow(static_cast<double>(hi) / static_cast<double>(lo), k / 100.0);
            line->append(s, std::max(c.fit.model.busBandwidthGBps(
                                         collective, ranks, static_cast<uint64_t>(std::llround(s))),
                                     1e-4));
        }
        for (QAbstractSeries* series :
             std::initializer_list<QAbstractSeries*>{line, measured, heldOut}) {
            chart->addSeries(series);
            series->attachAxis(x);
            series->attachAxis(y);
        }
    }
    // Every dot and square inside the frame, with a margin (the axes do not range themselves
    // on series attached after they were added).
    if (maxSize > 0) {
        // Whole decades, so the labels fall on them ("1e+06"); over more than eight, every
        // other decade, so that they do not run into each other.
        const double low = std::floor(std::log10(minSize / 1.5));
        const double high = std::ceil(std::log10(maxSize * 1.5));
        x->setBase(high - low > 8 ? 100 : 10);
        x->setRange(std::pow(10.0, low), std::pow(10.0, high));
        y->setRange(minBus / 1.5, maxBus * 1.5);
    }
    QChart* old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
}

bool CalibrationDialog::applyToProject() {
    if (!m_result || m_fitting || m_applied)
        return false;
    const int dimension = m_dimension->currentIndex();
    const std::shared_ptr<const Calibration> result = m_result;
    widgets::SpecEdit edit;
    edit.keyPath = QStringLiteral("platform.dimensions");
    edit.description = tr("Calibrate dimension %1 from nccl-tests").arg(dimension);
    // What the edit set, for the status line and the log (applyEdit applies it once, now).
    const auto set = std::make_shared<std::string>();
    edit.apply = [result, dimension, set](SimulationSpec& spec) {
        *set = applyCalibration(spec, dimension, result->fit, result->runs).settings;
    };
    try {
        m_document->applyEdit(edit);
    } catch (const Error& e) {
        setStatus(tr("Not applied: %1").arg(QString::fromStdString(e.what())), true);
        return false;
    }
    const QString settings = QString::fromStdString(*set);
    const QString summary =
        tr("Calibrated dimension %1 from %2: %3")
            .arg(dimension)
            .arg(tr("%n nccl-tests file(s)", nullptr, static_cast<int>(result->runs.size())))
            .arg(settings);
    setStatus(
        tr("Applied to the project as one step (Edit > Undo takes it back). %1").arg(settings),
        false);
    m_applied = true; // once: a second press would stack the same step again
    updateButtons();
    emit applied(summary);
    return true;
}

void CalibrationDialog::chooseChartFile() {
    QString filter;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save Chart"), QStringLiteral("calibration.svg"),
                                     tr("SVG image (*.svg);;PNG image (*.png)"), &filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!saveChart(path, &error))
        QMessageBox::warning(this, tr("Save Chart"), error);
}

bool CalibrationDialog::saveChart(const QString& path, QString* error) {
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (!m_result || m_fitting)
        return fail(tr("There is no fit to draw: choose files and Fit first."));
    const std::string title = "Calibration of " + m_document->displayName().toStdString() +
                              ", dimension " + std::to_string(m_dimension->currentIndex());
    QByteArray bytes = QByteArray::fromStdString(calibrationSvg(
        m_result->points, m_result->fit.model, m_result->heldOut.predictedUs, title));
    if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
        QString why;
        bytes = pngFromSvg(bytes, kChartPngScale, &why);
        if (bytes.isEmpty())
            return fail(tr("%1: %2").arg(path, why));
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return fail(tr("%1: cannot write the chart: %2").arg(path, file.errorString()));
    return true;
}

QString CalibrationDialog::reportText() const {
    return m_report->toPlainText();
}

void CalibrationDialog::updateButtons() {
    m_fit->setEnabled(!m_fitting && m_files->count() > 0);
    m_apply->setEnabled(!m_fitting && m_result != nullptr && !m_applied);
    m_saveChart->setEnabled(!m_fitting && m_result != nullptr);
}

} // namespace astrolabe::gui
