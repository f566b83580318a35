#include "utilization/UtilizationView.h"

#include "core/Units.h"
#include "timeline/ImageExport.h"
#include "timeline/TimeAxis.h"
#include "utilization/HeatmapWidget.h"
#include "utilization/HottestLinksModel.h"
#include "utilization/SummaryPanel.h"
#include "utilization/UtilizationChart.h"
#include "utilization/UtilizationData.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace astrolabe::widgets {

namespace {

/// `page` in a frameless scroll area that resizes it (so at 100 % it just fills the tab).
QScrollArea* scrolling(QWidget* page) {
    auto* area = new QScrollArea;
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

} // namespace

UtilizationView::UtilizationView(QWidget* parent)
    : QWidget(parent) {
    m_tabs = new QTabWidget(this);
    m_summary = new SummaryPanel(this);
    connect(m_summary, &SummaryPanel::congestionAwareRunRequested, this,
            &UtilizationView::congestionAwareRunRequested);
    m_chart = new UtilizationChart(this);
    m_linkHeatmap = new HeatmapWidget(this);
    m_traffic = new HeatmapWidget(this);
    m_links = new HottestLinksModel(this);
    m_linkTable = new QTableView(this);
    m_linkTable->setModel(m_links);
    m_linkTable->setSortingEnabled(true);
    m_linkTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_linkTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_linkTable->verticalHeader()->hide();
    m_linkTable->sortByColumn(HottestLinksModel::Bytes, Qt::DescendingOrder);

    auto* overTime = new QSplitter(Qt::Vertical, this);
    overTime->addWidget(m_chart);
    overTime->addWidget(m_linkHeatmap);
    overTime->setSizes({500, 400});

    auto* linksPage = new QWidget(this);
    auto* linksLayout = new QVBoxLayout(linksPage);
    linksLayout->addWidget(new QLabel(tr("Hottest links first. Select rows to plot them under "
                                         "\"Over time\"."),
                                      linksPage));
    linksLayout->addWidget(m_linkTable);

    // The charts' minimum heights grow with the interface scale (presentation mode); the pages
    // scroll when the tab is shorter than that, rather than squeezing the charts' labels out.
    m_tabs->addTab(scrolling(m_summary), tr("Summary"));
    m_tabs->addTab(scrolling(overTime), tr("Over time"));
    m_tabs->addTab(linksPage, tr("Links"));
    m_tabs->addTab(m_traffic, tr("Traffic matrix"));

    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Save the visible page as PNG or SVG"));
    m_tabs->setCornerWidget(exportButton, Qt::TopRightCorner);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_tabs);

    m_linkHeatmap->setValueFormat(
        [](float v) { return QStringLiteral("%1 %").arg(100.0 * v, 0, 'f', 0); });
    m_traffic->setValueFormat([](float v) {
        return QString::fromStdString(units::formatSize(static_cast<uint64_t>(std::llround(v))));
    });
    connect(exportButton, &QToolButton::clicked, this, &UtilizationView::exportWithDialog);
    connect(m_linkTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &UtilizationView::showSelectedLinks);
    setResult(nullptr, {});
}

void UtilizationView::setResult(std::shared_ptr<const RunResult> result,
                                const PlatformSpec& platform, const SystemConfig* system) {
    m_result = std::move(result);
    m_summary->setResult(m_result, platform, system);
    m_chart->setResult(m_result);
    m_links->setResult(m_result);
    if (!m_result) {
        m_linkHeatmap->setGrid({}, 0, 0);
        m_traffic->setGrid({}, 0, 0);
        return;
    }
    if (m_result->linkSeries.empty() && !m_result->linkGroupSeries.empty())
        showLinkGroupHeatmap();
    else
        showLinkHeatmap();

    const int n = m_result->npuCount;
    if (!m_result->trafficBytes.empty() &&
        m_result->trafficBytes.size() == static_cast<size_t>(n) * static_cast<size_t>(n)) {
        std::vector<float> traffic(m_result->trafficBytes.begin(), m_result->trafficBytes.end());
        m_traffic->setGrid(std::move(traffic), n, n);
        m_traffic->setTitles(tr("Traffic matrix (bytes sent)"), tr("source NPU"),
                             tr("destination NPU"));
        m_traffic->setCellText([](int row, int col, float v) {
            return QStringLiteral("NPU %1 → NPU %2: %3")
                .arg(row)
                .arg(col)
                .arg(QString::fromStdString(
                    units::formatSize(static_cast<uint64_t>(std::llround(v)))));
        });
    } else {
        m_traffic->setGrid({}, 0, 0);
        m_traffic->setTitles(tr("Traffic matrix not recorded (too many NPUs)"), {}, {});
    }
}

void UtilizationView::showLinkHeatmap() {
    // Links x time: rows are links in their recorded order (grouped by dimension).
    const auto& series = m_result->linkSeries;
    const int rows = static_cast<int>(series.size());
    const int cols = rows > 0 ? static_cast<int>(series.front().size()) : 0;
    std::vector<float> grid(static_cast<size_t>(rows) * cols, 0.0f);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols && c < static_cast<int>(series[r].size()); ++c)
            grid[static_cast<size_t>(r) * cols + c] = series[r][c];
    m_linkHeatmap->setGrid(std::move(grid), rows, cols, 1.0f);
    m_linkHeatmap->setTitles(
        tr("Link utilization (links × time, max per pixel)"), tr("link"),
        tr("time bucket (%1 each)")
            .arg(QString::fromStdString(formatTime(m_result->seriesBucket.ps()))));
    const auto shared = m_result;
    m_linkHeatmap->setCellText([shared](int row, int col, float v) {
        const LinkInfo& l = shared->links[static_cast<size_t>(row)];
        return QStringLiteral("link %1: %2 → %3, dimension %4<br>t = %5: %6 %")
            .arg(row)
            .arg(l.src)
            .arg(l.dst)
            .arg(l.dimension)
            .arg(QString::fromStdString(formatTime(shared->seriesBucket.ps() * col)))
            .arg(100.0 * v, 0, 'f', 1);
    });
}

void UtilizationView::showLinkGroupHeatmap() {
    // A stored run with many links keeps its series per group of links (record/LinkGroups.h):
    // rows are groups, in dimension order, each its links' highest utilization per bucket.
    const auto& groups = m_result->linkGroupSeries;
    const int rows = static_cast<int>(groups.size());
    const int cols = rows > 0 ? static_cast<int>(groups.front().max.size()) : 0;
    std::vector<float> grid(static_cast<size_t>(rows) * cols, 0.0f);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols && c < static_cast<int>(groups[r].max.size()); ++c)
            grid[static_cast<size_t>(r) * cols + c] = groups[r].max[c];
    m_linkHeatmap->setGrid(std::move(grid), rows, cols, 1.0f);
    m_linkHeatmap->setTitles(
        tr("Link utilization (groups of links × time, busiest link per pixel)"), tr("link group"),
        tr("time bucket (%1 each)")
            .arg(QString::fromStdString(formatTime(m_result->seriesBucket.ps()))));
    const auto shared = m_result;
    m_linkHeatmap->setCellText([shared](int row, int col, float v) {
        const LinkGroupSeries& g = shared->linkGroupSeries[static_cast<size_t>(row)];
        const float mean = static_cast<size_t>(col) < g.mean.size() ? g.mean[col] : 0.0f;
        return QStringLiteral("dimension %1, links %2–%3 of the dimension (%4 links)<br>"
                              "t = %5: busiest %6 %, mean %7 %")
            .arg(g.dimension)
            .arg(g.firstRank)
            .arg(g.firstRank + g.linkCount - 1)
            .arg(g.linkCount)
            .arg(QString::fromStdString(formatTime(shared->seriesBucket.ps() * col)))
            .arg(100.0 * v, 0, 'f', 1)
            .arg(100.0 * mean, 0, 'f', 1);
    });
}

void UtilizationView::showSelectedLinks() {
    std::vector<int> links;
    for (const QModelIndex& index : m_linkTable->selectionModel()->selectedRows())
        links.push_back(m_links->linkAt(index.row()));
    if (links.size() > 8)
        links.resize(8); // more lines than this are unreadable
    m_chart->setLinks(links);
}

bool UtilizationView::exportImage(const QString& path) const {
    QWidget* page = m_tabs->currentWidget();
    if (auto* area = qobject_cast<QScrollArea*>(page))
        page = area->widget(); // the whole page, not the part scrolled into view
    return exportWidget(path, page);
}

void UtilizationView::exportWithDialog() {
    const QString filter = svgExportAvailable() ? tr("PNG image (*.png);;SVG drawing (*.svg)")
                                                : tr("PNG image (*.png)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"),
                                                      QStringLiteral("utilization.png"), filter);
    if (!path.isEmpty())
        exportImage(path);
}

} // namespace astrolabe::widgets
