// The TACOS schedule beside the timeline (issue #19 part 3): shown for a graph platform only;
// Synthesize runs TACOS for the project's collective on a worker and shows the per-link
// schedule, which is the engine's schedule of that collective and size and never beats the
// bandwidth lower bound. A screenshot is saved to be looked at.
#include "GuiTestSupport.h"
#include "config/GraphGenerators.h"
#include "gui/TimelinePage.h"
#include "tacos/SchedulePanel.h"
#include "tacos/ScheduleView.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

GraphSpec mesh4x4() {
    GraphGeneratorSpec g;
    g.name = "mesh2d";
    g.size = {4, 4};
    g.bandwidthBytesPerSecond = 100e9;
    g.latencyNs = 100;
    return generateGraph(g);
}

SimulationSpec graphProject(int collective, uint64_t bytes) {
    SimulationSpec spec;
    spec.platform = graphPlatform(mesh4x4());
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.collective = collective;
    spec.workload.microbenchmark.sizeBytes = bytes;
    return spec;
}

} // namespace

TEST(TacosSchedule, ShownBesideTheTimelineForAGraphPlatformOnly) {
    TimelinePage page;
    page.resize(1400, 600);
    page.show();
    SimulationSpec stack = graphProject(0, 1 << 20);
    stack.platform = PlatformSpec{};
    stack.platform.dimensions = {DimensionSpec{}};
    page.setSpec(stack);
    EXPECT_FALSE(page.schedulePanel()->isVisibleTo(&page));

    // An all-gather of 64 KiB per NPU: the panel synthesizes that, not a default all-reduce.
    const uint64_t bytes = 64 << 10;
    page.setSpec(graphProject(2, bytes));
    widgets::SchedulePanel* panel = page.schedulePanel();
    ASSERT_TRUE(panel->isVisibleTo(&page));
    EXPECT_FALSE(panel->hasSchedule());
    QSignalSpy shown(panel, &widgets::SchedulePanel::scheduleShown);
    panel->synthesizeButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return shown.size() == 1; }, 30000));

    const Schedule& s = panel->view()->model()->schedule();
    EXPECT_EQ(s.kind, SynthesisKind::AllGather);
    EXPECT_EQ(s.bytes, bytes);
    EXPECT_EQ(s.npus, 16);
    SynthesisOptions options;
    options.kind = SynthesisKind::AllGather;
    options.bytes = bytes;
    const Schedule direct = synthesize(mesh4x4(), options);
    EXPECT_EQ(s.sends.size(), direct.sends.size());
    EXPECT_DOUBLE_EQ(s.finishNs, direct.finishNs);
    // Every NPU gathers 15 chunks of 64 KiB through its links: never faster than the bound.
    EXPECT_GE(s.finishNs, bandwidthLowerBoundNs(s) * (1 - 1e-9));
    // One row per directed link, one column per step; the table is on screen.
    EXPECT_EQ(panel->view()->model()->rowCount(), static_cast<int>(s.links.size()));
    EXPECT_EQ(panel->view()->model()->columnCount(), s.steps);
    EXPECT_TRUE(panel->view()->table()->isVisible());
    test::saveScreenshot(page, QStringLiteral("tacos-schedule-beside-timeline.png"));

    // Another size clears the shown schedule: it was synthesized for the old one.
    page.setSpec(graphProject(2, bytes * 2));
    EXPECT_FALSE(panel->hasSchedule());
}
