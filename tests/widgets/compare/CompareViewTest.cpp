// The Compare tab on three real engine runs of the quick-start platform (8-NPU ring, 1 MiB
// all-reduce, 4 chunks) at 25, 50 and 100 GiB/s: tables, highlight, sweep, timelines, export.

#include "compare/CompareView.h"

#include "app/gui/GuiTestSupport.h"
#include "compare/AlignedTimelines.h"
#include "compare/CompareCharts.h"
#include "compare/MetricsTableModel.h"
#include "compare/SettingsTableModel.h"
#include "core/Units.h"
#include "gui/MainWindow.h"
#include "gui/Presets.h"
#include "gui/RunController.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "simulation/Simulation.h"
#include "timeline/ImageExport.h"
#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineWidget.h"

#include <QAbstractItemModelTester>
#include <QBarSeries>
#include <QBarSet>
#include <QFile>
#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <gtest/gtest.h>

namespace astrolabe::widgets {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// The quick-start runs, given in the order 50, 100, 25 GiB/s (the sweep must sort them).
const CompareRuns& bandwidthRuns() {
    static const CompareRuns runs = [] {
        CompareRuns out;
        for (double gib : {50.0, 100.0, 25.0}) {
            SimulationSpec spec = gui::preset(QStringLiteral("quickstart")).spec;
            spec.platform.dimensions[0].bandwidthBytesPerSecond = gib * kGiB;
            spec.name = "ring " + std::to_string(static_cast<int>(gib));
            out.push_back({QStringLiteral("%1 GiB/s").arg(gib), spec, runSimulation(spec)});
        }
        return out;
    }();
    return runs;
}

QString screenshot(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}

TEST(CompareModels, PassTheModelTesterAndShowTheStoredNumbers) {
    const CompareRuns& runs = bandwidthRuns();
    MetricsTableModel metrics;
    QAbstractItemModelTester metricsTester(&metrics,
                                           QAbstractItemModelTester::FailureReportingMode::Fatal);
    SettingsTableModel settings;
    QAbstractItemModelTester settingsTester(&settings,
                                            QAbstractItemModelTester::FailureReportingMode::Fatal);
    metrics.setRuns(runs);
    settings.setRuns(runs);
    ASSERT_EQ(metrics.columnCount(), MetricsTableModel::FirstRunColumn + 3);

    const int end = metrics.rowOfKey("end_time");
    const int exposed = metrics.rowOfKey("exposed_comm");
    ASSERT_GE(end, 0);
    ASSERT_GE(exposed, 0);
    for (int run = 0; run < 3; ++run) {
        const RunResult& r = *runs[size_t(run)].result;
        const QModelIndex cell = metrics.index(end, MetricsTableModel::FirstRunColumn + run);
        EXPECT_EQ(cell.data(MetricsTableModel::ValueRole).toDouble(), r.endTime.ns());
        SimTime worst;
        for (const NpuSummary& s : r.npus)
            worst = std::max(worst, s.exposedComm);
        EXPECT_EQ(metrics.index(exposed, MetricsTableModel::FirstRunColumn + run)
                      .data(MetricsTableModel::ValueRole)
                      .toDouble(),
                  worst.ns());
    }
    // A pure all-reduce: nothing to compute, all communication is exposed, so exposed == end.
    EXPECT_EQ(metrics.rows()[size_t(exposed)].values, metrics.rows()[size_t(end)].values);
    // Ratios follow the baseline: run 0 (50 GiB/s) first, then run 2 (25 GiB/s).
    const double e50 = runs[0].result->endTime.ns(), e100 = runs[1].result->endTime.ns(),
                 e25 = runs[2].result->endTime.ns();
    EXPECT_LT(e100, e50);
    EXPECT_LT(e50, e25);
    const QModelIndex cell100 = metrics.index(end, MetricsTableModel::FirstRunColumn + 1);
    EXPECT_DOUBLE_EQ(cell100.data(MetricsTableModel::RatioRole).toDouble(), e100 / e50);
    metrics.setBaseline(2);
    EXPECT_DOUBLE_EQ(cell100.data(MetricsTableModel::RatioRole).toDouble(), e100 / e25);
    EXPECT_TRUE(metrics.headerData(MetricsTableModel::FirstRunColumn + 2, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("baseline")));
    // The same traffic crosses dimension 0 at every bandwidth; only the time changes.
    const int bytes = metrics.rowOfKey("dim0.bytes");
    ASSERT_GE(bytes, 0);
    const auto& b = metrics.rows()[size_t(bytes)].values;
    EXPECT_GT(*b[0], 0);
    EXPECT_EQ(b[0], b[1]);
    EXPECT_EQ(b[0], b[2]);

    // Only the bandwidth row differs, and it is highlighted.
    const int bw = settings.rowOfKey("platform.dim0.bandwidth");
    const int chunks = settings.rowOfKey("system.chunks");
    ASSERT_GE(bw, 0);
    ASSERT_GE(chunks, 0);
    EXPECT_TRUE(settings.index(bw, 1).data(SettingsTableModel::DiffersRole).toBool());
    EXPECT_TRUE(settings.index(bw, 1).data(Qt::FontRole).value<QFont>().bold());
    EXPECT_TRUE(settings.index(bw, 1).data(Qt::BackgroundRole).isValid());
    EXPECT_EQ(settings.index(bw, 3).data().toString(), QStringLiteral("25 GiB/s"));
    EXPECT_FALSE(settings.index(chunks, 1).data(SettingsTableModel::DiffersRole).toBool());
    EXPECT_FALSE(settings.index(chunks, 1).data(Qt::BackgroundRole).isValid());
    EXPECT_EQ(settings.index(chunks, 1).data().toString(), QStringLiteral("4"));
    settings.setOnlyDifferences(true);
    EXPECT_EQ(settings.rowCount(), 1);
    EXPECT_EQ(settings.rowOfKey("platform.dim0.bandwidth"), 0);
    // The unit column names the unit the row's values are written in (it said "ns" while the
    // cells showed µs): one unit per row, chosen by the row's largest value (the 25 GiB/s run).
    const units::Scale endScale = units::timeScale(e25 * 1e3, units::TimeSpelling::MicroSign);
    EXPECT_EQ(metrics.index(end, 1).data().toString().toStdString(), endScale.symbol);
    const QString shown50 = metrics.index(end, MetricsTableModel::FirstRunColumn).data().toString();
    EXPECT_NEAR(shown50.section(QLatin1Char(' '), 0, 0).toDouble(), e50 * 1e3 / endScale.factor,
                1e-4 * e50 * 1e3 / endScale.factor)
        << shown50.toStdString();
    EXPECT_FALSE(shown50.contains(QLatin1Char('e'))) << shown50.toStdString();
    EXPECT_EQ(metrics.index(bytes, 1).data().toString().toStdString(),
              units::sizeScale(*b[0]).symbol);
    // Achieved bandwidth reads in the family of the links' peak: GiB/s beside 50 GiB/s links
    // (it said GB/s).
    const int achieved = metrics.rowOfKey("dim0.bandwidth");
    ASSERT_GE(achieved, 0);
    EXPECT_EQ(metrics.index(achieved, 1).data().toString(), QStringLiteral("GiB/s"));
    metrics.setRuns({});
    EXPECT_EQ(metrics.rowCount(), 0);
}

// Time axes take the unit of their largest value: runs of about 0.6 s read in s (or ms), never
// as 600000 µs or 6e+05.
TEST(CompareView, TimeAxesUseTheUnitOfTheLongestRun) {
    CompareRuns runs;
    for (double gib : {50.0, 0.05}) {
        SimulationSpec spec = gui::preset(QStringLiteral("quickstart")).spec;
        spec.platform.dimensions[0].bandwidthBytesPerSecond = gib * kGiB;
        spec.name = "ring";
        runs.push_back({QStringLiteral("%1 GiB/s").arg(gib), spec, runSimulation(spec)});
    }
    const double longestNs = runs[1].result->endTime.ns();
    ASSERT_GT(longestNs, 1e6) << "the slow run should take milliseconds";
    CompareView view;
    view.setRuns(runs);
    const auto* y =
        qobject_cast<QValueAxis*>(view.breakdownChart()->chart()->axes(Qt::Vertical).value(0));
    ASSERT_NE(y, nullptr);
    const QString unit = longestNs >= 1e9 ? QStringLiteral("s") : QStringLiteral("ms");
    EXPECT_EQ(y->titleText(), QStringLiteral("time (%1)").arg(unit));
    EXPECT_LT(y->max(), 1000.0);
    const QList<QBarSet*> sets = view.breakdownChart()->series()->barSets();
    const double exposed = sets[1]->at(1);
    EXPECT_NEAR(exposed * (unit == QStringLiteral("s") ? 1e9 : 1e6), longestNs, longestNs * 1e-9);
}

TEST(CompareView, TableChartsSweepAndExport) {
    const CompareRuns& runs = bandwidthRuns();
    CompareView view;
    view.resize(1400, 860);
    view.setRuns(runs);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));

    // Breakdown: three sets (compute, exposed, overlap), one bar per run, in µs (the unit of
    // the longest run, 117.78 µs).
    EXPECT_EQ(qobject_cast<QValueAxis*>(view.breakdownChart()->chart()->axes(Qt::Vertical).value(0))
                  ->titleText(),
              QStringLiteral("time (µs)"));
    ASSERT_NE(view.breakdownChart()->series(), nullptr);
    const QList<QBarSet*> sets = view.breakdownChart()->series()->barSets();
    ASSERT_EQ(sets.size(), 3);
    EXPECT_EQ(sets[1]->count(), 3);
    EXPECT_DOUBLE_EQ(sets[1]->at(2), runs[2].result->endTime.ns() / 1000.0);

    // Sweep: x = bandwidth in GiB/s, sorted; y = end time in µs.
    ASSERT_EQ(view.sweepChart()->lines().size(), 2u);
    const QList<QPointF> points = view.sweepChart()->lines()[0]->points();
    ASSERT_EQ(points.size(), 3);
    EXPECT_DOUBLE_EQ(points[0].x(), 25);
    EXPECT_DOUBLE_EQ(points[1].x(), 50);
    EXPECT_DOUBLE_EQ(points[2].x(), 100);
    EXPECT_DOUBLE_EQ(points[0].y(), runs[2].result->endTime.ns() / 1000.0);
    EXPECT_GT(points[0].y(), points[1].y());
    EXPECT_GT(points[1].y(), points[2].y());

    view.tabs()->setCurrentIndex(0);
    QTest::qWait(30);
    EXPECT_TRUE(view.grab().save(screenshot(QStringLiteral("compare_table.png"))));
    view.tabs()->setCurrentIndex(1);
    QTest::qWait(30);
    view.timelines()->setCursor(0, runs[0].result->endTime.ps() / 2);
    EXPECT_TRUE(view.grab().save(screenshot(QStringLiteral("compare_timelines.png"))));
    view.timelines()->setNormalized(true);
    view.timelines()->setCursor(0, runs[0].result->endTime.ps() / 2);
    QTest::qWait(30);
    EXPECT_TRUE(view.grab().save(screenshot(QStringLiteral("compare_timelines_normalized.png"))));
    view.tabs()->setCurrentIndex(2);
    QTest::qWait(30);
    EXPECT_TRUE(view.grab().save(screenshot(QStringLiteral("compare_sweep.png"))));

    // CSV: a header, every setting, every metric; the end times are the stored ones, exactly.
    view.setBaseline(1);
    const QString csv = view.csv();
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    EXPECT_EQ(lines.size(), 1 + static_cast<int>(view.settingsModel()->allRows().size()) +
                                static_cast<int>(view.metricsModel()->rows().size()));
    QString endLine;
    for (const QString& line : lines)
        if (line.startsWith(QStringLiteral("result,end_time,")))
            endLine = line;
    const QStringList f = endLine.split(QLatin1Char(','));
    ASSERT_EQ(f.size(), 4 + 3 + 3) << endLine.toStdString();
    EXPECT_EQ(f[4].toDouble(), runs[0].result->endTime.ns());
    EXPECT_EQ(f[6].toDouble(), runs[2].result->endTime.ns());
    EXPECT_EQ(f[8], QStringLiteral("1")); // the baseline against itself
    EXPECT_NEAR(f[7].toDouble(), runs[0].result->endTime.ns() / runs[1].result->endTime.ns(), 1e-5);

    QTemporaryDir dir;
    const QString csvPath = dir.filePath(QStringLiteral("comparison.csv"));
    ASSERT_TRUE(view.exportCsv(csvPath));
    QFile file(csvPath);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(QString::fromUtf8(file.readAll()), csv);
    const QStringList written = view.exportCharts(dir.path(), QStringLiteral("cmp"));
    EXPECT_TRUE(written.contains(dir.filePath(QStringLiteral("cmp_breakdown.png"))));
    EXPECT_TRUE(written.contains(dir.filePath(QStringLiteral("cmp_sweep.png"))));
    for (const QString& path : written)
        EXPECT_GT(QFileInfo(path).size(), 1000) << path.toStdString();
    if (!svgExportAvailable())
        GTEST_SKIP() << "Qt Svg not available at build time: SVG export not tested";
    QFile svg(dir.filePath(QStringLiteral("cmp_sweep.svg")));
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    EXPECT_TRUE(svg.readAll().contains("<svg"));
}

TEST(CompareView, FewerThanTwoRunsShowAHintAndNoSweepWithoutOneDifference) {
    CompareView view;
    view.setRuns({bandwidthRuns()[0]});
    EXPECT_EQ(view.metricsModel()->rowCount(), 0);
    CompareRuns same{bandwidthRuns()[0], bandwidthRuns()[0]};
    same[1].spec.system.preferredDatasetSplits = 8; // two settings change: no sweep
    same[1].spec.system.activeChunksPerDimension = 2;
    view.setRuns(same);
    EXPECT_TRUE(view.sweepChart()->lines().empty());
    CompareRuns many(8, bandwidthRuns()[0]);
    view.setRuns(many);
    EXPECT_EQ(static_cast<int>(view.runs().size()), CompareView::kMaxRuns);
}

TEST(AlignedTimelines, ShareOneAxisOrNormalizeAndFollowEachOther) {
    const CompareRuns& runs = bandwidthRuns();
    AlignedTimelines aligned;
    aligned.resize(1000, 700);
    aligned.setRuns(runs);
    aligned.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&aligned));
    ASSERT_EQ(aligned.count(), 3);
    const int64_t longest = runs[2].result->endTime.ps(); // 25 GiB/s is the slowest
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(aligned.timeline(i)->mapper().limitEnd(), longest);
        EXPECT_EQ(aligned.timeline(i)->mapper().t1(), longest);
    }
    // Zoom in the first: the others show the same absolute window.
    aligned.timeline(0)->setWindow(1000000, 3000000);
    for (int i = 1; i < 3; ++i) {
        EXPECT_EQ(aligned.timeline(i)->mapper().t0(), 1000000);
        EXPECT_EQ(aligned.timeline(i)->mapper().t1(), 3000000);
    }
    aligned.setCursor(1, 2000000);
    EXPECT_EQ(aligned.cursorTime(2), 2000000);

    // Normalized: each run over its own length; the same fraction everywhere.
    aligned.setNormalized(true);
    const int64_t end0 = runs[0].result->endTime.ps(), end1 = runs[1].result->endTime.ps();
    EXPECT_EQ(aligned.timeline(1)->mapper().limitEnd(), end1);
    aligned.timeline(0)->setWindow(end0 / 4, end0 / 2);
    EXPECT_NEAR(aligned.timeline(1)->mapper().t0(), end1 / 4, 2);
    EXPECT_NEAR(aligned.timeline(1)->mapper().t1(), end1 / 2, 2);
    aligned.setCursor(0, end0 / 2);
    EXPECT_NEAR(aligned.cursorTime(1), end1 / 2, 2);
}

TEST(CompareTab, CompareSelectedInTheRunsListFillsTheCompareTab) {
    using namespace std::chrono_literals;
    QTemporaryDir dir;
    gui::MainWindow window(gui::test::testServices(dir, gui::test::busyRun(5ms)));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    QSignalSpy finished(window.runController(), &gui::RunController::runFinished);
    window.startRun();
    window.startRun();
    window.startRun();
    ASSERT_TRUE(gui::test::waitUntil([&] { return finished.count() == 3; }));
    QTableView* list = window.runsPanel()->view();
    auto* button = window.runsPanel()->findChild<QPushButton*>();
    ASSERT_NE(button, nullptr);
    list->selectRow(0);
    EXPECT_FALSE(button->isEnabled()); // one run is not a comparison
    list->selectionModel()->select(window.runsModel()->index(2, 0),
                                   QItemSelectionModel::Select | QItemSelectionModel::Rows);
    EXPECT_TRUE(button->isEnabled());
    const QList<int> ids = window.runsPanel()->selectedRunIds();
    ASSERT_EQ(ids.size(), 2);
    button->click();
    EXPECT_EQ(window.tabs()->currentIndex(), gui::MainWindow::CompareTab);
    auto* compare = window.findChild<CompareView*>();
    ASSERT_NE(compare, nullptr);
    ASSERT_EQ(compare->runs().size(), 2u);
    // The run's number once: the window names its runs "Quick start #3" already, so the
    // comparison does not prefix it again ("#3 Quick start #3").
    const gui::RunRecord* first = window.runsModel()->run(ids[0]);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(compare->runs()[0].name, first->name);
    EXPECT_TRUE(first->name.endsWith(QStringLiteral(" #%1").arg(first->number)))
        << first->name.toStdString();
    EXPECT_EQ(compare->runs()[0].name.count(QLatin1Char('#')), 1);
    // The breakdown's bars stand under the runs' numbers, wherever the name holds them (two
    // bars labelled by the first word, "Quick", were drawn as one).
    EXPECT_EQ(runNumberLabels({QStringLiteral("#3 Quick start"), QStringLiteral("Quick start #4"),
                               QStringLiteral("sweep · point 2 (chunks=4)"),
                               QStringLiteral("sweep · point 3 (chunks=8)")}),
              (QStringList{QStringLiteral("#3"), QStringLiteral("#4"), QStringLiteral("sweep"),
                           QStringLiteral("sweep'")}));
    EXPECT_EQ(compare->runs()[1].result, window.runsModel()->run(ids[1])->result);
    window.close();
}

} // namespace
} // namespace astrolabe::widgets

namespace astrolabe::widgets {

// Sweep points' runs share a long prefix and differ at the end ("... point 3"): the run columns'
// headers were cut off there (issue #53, Researcher 6). Every line of every header fits its
// column, in both tables.
TEST(CompareView, RunHeadersShowTheWholeNameOfLongSweepPoints) {
    CompareRuns runs = bandwidthRuns();
    for (size_t i = 0; i < runs.size(); ++i)
        runs[i].name =
            QStringLiteral("#%1 quick start by endpoint_delay point %2").arg(12 + i).arg(i);
    CompareView view;
    view.resize(1400, 800);
    view.setRuns(runs);
    view.show();
    QTest::qWait(50);
    for (QTableView* table : {view.settingsView(), view.metricsView()}) {
        QHeaderView* header = table->horizontalHeader();
        const QFontMetrics metrics(header->font());
        const int margin =
            2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
        for (int column = 1; column < table->model()->columnCount(); ++column) {
            const QString text = table->model()->headerData(column, Qt::Horizontal).toString();
            if (!text.contains(QStringLiteral("point")))
                continue; // the metrics table's unit column
            for (const QString& line : text.split(u'\n'))
                EXPECT_LE(metrics.horizontalAdvance(line) + margin, header->sectionSize(column))
                    << "cut off: \"" << line.toStdString() << "\" in a column of "
                    << header->sectionSize(column) << " px";
        }
    }
}

} // namespace astrolabe::widgets

namespace astrolabe::widgets {

// The Timelines sub-tab drew coloured bars with no key (issue #53, Researcher 6): it shows the
// Timeline tab's legend for what its runs draw, one swatch per kind, in the palette's colours.
TEST(CompareView, TimelinesHaveAColourLegend) {
    CompareView view;
    view.setRuns(bandwidthRuns());
    const QString legend = view.timelines()->legend()->text();
    std::vector<uint8_t> keys;
    for (const CompareRun& run : bandwidthRuns()) {
        const RunResultTimelineSource source(run.result);
        keys.insert(keys.end(), source.presentColorKeys().begin(), source.presentColorKeys().end());
    }
    const auto entries = TimelinePalette::legend(keys, true, false);
    ASSERT_GE(entries.size(), 2u); // the all-reduce's phases and idle at least
    for (const TimelinePalette::LegendEntry& entry : entries) {
        EXPECT_TRUE(legend.contains(entry.label)) << entry.label.toStdString();
        EXPECT_TRUE(legend.contains(entry.color.name())) << entry.label.toStdString();
    }
}

} // namespace astrolabe::widgets
