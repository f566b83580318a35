// "Watch a collective" beyond 64 NPUs: one node per group of the drawing's level that has at
// most 64 groups, with the messages its NPUs send per dimension, and one flow per pair of
// groups and dimension - both checked against the recorded messages, counted here
// independently. A 1,024-NPU platform plays without stalling the event loop. Screenshots of
// 64 and 1,024 NPUs go to screenshots/.
#include "app/gui/GapMeter.h"
#include "app/gui/GuiTestSupport.h"
#include "engine/golden/GoldenSpec.h"
#include "simulation/Simulation.h"
#include "topology/CollectiveAnimationView.h"
#include "widgets/topology/RecordedAllReduce.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTest>
#include <gtest/gtest.h>
#include <map>
#include <tuple>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

/// 8 x 8 x 16 rings: 1,024 NPUs; the drawing's level 2 holds 16 groups of 64 NPUs.
SimulationSpec platform1024() {
    return test::recordedAllReduce({golden::dim(BlockKind::Ring, 8),
                                    golden::dim(BlockKind::Ring, 8),
                                    golden::dim(BlockKind::Ring, 16)},
                                   "ring", golden::kMiB);
}

const std::shared_ptr<const RunResult>& run1024() {
    static const std::shared_ptr<const RunResult> run = runSimulation(platform1024());
    return run;
}

} // namespace

TEST(AnimationAggregate, GroupsAndFlowsCountTheRecordedMessages) {
    const SimulationSpec spec = platform1024();
    const NetworkLayout layout(spec.platform);
    const CollectiveAnimation animation(run1024()->transfers, layout);
    ASSERT_FALSE(animation.perChunk());
    EXPECT_EQ(animation.groupLevel(), 2);
    ASSERT_EQ(animation.groupCount(), 16);
    ASSERT_EQ(animation.npusPerGroup(), 64);
    const std::vector<ChunkTransfer>& transfers = run1024()->transfers;
    AnimationFrame frame;
    int checkedFlows = 0;
    // Mid-message times spread over the run: each dimension's phases are met.
    for (size_t k = 1; k < 16; ++k) {
        const ChunkTransfer& at = transfers[transfers.size() * k / 16];
        const int64_t t = (at.start.ps() + at.end.ps()) / 2;
        animation.frameAt(SimTime::fromPs(t), frame);
        std::vector<int> sending(16 * 3, 0);
        std::map<std::tuple<int, int, int>, int> flows;
        for (const ChunkTransfer& m : transfers) {
            if (m.start.ps() > t || t >= m.end.ps())
                continue;
            ++sending[static_cast<size_t>(m.src / 64 * 3 + m.dimension)];
            if (m.src / 64 != m.dst / 64)
                ++flows[{m.src / 64, m.dst / 64, m.dimension}];
        }
        EXPECT_EQ(frame.groupSending, sending) << "at " << t << " ps";
        ASSERT_EQ(frame.flows.size(), flows.size()) << "at " << t << " ps";
        for (const AnimationFrame::Flow& f : frame.flows) {
            EXPECT_EQ(f.count, (flows[{f.from, f.to, f.dimension}])) << "at " << t << " ps";
            EXPECT_EQ(f.dimension, 2); // only the outer rings cross between groups of 64
            EXPECT_GE(f.progress, 0.0);
            EXPECT_LE(f.progress, 1.0);
            ++checkedFlows;
        }
    }
    EXPECT_GT(checkedFlows, 0);
}

TEST(AnimationAggregate, A1024NpuRunPlaysWithoutStallingTheEventLoop) {
    const SimulationSpec spec = platform1024();
    CollectiveAnimationView view;
    view.resize(900, 700);
    // Wall times less the machine's pauses and waits for a core (support/MachineTime.h).
    // The run is simulated before the clock starts (ctest runs this test in a process of its
    // own, so the first call here simulates 1,024 NPUs): only setRun is timed.
    const std::shared_ptr<const RunResult>& run = run1024();
    astrolabe::timing::OwnClock clock;
    view.setRun(spec.platform, run);
    const double setRunMs = clock.elapsedMs();
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    // Frames rendered back to back: geometry plus a full repaint, as the benchmark does.
    QImage image(view.networkView()->size(), QImage::Format_ARGB32_Premultiplied);
    const int64_t begin = view.animation().begin().ps();
    const int64_t span = (view.animation().end() - view.animation().begin()).ps();
    clock.restart();
    for (int frame = 0; frame < 120; ++frame) {
        view.setTime(begin + span * frame / 120);
        QPainter painter(&image);
        view.networkView()->render(&painter);
    }
    const double frameMs = clock.elapsedMs() / 120;
    // Playing: the event loop keeps ticking every 5 ms while the replay advances.
    gui::test::GapMeter meter;
    view.setSpeed(4);
    view.play();
    QTest::qWait(1500);
    view.pause();
    std::cerr << "1,024 NPUs: setRun " << setRunMs << " ms, " << frameMs
              << " ms per frame, playing: " << meter.describe() << "\n";
    EXPECT_LT(setRunMs, 1000.0);
    EXPECT_LT(frameMs, 50.0);
    if (meter.steady()) {
        EXPECT_LT(meter.maxCpuGapMs(), 50.0);
    } else {
        std::cerr << meter.unsteadyNote();
    }
    EXPECT_GT(view.time().ps(), begin + span / 2); // 1.5 s at 4x of a 10 s replay: 60 %

    const ChunkTransfer& t = run1024()->transfers[run1024()->transfers.size() * 3 / 4];
    view.setTime((t.start.ps() + t.end.ps()) / 2);
    gui::test::saveScreenshot(view, QStringLiteral("animation-1024.png"));
    const ChunkTransfer& early = run1024()->transfers[run1024()->transfers.size() / 8];
    view.setTime((early.start.ps() + early.end.ps()) / 2);
    gui::test::saveScreenshot(view, QStringLiteral("animation-1024-inner.png"));

    const SimulationSpec ring64 =
        test::recordedAllReduce({golden::dim(BlockKind::Ring, 64)}, "ring", golden::kMiB);
    view.setRun(ring64.platform, runSimulation(ring64));
    view.stepForward();
    view.setTime(view.time().ps() + 20000);
    EXPECT_EQ(view.frame().chunks.size(), 64u);
    gui::test::saveScreenshot(view, QStringLiteral("animation-64-large.png"));
}
