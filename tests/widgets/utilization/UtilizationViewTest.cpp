// Utilization models and views: QAbstractItemModelTester on every model, the link table's order,
// chart downsampling, heatmap hit-testing, export, and screenshots under screenshots/.
#include "utilization/UtilizationView.h"

#include "../timeline/SyntheticRun.h"
#include "record/LinkGroups.h"
#include "support/MachineTime.h"
#include "timeline/ImageExport.h"
#include "utilization/DimensionStatsModel.h"
#include "utilization/HeatmapWidget.h"
#include "utilization/HottestLinksModel.h"
#include "utilization/SummaryPanel.h"
#include "utilization/UtilizationChart.h"
#include "utilization/UtilizationData.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QTabWidget>
#include <QValueAxis>
#include <cstdio>
#include <ctime>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}

synthetic::SyntheticOptions smallOptions() {
    synthetic::SyntheticOptions options;
    options.dimensions = {4, 2, 2};
    options.itemsPerNpu = 20;
    return options;
}
} // namespace

TEST(HottestLinksModel, PassesTheModelTesterAndSortsHottestFirst) {
    HottestLinksModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto run = synthetic::syntheticRun(smallOptions());
    model.setResult(run);
    ASSERT_EQ(model.rowCount(), static_cast<int>(run->links.size()));
    uint64_t hottest = 0;
    for (const LinkStats& s : run->linkStats)
        hottest = std::max(hottest, s.bytes);
    EXPECT_EQ(model.index(0, HottestLinksModel::Bytes).data(Qt::UserRole).toDouble(),
              static_cast<double>(hottest));
    for (int row = 1; row < model.rowCount(); ++row)
        EXPECT_GE(model.index(row - 1, HottestLinksModel::Bytes).data(Qt::UserRole).toDouble(),
                  model.index(row, HottestLinksModel::Bytes).data(Qt::UserRole).toDouble());
    // Utilization = busy / end time.
    const int link = model.linkAt(0);
    EXPECT_NEAR(model.index(0, HottestLinksModel::Utilization).data(Qt::UserRole).toDouble(),
                100.0 * run->linkStats[link].busy.seconds() / run->endTime.seconds(), 1e-9);
    model.sort(HottestLinksModel::Dimension, Qt::AscendingOrder);
    EXPECT_EQ(model.index(0, HottestLinksModel::Dimension).data(Qt::UserRole).toInt(), 0);
    EXPECT_EQ(
        model.index(model.rowCount() - 1, HottestLinksModel::Dimension).data(Qt::UserRole).toInt(),
        2);
    EXPECT_EQ(model.index(0, HottestLinksModel::From).data().toString().left(4),
              QStringLiteral("NPU "));
    model.setResult(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(DimensionStatsModel, PassesTheModelTesterAndComputesAchievedBandwidth) {
    DimensionStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const auto run = synthetic::syntheticRun(smallOptions());
    model.setResult(run);
    ASSERT_EQ(model.rowCount(), 3);
    for (int row = 0; row < 3; ++row) {
        const DimensionStats& d = run->dimensions[row];
        const double achieved = static_cast<double>(d.bytes) / run->endTime.seconds();
        EXPECT_DOUBLE_EQ(model.value(row, DimensionStatsModel::Achieved), achieved);
        EXPECT_DOUBLE_EQ(model.value(row, DimensionStatsModel::PercentOfPeak),
                         100.0 * achieved / d.peakBandwidthBytesPerSecond);
    }
}

TEST(UtilizationChart, FeedsAtMostTwoPointsPerColumn) {
    auto run = synthetic::syntheticRun(smallOptions());
    // 20,000 buckets per link: far more than pixels.
    for (auto& series : run->linkSeries) {
        series.resize(20'000);
        for (size_t b = 0; b < series.size(); ++b)
            series[b] = static_cast<float>((b * 37) % 100) / 100.0f;
    }
    run->seriesBucket = SimTime::fromNs(10);
    UtilizationChart chart;
    chart.resize(800, 400);
    chart.show();
    chart.setResult(run);
    const std::vector<int> counts = chart.seriesPointCounts();
    ASSERT_EQ(counts.size(), 3u);
    for (int count : counts) {
        EXPECT_GT(count, 0);
        EXPECT_LE(count, 2 * 800);
    }
    chart.setLinks({0, 1});
    EXPECT_EQ(chart.seriesPointCounts().size(), 5u);
}

namespace {
/// A run of 2,000 utilization buckets of the given width: its length is 2,000 x bucket.
std::shared_ptr<RunResult> runOfLength(SimTime bucket) {
    auto run = synthetic::syntheticRun(smallOptions());
    for (auto& series : run->linkSeries)
        series.assign(2'000, 0.5f);
    run->seriesBucket = bucket;
    run->endTime = SimTime::fromPs(bucket.ps() * 2'000);
    return run;
}
} // namespace

// The window froze for minutes when a long run (886 ms) was shown after a short one (117 µs):
// the axis took the new range with the old 10 µs tick step and built ~10^5 tick items.
TEST(UtilizationChart, SwitchingBetweenRunsTenThousandTimesApartStaysFast) {
    const auto shortRun = runOfLength(SimTime::fromNs(50)); // 100 µs
    const auto longRun = runOfLength(SimTime::fromUs(500)); // 1 s: 10^4 times longer
    UtilizationChart chart;
    chart.resize(900, 400);
    chart.show();
    chart.setResult(shortRun);
    (void)chart.grab();
    double worst = 0;
    astrolabe::timing::OwnClock clock; // CPU time less the machine's pauses
    for (const auto& run : {longRun, shortRun, longRun, shortRun}) {
        clock.restart();
        chart.setResult(run);
        (void)chart.grab(); // layout and paint: the tick items are made here at the latest
        worst = std::max(worst, clock.cpuMs());
        const auto axes = chart.chart()->axes(Qt::Horizontal);
        ASSERT_EQ(axes.size(), 1);
        const auto* x = qobject_cast<const QValueAxis*>(axes.front());
        ASSERT_NE(x, nullptr);
        EXPECT_EQ(x->tickType(), QValueAxis::TicksDynamic);
        const double ticks = (x->max() - x->min()) / x->tickInterval();
        EXPECT_GE(ticks, 3.0);
        EXPECT_LE(ticks, 9.0) << "range " << x->max() << " µs, step " << x->tickInterval();
        // In the unit of the run's length: 100 µs, 1 s; never 1e+06 µs.
        const bool isShort = run == shortRun;
        EXPECT_EQ(x->titleText(),
                  isShort ? QStringLiteral("time (µs)") : QStringLiteral("time (s)"));
        EXPECT_DOUBLE_EQ(x->max(), isShort ? 100.0 : 1.0);
    }
    // The bug took minutes (10^5 tick items); a switch takes a few ms alone, but this test runs
    // beside another on two cores, where the GUI thread's CPU time has reached 50 ms (a fresh-
    // root CI run failed at that bound). The tick count above catches the mechanism itself;
    // this bound catches any return of the freeze with a wide margin on a loaded machine.
    EXPECT_LT(worst, 500.0) << "GUI-thread CPU time of the slowest switch, ms";
    std::printf("slowest switch: %.1f ms of GUI-thread CPU time\n", worst);
}

TEST(HeatmapWidget, MapsPositionsToCells) {
    HeatmapWidget heatmap;
    heatmap.resize(456, 334);
    heatmap.setGrid(std::vector<float>(4 * 10, 1.0f), 4, 10);
    const QRect plot = heatmap.plotRect(); // 316 x 276 at (56, 24)
    EXPECT_EQ(heatmap.cellAt(plot.topLeft()), QPoint(0, 0));
    EXPECT_EQ(heatmap.cellAt(plot.bottomRight()), QPoint(9, 3));
    EXPECT_EQ(heatmap.cellAt(QPoint(plot.left() + plot.width() / 2, plot.top())), QPoint(5, 0));
    EXPECT_EQ(heatmap.cellAt(QPoint(0, 0)), QPoint(-1, -1));
    EXPECT_EQ(HeatmapWidget::colorFor(0.0f), qRgb(68, 1, 84));
    EXPECT_EQ(HeatmapWidget::colorFor(1.0f), qRgb(253, 231, 37));
}

TEST(UtilizationView, ScreenshotsAndExport) {
    for (const auto& [name, run, platform] :
         {std::tuple{QStringLiteral("quickstart"), synthetic::quickStartRun(),
                     synthetic::quickStartPlatform()},
          std::tuple{QStringLiteral("1024"), synthetic::syntheticRun({}),
                     synthetic::syntheticPlatform({})}}) {
        UtilizationView view;
        view.resize(1300, 760);
        view.setResult(run, platform);
        view.show();
        EXPECT_TRUE(view.summary()->figuresText().contains(QStringLiteral("End-to-end time")));
        const QStringList pages{QStringLiteral("summary"), QStringLiteral("overtime"),
                                QStringLiteral("links"), QStringLiteral("traffic")};
        for (int tab = 0; tab < view.tabs()->count(); ++tab) {
            view.tabs()->setCurrentIndex(tab);
            EXPECT_TRUE(view.grab().save(
                screenshotPath(QStringLiteral("utilization_%1_%2.png").arg(name, pages[tab]))));
        }
    }
    UtilizationView view;
    view.resize(900, 600);
    view.setResult(synthetic::quickStartRun(), synthetic::quickStartPlatform());
    view.show();
    // The summary says what bounds the run (the engine's explanation, checked in its tests).
    const QString why = view.summary()->explanationText();
    EXPECT_TRUE(why.contains(QStringLiteral("-bound")) && why.contains(QStringLiteral("NPU 7")))
        << why.toStdString();
    EXPECT_TRUE(view.summary()->figuresText().contains(QStringLiteral("Why this long")));
    // The time table is in one unit, named in its header, and its cells do not wrap: at 250 % a
    // time was shown as "1." over "00164 ms".
    const QString figures = view.summary()->figuresText();
    EXPECT_TRUE(figures.contains(QStringLiteral("<th>mean, ")) &&
                figures.contains(QStringLiteral("<th>max, ")))
        << figures.toStdString();
    EXPECT_EQ(figures.count(QStringLiteral("white-space:nowrap\">")), 9)
        << "the end-to-end time and the eight cells of the table";
    EXPECT_FALSE(figures.contains(QStringLiteral(" ns</td>")) ||
                 figures.contains(QStringLiteral(" ms</td>")))
        << figures.toStdString();
    view.tabs()->setCurrentIndex(0);
    ASSERT_TRUE(view.exportImage(screenshotPath(QStringLiteral("utilization_export.png"))));
    if (!svgExportAvailable())
        GTEST_SKIP() << "Qt Svg not available at build time: SVG export not tested";
    const QString svg = screenshotPath(QStringLiteral("utilization_export.svg"));
    ASSERT_TRUE(view.exportImage(svg));
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().contains("<svg"));
}

TEST(UtilizationView, RunStoredWithGroupedLinkDetailShowsGroupsAndDimensions) {
    // What the project database gives back for a run with more links than its detail limit:
    // every link with its totals, no per-link series, series per group of links.
    auto run = synthetic::syntheticRun(smallOptions());
    run->linkGroupSeries = groupLinkSeries(*run, 3);
    run->linkSeries.clear();
    UtilizationView view;
    view.resize(900, 600);
    view.setResult(run, {});
    view.show();
    QApplication::processEvents();
    // One dimension curve per dimension, as for a run with per-link series.
    EXPECT_EQ(view.chart()->chart()->series().size(), linkDimensionCount(*run));
    // The link heatmap has one row per group.
    bool groupRows = false;
    for (const HeatmapWidget* heatmap : view.findChildren<HeatmapWidget*>())
        groupRows = groupRows || heatmap->rows() == static_cast<int>(run->linkGroupSeries.size());
    EXPECT_TRUE(groupRows);
    // A selected link plots its group's mean; two links of one group plot it once.
    const std::vector<int> groupOf = linkGroupIndex(*run);
    ASSERT_EQ(groupOf[0], groupOf[1]);
    view.chart()->setLinks({0, 1});
    EXPECT_EQ(view.chart()->chart()->series().size(), linkDimensionCount(*run) + 1);
}
