// The Compare tab on a small screen and under presentation zoom: the settings' names are whole
// at 1280 x 800 (the run columns give up width their short values do not need), and each run's
// timeline keeps its time axis and three NPU rows however many runs and however large the
// fonts, the runs scrolling when they do not fit (at 250 % each run showed its header alone).
#include "common/InterfaceScale.h"
#include "compare/AlignedTimelines.h"
#include "compare/CompareView.h"
#include "gui/Presets.h"
#include "simulation/Simulation.h"
#include "timeline/RowLayout.h"
#include "timeline/TimelineWidget.h"

#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>

namespace astrolabe::widgets {
namespace {

CompareRuns quickStartRuns(int count) {
    CompareRuns out;
    for (int i = 0; i < count; ++i) {
        SimulationSpec spec = gui::preset(QStringLiteral("quickstart")).spec;
        spec.platform.dimensions[0].latencyNs = 500.0 * (i + 1);
        spec.name = "quick start " + std::to_string(i + 1);
        out.push_back({QStringLiteral("Quick start #%1").arg(i + 1), spec, runSimulation(spec)});
    }
    return out;
}

} // namespace

// The Compare page of a maximised 1280 x 800 window is about 1,010 x 500 px.
TEST(CompareFit, SettingNamesAreWholeAtTwelveEightyByEightHundred) {
    CompareView view;
    view.resize(1010, 500);
    view.setRuns(quickStartRuns(2));
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QTest::qWait(20); // the fit after the tables' first layout
    QTableView* table = view.settingsView();
    // What resizeColumnsToContents gives the names (public on the base class).
    const int names = static_cast<QAbstractItemView*>(table)->sizeHintForColumn(0);
    EXPECT_GE(table->columnWidth(0), names) << "the longest setting name needs " << names
                                            << " px, its column is " << table->columnWidth(0);
    for (int c = 1; c < table->model()->columnCount(); ++c)
        EXPECT_GT(table->columnWidth(c), 0);
}

TEST(CompareFit, EachRunsTimelineKeepsItsAxisAndThreeRowsAtAnyZoom) {
    const CompareRuns runs = quickStartRuns(3);
    for (double factor : {1.0, 2.5}) {
        InterfaceScale::instance().setFactor(factor);
        AlignedTimelines aligned;
        aligned.resize(1000, 300);
        aligned.setRuns(runs);
        aligned.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&aligned));
        QTest::qWait(20);
        ASSERT_EQ(aligned.count(), 3);
        for (int i = 0; i < aligned.count(); ++i) {
            TimelineWidget* timeline = aligned.timeline(i);
            const int needed =
                timeline->axisHeight() + 3 * InterfaceScale::px(RowLayout::kNpuRowHeight);
            EXPECT_GE(timeline->height(), needed)
                << "run " << i << " at " << factor * 100 << " %: " << timeline->height()
                << " px for its axis and three rows of " << needed;
        }
    }
    InterfaceScale::instance().setFactor(1.0);
}

} // namespace astrolabe::widgets
