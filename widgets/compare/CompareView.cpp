#include "compare/CompareView.h"

#include "common/InterfaceScale.h"
#include "compare/AlignedTimelines.h"
#include "compare/CompareCharts.h"
#include "compare/MetricsTableModel.h"
#include "compare/SettingsTableModel.h"
#include "timeline/ImageExport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace astrolabe::widgets {
namespace {

QTableView* newTable(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setAlternatingRowColors(false);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(InterfaceScale::px(22));
    view->horizontalHeader()->setStretchLastSection(false);
    view->setWordWrap(false);
    return view;
}

QString csvField(QString s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
        s.contains(QLatin1Char('\n')))
        return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
               QLatin1Char('"');
    return s;
}

QString csvLine(const QStringList& fields) {
    QStringList out;
    for (const QString& f : fields)
        out << csvField(f);
    return out.join(QLatin1Char(',')) + QLatin1Char('\n');
}

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent)
    , m_settings(new SettingsTableModel(this))
    , m_metrics(new MetricsTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);

    auto* hint = new QLabel(tr("Select 2 to 6 runs in the Runs list (Ctrl+click or Shift+click) "
                               "and press <b>Compare selected</b>."),
                            m_stack);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    m_stack->addWidget(hint);

    auto* page = new QWidget(m_stack);
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(6, 6, 6, 6);
    auto* bar = new QHBoxLayout;
    m_title = new QLabel(page);
    bar->addWidget(m_title);
    bar->addStretch(1);
    bar->addWidget(new QLabel(tr("Baseline:"), page));
    m_baseline = new QComboBox(page);
    m_baseline->setToolTip(tr("Ratios in the results table are value / baseline value"));
    // As wide as the longest run name in the current font: sized once, it was cut at 200 %.
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_baseline->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    connect(m_baseline, &QComboBox::currentIndexChanged, this, &CompareView::setBaseline);
    bar->addWidget(m_baseline);
    m_onlyDifferences = new QCheckBox(tr("Only differing settings"), page);
    connect(m_onlyDifferences, &QCheckBox::toggled, m_settings,
            &SettingsTableModel::setOnlyDifferences);
    bar->addWidget(m_onlyDifferences);
    // The export buttons sit beside the sub-tabs (Table, Timelines, Sweep), where the row has
    // room: in the top row they squeezed the baseline's combo box below its text at 200 %.
    auto* exports = new QWidget(page);
    auto* exportRow = new QHBoxLayout(exports);
    exportRow->setContentsMargins(0, 0, 0, 2);
    auto* csvButton = new QPushButton(tr("Export CSV…"), exports);
    connect(csvButton, &QPushButton::clicked, this, &CompareView::exportCsvWithDialog);
    exportRow->addWidget(csvButton);
    auto* imageButton = new QPushButton(tr("Export charts…"), exports);
    connect(imageButton, &QPushButton::clicked, this, &CompareView::exportChartsWithDialog);
    exportRow->addWidget(imageButton);
    pageLayout->addLayout(bar);

    m_tabs = new QTabWidget(page);
    m_tabs->setCornerWidget(exports, Qt::TopRightCorner);
    // Settings on the left (long and narrow), results and their chart on the right.
    auto* tables = new QSplitter(Qt::Horizontal, m_tabs);
    m_settingsView = newTable(m_settings, tables);
    auto* right = new QSplitter(Qt::Vertical, tables);
    m_metricsView = newTable(m_metrics, right);
    m_breakdown = new BreakdownChart(right);
    right->addWidget(m_metricsView);
    right->addWidget(m_breakdown);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 2);
    right->setSizes({250, 600});
    m_settingsView->viewport()->installEventFilter(this);
    m_metricsView->viewport()->installEventFilter(this);
    tables->addWidget(m_settingsView);
    tables->addWidget(right);
    tables->setStretchFactor(0, 2);
    tables->setStretchFactor(1, 3);
    tables->setSizes({720, 680});
    m_tabs->addTab(tables, tr("Table"));

    m_timelines = new AlignedTimelines(m_tabs);
    m_tabs->addTab(m_timelines, tr("Timelines"));

    auto* sweepPage = new QWidget(m_tabs);
    auto* sweepLayout = new QVBoxLayout(sweepPage);
    m_sweepNote = new QLabel(sweepPage);
    m_sweepNote->setWordWrap(true);
    sweepLayout->addWidget(m_sweepNote);
    m_sweep = new SweepChart(sweepPage);
    sweepLayout->addWidget(m_sweep, 1);
    m_tabs->addTab(sweepPage, tr("Sweep"));
    pageLayout->addWidget(m_tabs, 1);
    m_stack->addWidget(page);
    // Zooming grows the fonts after the columns were fitted: fit them again once the new
    // fonts have reached the tables.
    connect(&InterfaceScale::instance(), &InterfaceScale::changed, this,
            [this] { QTimer::singleShot(0, this, &CompareView::fitColumns); });
}

void CompareView::fitColumns() {
    for (QTableView* view : {m_settingsView, m_metricsView}) {
        view->verticalHeader()->setDefaultSectionSize(InterfaceScale::px(22));
        view->resizeColumnsToContents();
    }
    // Long values ("analytical-congestion-unaware") are elided; the tooltip has them whole. A
    // run's column takes its values up to 170 px, and no more than its share of what the names
    // leave, down to its header's width: a setting's name is read first (at 1280 x 800 two
    // 170 px columns of short values would cut "chunks (preferred dataset splits)").
    const int maxSettingColumn = InterfaceScale::px(170); // presentation mode: wider text
    const int runColumns = m_settings->columnCount() - 1;
    if (runColumns > 0) {
        const int share =
            (m_settingsView->viewport()->width() - m_settingsView->columnWidth(0) - 2) / runColumns;
        QHeaderView* header = m_settingsView->horizontalHeader();
        const QFontMetrics metrics = header->fontMetrics();
        const int margin =
            2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
        for (int c = 1; c <= runColumns; ++c) {
            int floor = 0; // the widest line of the header ("Quick start #1", "(baseline)")
            for (const QString& line :
                 m_settings->headerData(c, Qt::Horizontal).toString().split(QLatin1Char('\n')))
                floor = std::max(floor, metrics.horizontalAdvance(line) + margin);
            const int wanted = std::min(maxSettingColumn, m_settingsView->columnWidth(c));
            m_settingsView->setColumnWidth(c, std::min(wanted, std::max(floor, share)));
        }
    }
    // The names too ("active chunks per dimension", "exposed communication (max)"): whole when
    // the table has the room, else cut to what the runs' columns leave (at least 150 px) with
    // the tooltip holding them; whole at any width, they pushed the first run's column out of
    // sight at 200 %.
    for (QTableView* view : {m_settingsView, m_metricsView}) {
        int runs = 0;
        for (int c = 1; c < view->model()->columnCount(); ++c)
            runs += view->columnWidth(c);
        const int room = view->viewport()->width() - runs - 2;
        view->setColumnWidth(
            0, std::min(view->columnWidth(0), std::max(InterfaceScale::px(150), room)));
    }
}

void CompareView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitColumns();
}

// The tables also change width without this view (the splitter between them, its first layout):
// the columns are fitted again to the width they have then.
bool CompareView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize &&
        (watched == m_settingsView->viewport() || watched == m_metricsView->viewport()))
        QTimer::singleShot(0, this, &CompareView::fitColumns);
    return QWidget::eventFilter(watched, event);
}

void CompareView::setRuns(CompareRuns runs) {
    if (static_cast<int>(runs.size()) > kMaxRuns)
        runs.resize(kMaxRuns);
    m_runs = std::move(runs);
    const bool enough = static_cast<int>(m_runs.size()) >= kMinRuns;
    m_stack->setCurrentIndex(enough ? 1 : 0);
    m_settings->setRuns(enough ? m_runs : CompareRuns{});
    m_metrics->setRuns(enough ? m_runs : CompareRuns{});
    {
        const QSignalBlocker block(m_baseline);
        m_baseline->clear();
        for (const CompareRun& r : m_runs)
            m_baseline->addItem(r.name);
    }
    m_title->setText(m_runs.size() == 1 ? tr("Comparing <b>1</b> run")
                                        : tr("Comparing <b>%1</b> runs").arg(m_runs.size()));
    m_breakdown->setMetrics(*m_metrics);
    const std::optional<SettingRow> axis = findSweepAxis(m_settings->allRows());
    m_sweep->setSweep(axis, *m_metrics);
    m_sweepNote->setText(
        axis ? tr("The runs differ only in <b>%1</b>: each metric against it.")
                   .arg(QString::fromStdString(axis->label).toHtmlEscaped())
             : tr("A sweep needs runs that differ in exactly one numeric setting."));
    m_timelines->setRuns(enough ? m_runs : CompareRuns{});
    fitColumns();
}

void CompareView::setBaseline(int run) {
    m_metrics->setBaseline(run);
    if (m_baseline->currentIndex() != run) {
        const QSignalBlocker block(m_baseline);
        m_baseline->setCurrentIndex(run);
    }
    m_metricsView->resizeColumnsToContents();
}

QString CompareView::csv() const {
    QString out;
    QStringList header{QStringLiteral("section"), QStringLiteral("key"), QStringLiteral("item"),
                       QStringLiteral("unit")};
    const QString baseline = m_metrics->baseline() < static_cast<int>(m_runs.size())
                                 ? m_runs[static_cast<size_t>(m_metrics->baseline())].name
                                 : QString();
    for (const CompareRun& r : m_runs)
        header << r.name;
    for (const CompareRun& r : m_runs)
        header << tr("%1 / %2").arg(r.name, baseline);
    out += csvLine(header);
    for (const SettingRow& row : m_settings->allRows()) {
        QStringList f{QStringLiteral("setting"), QString::fromStdString(row.key),
                      QString::fromStdString(row.label), QString()};
        for (const std::string& t : row.texts)
            f << QString::fromStdString(t);
        out += csvLine(f);
    }
    for (const MetricRow& row : m_metrics->rows()) {
        QStringList f{QStringLiteral("result"), QString::fromStdString(row.key),
                      QString::fromStdString(row.label),
                      QString::fromLatin1(metricUnitName(row.unit))};
        const auto& base = row.values[static_cast<size_t>(m_metrics->baseline())];
        for (const auto& v : row.values)
            f << (v ? QString::number(*v, 'g', 17) : QString());
        for (const auto& v : row.values) {
            const auto ratio = metricRatio(v, base);
            f << (ratio ? QString::number(*ratio, 'g', 6) : QString());
        }
        out += csvLine(f);
    }
    return out;
}

bool CompareView::exportCsv(const QString& path) const {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return false;
    return file.write(csv().toUtf8()) >= 0;
}

QStringList CompareView::exportCharts(const QString& directory, const QString& stem) {
    QStringList written;
    const QDir dir(directory);
    auto save = [&](QWidget* widget, const QString& name) {
        const QString base = dir.absoluteFilePath(stem + QLatin1Char('_') + name);
        if (exportWidgetPng(base + QStringLiteral(".png"), widget))
            written << base + QStringLiteral(".png");
        if (svgExportAvailable() && exportWidgetSvg(base + QStringLiteral(".svg"), widget))
            written << base + QStringLiteral(".svg");
    };
    save(m_breakdown, QStringLiteral("breakdown"));
    save(m_sweep, QStringLiteral("sweep"));
    if (m_timelines->count() > 0)
        save(m_timelines, QStringLiteral("timelines"));
    return written;
}

void CompareView::exportCsvWithDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"), QString(),
                                                      tr("CSV files (*.csv)"));
    if (!path.isEmpty() && !exportCsv(path))
        QMessageBox::warning(this, tr("Export comparison"), tr("Could not write %1").arg(path));
}

void CompareView::exportChartsWithDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export charts"), QStringLiteral("comparison"),
                                     tr("Images: PNG and SVG (*.png *.svg)"));
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    const QStringList written = exportCharts(info.absolutePath(), info.completeBaseName());
    if (written.isEmpty())
        QMessageBox::warning(this, tr("Export charts"), tr("Could not write the images"));
}

} // namespace astrolabe::widgets
