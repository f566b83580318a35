// The sweep widgets without an engine run: the table model as outcomes arrive, the heatmap's
// colours and cell geometry, the chart data and the view's progress and selection.
#include "sweep/SweepChartData.h"
#include "sweep/SweepCharts.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepResultsModel.h"
#include "sweep/SweepView.h"

#include <QAbstractAxis>
#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

/// bw in {100, 200} x chunks in {1, 2, 4}: six pending points, bw varying slowest.
std::vector<SweepRow> sixPoints() {
    std::vector<SweepRow> rows;
    for (const char* bw : {"100 GiB/s", "200 GiB/s"})
        for (const char* chunks : {"1", "2", "4"}) {
            SweepRow row;
            row.values = {bw, chunks};
            row.summary.index = rows.size();
            rows.push_back(row);
        }
    return rows;
}

SweepPointSummary okPoint(size_t index, int64_t endUs, int64_t exposedUs, int64_t run) {
    SweepPointSummary s;
    s.index = index;
    s.status = SweepPointStatus::Ok;
    s.endTime = SimTime::fromUs(endUs);
    s.maxExposedComm = SimTime::fromUs(exposedUs);
    s.runId = run;
    s.runNumber = run;
    return s;
}

} // namespace

TEST(SweepResultsModel, RowsUpdateOneAtATimeAsOutcomesArrive) {
    SweepResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setRows({"bw", "chunks"}, sixPoints());
    ASSERT_EQ(model.rowCount(), 6);
    // Point, bw, chunks, Status, End time, Max exposed comm, Run
    ASSERT_EQ(model.columnCount(), 7);
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("bw"));
    EXPECT_EQ(model.headerData(model.column(SweepResultsModel::Fixed::EndTime), Qt::Horizontal)
                  .toString(),
              QStringLiteral("End time"));
    const int status = model.column(SweepResultsModel::Fixed::Status);
    const int end = model.column(SweepResultsModel::Fixed::EndTime);
    const int run = model.column(SweepResultsModel::Fixed::Run);
    EXPECT_EQ(model.index(4, 1).data().toString(), QStringLiteral("200 GiB/s"));
    EXPECT_EQ(model.index(4, status).data().toString(), QStringLiteral("pending"));
    EXPECT_EQ(model.finished(), 0u);

    model.updatePoint(okPoint(5, 1200, 300, 11)); // the first outcome sets the column's unit
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.updatePoint(okPoint(4, 1500, 300, 12));
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.at(0).at(0).toModelIndex().row(), 4); // only that row
    EXPECT_EQ(changed.at(0).at(1).toModelIndex().row(), 4);
    EXPECT_EQ(model.index(4, status).data().toString(), QStringLiteral("ok"));
    EXPECT_EQ(model.index(4, end).data().toString(), QStringLiteral("1.5 ms")); // readable units
    EXPECT_EQ(model.index(4, end).data(SweepResultsModel::SortRole).toDouble(), 1.5e9); // ps
    EXPECT_EQ(model.index(4, run).data().toString(), QStringLiteral("#12"));
    EXPECT_EQ(model.index(3, status).data().toString(), QStringLiteral("pending"));

    SweepPointSummary failed;
    failed.index = 1;
    failed.status = SweepPointStatus::Failed;
    failed.message = "deadlock";
    model.updatePoint(failed);
    EXPECT_EQ(model.index(1, status).data().toString(), QStringLiteral("failed"));
    EXPECT_EQ(model.index(1, status).data(Qt::ToolTipRole).toString(), QStringLiteral("deadlock"));
    EXPECT_EQ(model.index(1, end).data().toString(), QString());
    EXPECT_EQ(model.finished(), 3u);
    EXPECT_EQ(model.runnable(), 6u);
}

// One unit per time column (issue #53, Researcher 6: "850 us" over "1.2 ms" mixed units in one
// column): the unit of the column's largest value, and a point that changes it rewrites them all.
TEST(SweepResultsModel, EachTimeColumnIsInOneUnit) {
    SweepResultsModel model;
    model.setRows({"bw", "chunks"}, sixPoints());
    const int end = model.column(SweepResultsModel::Fixed::EndTime);
    const int exposed = model.column(SweepResultsModel::Fixed::MaxExposed);
    model.updatePoint(okPoint(0, 850, 40, 1));
    EXPECT_EQ(model.index(0, end).data().toString(), QStringLiteral("850 \u00b5s"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.updatePoint(okPoint(1, 1200, 900, 2)); // past 1 ms: the column turns to ms
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(changed.at(0).at(0).toModelIndex().row(), 0);
    EXPECT_EQ(changed.at(0).at(1).toModelIndex().row(), 5);
    EXPECT_EQ(model.index(0, end).data().toString(), QStringLiteral("0.85 ms"));
    EXPECT_EQ(model.index(1, end).data().toString(), QStringLiteral("1.2 ms"));
    EXPECT_EQ(model.index(0, exposed).data().toString(), QStringLiteral("40 \u00b5s"));
    EXPECT_EQ(model.index(1, exposed).data().toString(), QStringLiteral("900 \u00b5s"));
}

TEST(SweepHeatmap, ColoursRunFromGreenForTheShortestToRedForTheLongest) {
    EXPECT_EQ(heatmapFraction(10, 10, 30), 0.0);
    EXPECT_EQ(heatmapFraction(20, 10, 30), 0.5);
    EXPECT_EQ(heatmapFraction(30, 10, 30), 1.0);
    EXPECT_EQ(heatmapFraction(5, 5, 5), 0.0); // one value: no division by zero
    EXPECT_EQ(heatmapColor(0.0), QColor(0x4c, 0xaf, 0x50));
    EXPECT_EQ(heatmapColor(0.5), QColor(0xff, 0xe0, 0x66));
    EXPECT_EQ(heatmapColor(1.0), QColor(0xe5, 0x48, 0x3c));
    EXPECT_EQ(heatmapColor(-3.0), heatmapColor(0.0)); // clamped
    EXPECT_EQ(heatmapColor(7.0), heatmapColor(1.0));
    // Halfway between green and yellow: each channel is the mean.
    const QColor quarter = heatmapColor(0.25);
    EXPECT_NEAR(quarter.red(), (0x4c + 0xff) / 2.0, 1);
    EXPECT_NEAR(quarter.green(), (0xaf + 0xe0) / 2.0, 1);
}

TEST(SweepHeatmap, CellsSplitThePlotEvenlyAndPointsMapBackToThem) {
    const QRectF plot(100, 50, 300, 200); // 3 columns of 100, 4 rows of 50
    EXPECT_EQ(heatmapCellRect(plot, 3, 4, 0, 0), QRectF(100, 50, 100, 50));
    EXPECT_EQ(heatmapCellRect(plot, 3, 4, 2, 3), QRectF(300, 200, 100, 50));
    EXPECT_EQ(heatmapCellAt(plot, 3, 4, QPointF(150, 75)), QPoint(0, 0));
    EXPECT_EQ(heatmapCellAt(plot, 3, 4, QPointF(399, 249)), QPoint(2, 3));
    EXPECT_EQ(heatmapCellAt(plot, 3, 4, QPointF(250, 120)), QPoint(1, 1));
    EXPECT_FALSE(heatmapCellAt(plot, 3, 4, QPointF(99, 75)).has_value());
    EXPECT_FALSE(heatmapCellAt(plot, 3, 4, QPointF(150, 251)).has_value());
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 4; ++r)
            EXPECT_EQ(heatmapCellAt(plot, 3, 4, heatmapCellRect(plot, 3, 4, c, r).center()),
                      QPoint(c, r));
}

TEST(SweepHeatmap, GridHoldsEachPointsEndTimeAndTheShortestWhereTheyShareACell) {
    std::vector<SweepRow> rows = sixPoints();
    rows[0].summary = okPoint(0, 40, 0, 1); // bw 100, chunks 1
    rows[5].summary = okPoint(5, 10, 0, 2); // bw 200, chunks 4
    const HeatmapData grid = heatmapData({"bw", "chunks"}, rows, 0, 1);
    ASSERT_EQ(grid.xValues, (std::vector<std::string>{"100 GiB/s", "200 GiB/s"}));
    ASSERT_EQ(grid.yValues, (std::vector<std::string>{"1", "2", "4"}));
    EXPECT_EQ(grid.at(0, 0), 40e6);
    EXPECT_EQ(grid.at(1, 2), 10e6);
    EXPECT_FALSE(grid.at(1, 0).has_value()); // not finished
    EXPECT_EQ(grid.sharedCells, 0);
    EXPECT_EQ(grid.minPs(), 10e6);
    EXPECT_EQ(grid.maxPs(), 40e6);
    // Over bw alone (x) and bw again... use chunks only: every chunks value holds both bws.
    const HeatmapData byChunks = heatmapData({"bw", "chunks"}, rows, 1, 1);
    EXPECT_EQ(byChunks.sharedCells, 3);

    SweepHeatmap heatmap;
    heatmap.resize(600, 400);
    heatmap.setData(grid);
    const QRectF plot = heatmap.plotRect();
    EXPECT_GT(plot.width(), 300);
    EXPECT_GT(plot.height(), 200);
    EXPECT_TRUE(QRectF(heatmap.rect()).contains(plot));
    EXPECT_EQ(heatmap.cellText(0, 0), QStringLiteral("40")); // in µs, the legend's unit
    EXPECT_EQ(heatmap.cellText(1, 2), QStringLiteral("10"));
    EXPECT_EQ(heatmap.cellText(1, 0), QString());
    heatmap.resize(120, 90); // cells too small for their numbers: none drawn
    EXPECT_EQ(heatmap.cellText(0, 0), QString());
    const QImage image = heatmap.grab().toImage();
    EXPECT_FALSE(image.isNull());
}

TEST(SweepCharts, ParetoScatterJoinsTheFrontInChartUnits) {
    std::vector<SweepRow> rows = sixPoints();
    // (end, exposed) in µs: 0:(40,5) 1:(30,20) 2:(20,10) 3:(50,1) 5:(25,30); 4 pending.
    rows[0].summary = okPoint(0, 40, 5, 1);
    rows[1].summary = okPoint(1, 30, 20, 2);
    rows[2].summary = okPoint(2, 20, 10, 3);
    rows[3].summary = okPoint(3, 50, 1, 4);
    rows[5].summary = okPoint(5, 25, 30, 5);
    SweepParetoChart chart;
    chart.setRows({"bw", "chunks"}, rows);
    // Metrics: exposed comm, bw (numeric: "100 GiB/s" -> 100) and chunks.
    ASSERT_EQ(chart.metricBox()->count(), 3);
    // Front on exposed: 2 (20,10) then 0 (40,5) then 3 (50,1); 1 and 5 dominated by 2.
    EXPECT_EQ(chart.frontPoints(), (QList<QPointF>{{20, 10}, {40, 5}, {50, 1}}));
    ASSERT_TRUE(chart.selectMetric(QStringLiteral("bw")));
    // Against bw: 2 (20 µs, 100) is best in both among bw=100; 5 (25 µs, 200) is slower and
    // costlier: the front is point 2 alone.
    EXPECT_EQ(chart.frontPoints(), (QList<QPointF>{{20, 100}}));
}

// Before any point has finished the chart says so, with no unit on an empty axis; the points'
// units come with the points.
TEST(SweepCharts, AnEmptyParetoChartSaysHowToFillIt) {
    std::vector<SweepRow> rows = sixPoints(); // every point pending
    SweepParetoChart chart;
    chart.setRows({"bw", "chunks"}, rows);
    ASSERT_GT(chart.metricBox()->count(), 0);
    EXPECT_TRUE(chart.view()->chart()->title().startsWith(QStringLiteral("No sweep points yet")))
        << chart.view()->chart()->title().toStdString();
    for (QAbstractAxis* axis : chart.view()->chart()->axes())
        EXPECT_FALSE(axis->titleText().contains(QStringLiteral("ps")))
            << axis->titleText().toStdString();
    EXPECT_TRUE(chart.frontPoints().isEmpty());
    rows[2].summary = okPoint(2, 20, 10, 3);
    chart.setRows({"bw", "chunks"}, rows);
    EXPECT_TRUE(chart.view()->chart()->title().startsWith(QStringLiteral("Pareto front: 1 of 1")))
        << chart.view()->chart()->title().toStdString();
}

TEST(SweepView, ProgressSelectionAndCompare) {
    SweepView view;
    view.resize(1000, 600);
    view.model()->setRows({"bw", "chunks"}, sixPoints());
    view.setRunning(true);
    EXPECT_EQ(view.progressBar()->maximum(), 6);
    EXPECT_TRUE(view.progressLabel()->text().startsWith(QStringLiteral("0 / 6 points")));
    view.model()->updatePoint(okPoint(0, 40, 5, 101));
    view.model()->updatePoint(okPoint(2, 20, 10, 103));
    EXPECT_EQ(view.progressBar()->value(), 2);
    EXPECT_TRUE(view.progressLabel()->text().contains(QStringLiteral("left")))
        << view.progressLabel()->text().toStdString();
    view.setRunning(false);
    EXPECT_EQ(view.chartTabs()->count(), 2);
    EXPECT_EQ(view.heatmap()->data().at(0, 2), 20e6); // two axes: the heatmap, refreshed

    view.table()->selectAll();
    QSignalSpy compare(&view, &SweepView::compareRequested);
    ASSERT_TRUE(view.compareButton()->isEnabled());
    view.compareButton()->click();
    ASSERT_EQ(compare.count(), 1);
    EXPECT_EQ(compare.at(0).at(0).value<QList<int>>(), (QList<int>{101, 103})); // stored only

    // Another project opened: no sweep, so nothing to compare or apply (the selection went
    // with the rows, without a selectionChanged).
    view.clear();
    EXPECT_FALSE(view.compareButton()->isEnabled());
    EXPECT_FALSE(view.applyButton()->isEnabled());
}

TEST(SweepView, OneAxisDrawsALineOfEndTimeAgainstIt) {
    SweepView view;
    std::vector<SweepRow> rows;
    for (const char* chunks : {"4", "1", "2"}) {
        SweepRow row;
        row.values = {chunks};
        row.summary = okPoint(rows.size(), 10 * static_cast<int64_t>(rows.size() + 1), 0, 1);
        rows.push_back(row);
    }
    view.model()->setRows({"chunks"}, rows);
    ASSERT_NE(view.lineChart()->line(), nullptr);
    // Sorted by the axis's number: chunks 1 (20 µs), 2 (30 µs), 4 (10 µs).
    EXPECT_EQ(view.lineChart()->line()->points(), (QList<QPointF>{{1, 20}, {2, 30}, {4, 10}}));
    EXPECT_FALSE(view.note()->isVisible());
}

// A size sweep shows the α–β model in a legend; a one-axis sweep after it kept that legend with
// two unlabelled swatches (issue #53, Researcher 6). Every swatch shown has a label.
TEST(SweepView, EveryLegendSwatchShownHasALabel) {
    SweepLineChart chart;
    chart.resize(640, 420);
    chart.show(); // legend markers count as visible only on a shown chart
    std::vector<SweepRow> sizes;
    for (const double bytes : {1048576.0, 4194304.0, 16777216.0}) {
        SweepRow row;
        row.values = {std::to_string(static_cast<int64_t>(bytes))};
        row.summary = okPoint(sizes.size(), static_cast<int64_t>(10 + bytes / 1e5), 0, 1);
        row.alphaBeta = AlphaBetaTerm{bytes, 1e-11};
        sizes.push_back(row);
    }
    chart.setRows({"size"}, sizes, 0);
    const auto shownLabels = [&chart] {
        QStringList labels;
        for (QLegendMarker* marker : chart.chart()->legend()->markers())
            if (marker->isVisible())
                labels << marker->label();
        return labels;
    };
    QTest::qWait(50); // the legend lays its markers out when the chart is
    ASSERT_TRUE(chart.chart()->legend()->isVisible());
    EXPECT_EQ(shownLabels().size(), 2); // measured, and the model
    std::vector<SweepRow> chunks;
    for (const char* value : {"1", "2", "4"}) {
        SweepRow row;
        row.values = {value};
        row.summary = okPoint(chunks.size(), 10 * static_cast<int64_t>(chunks.size() + 1), 0, 1);
        chunks.push_back(row);
    }
    chart.setRows({"chunks"}, chunks, 0);
    QTest::qWait(50);
    if (chart.chart()->legend()->isVisible()) {
        for (const QString& label : shownLabels())
            EXPECT_FALSE(label.isEmpty()) << "an unlabelled swatch";
    }
}
