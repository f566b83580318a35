// "Watch a collective": the animation's geometry against the recorded messages (a chunk
// halfway through its transfer is halfway along its path), the replay's controls and its
// two-way link with the timeline cursor, and screenshots of one ring step (8 frames of an
// 8-NPU ring all-reduce), of a 4x4 torus and of 64 NPUs, saved under screenshots/ for review.
#include "app/gui/GuiTestSupport.h"
#include "engine/golden/GoldenSpec.h"
#include "simulation/Simulation.h"
#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelineWidget.h"
#include "topology/CollectiveAnimationView.h"
#include "widgets/topology/RecordedAllReduce.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <gtest/gtest.h>
#include <set>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

SimulationSpec allReduce(std::vector<DimensionSpec> dims, const char* algorithm) {
    return test::recordedAllReduce(std::move(dims), algorithm, golden::kMiB);
}

DimensionSpec dimension(BlockKind kind, int n) {
    return golden::dim(kind, n);
}

bool hasChunkAt(const AnimationFrame& frame, QPointF p) {
    for (const QPointF& c : frame.chunks)
        if (QLineF(c, p).length() < 1e-6)
            return true;
    return false;
}

/// `run` of `spec` in `view`, shown at 640 x 560; false when no window appeared.
bool showRun(CollectiveAnimationView& view, const SimulationSpec& spec,
             std::shared_ptr<const RunResult> run) {
    view.resize(640, 560);
    view.setRun(spec.platform, std::move(run));
    view.show();
    return QTest::qWaitForWindowExposed(&view);
}

} // namespace

// A ring's messages run straight from NPU to NPU: at start + f (end - start) the chunk is at
// from + f (to - from). During a step every NPU's chunk is on a link (8 in flight on 8 NPUs).
TEST(CollectiveAnimation, ChunkPositionFollowsTheRecordedTransfer) {
    const SimulationSpec spec = allReduce({dimension(BlockKind::Ring, 8)}, "ring");
    const auto run = runSimulation(spec);
    const NetworkLayout layout(spec.platform);
    const CollectiveAnimation animation(run->transfers, layout);
    ASSERT_EQ(animation.transferCount(), run->transfers.size());
    ASSERT_TRUE(animation.perChunk());
    AnimationFrame frame;
    for (const ChunkTransfer& t : run->transfers) {
        const QPointF from = layout.npuPosition(t.src), to = layout.npuPosition(t.dst);
        for (double f : {0.25, 0.5, 0.75}) {
            const SimTime at =
                SimTime::fromPs(t.start.ps() + static_cast<int64_t>(f * (t.end - t.start).ps()));
            animation.frameAt(at, frame);
            const double exact = static_cast<double>((at - t.start).ps()) /
                                 static_cast<double>((t.end - t.start).ps());
            EXPECT_TRUE(hasChunkAt(frame, from + (to - from) * exact))
                << t.src << "->" << t.dst << " step " << t.step << " f " << f;
            EXPECT_EQ(frame.chunks.size(), 8u);
            EXPECT_EQ(frame.inFlightPerDimension.at(0), 8);
        }
    }
}

// Between the arrival of a reduce-scatter message and the receiver's next send, the receiver
// is marked as reducing; in the all-gather half nobody is.
TEST(CollectiveAnimation, ReceiversReduceOnlyInTheReduceScatterHalf) {
    const SimulationSpec spec = allReduce({dimension(BlockKind::Ring, 8)}, "ring");
    const auto run = runSimulation(spec);
    const CollectiveAnimation animation(run->transfers, NetworkLayout(spec.platform));
    AnimationFrame frame;
    for (const ChunkTransfer& t : run->transfers) {
        animation.frameAt(t.end + SimTime::fromPs(1), frame);
        if (t.reduce)
            EXPECT_EQ(frame.reducersPerDimension.at(0), 8) << "step " << t.step;
        else
            EXPECT_EQ(frame.reducersPerDimension.at(0), 0) << "step " << t.step;
    }
}

// The step counter (issue #53, Teacher 3). A ring all-reduce over p = 8 NPUs, in one chunk, is
// p - 1 = 7 reduce-scatter steps then 7 all-gather steps, all 8 NPUs sending at once in each:
// halfway through any message the drawing reads "<phase> step k+1 of 7".
TEST(CollectiveAnimation, StepCounterNamesThePhaseAndTheStepOfSeven) {
    SimulationSpec spec = allReduce({dimension(BlockKind::Ring, 8)}, "ring");
    spec.system.preferredDatasetSplits = 1;
    const auto run = runSimulation(spec);
    ASSERT_EQ(run->transfers.size(), 8u * 2u * 7u);
    const CollectiveAnimation animation(run->transfers, NetworkLayout(spec.platform));
    AnimationFrame frame;
    animation.frameAt(animation.begin() - SimTime::fromPs(1), frame);
    EXPECT_EQ(frame.stepCount, 0);
    EXPECT_EQ(CollectiveAnimationView::stepText(frame), QString());
    std::set<int> reduceSteps, gatherSteps;
    for (const ChunkTransfer& t : run->transfers) {
        animation.frameAt(SimTime::fromPs(t.start.ps() + (t.end - t.start).ps() / 2), frame);
        EXPECT_EQ(frame.stepReduces, t.reduce);
        EXPECT_EQ(frame.step, t.step % 7 + 1) << "a phase of 2 x 7 steps counts each half apart";
        EXPECT_EQ(frame.stepCount, 7);
        (t.reduce ? reduceSteps : gatherSteps).insert(frame.step);
        if (t.reduce && t.step % 7 == 2) {
            EXPECT_EQ(CollectiveAnimationView::stepText(frame),
                      QStringLiteral("reduce-scatter step 3 of 7"));
        }
    }
    EXPECT_EQ(reduceSteps, (std::set<int>{1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(gatherSteps, reduceSteps);
}

// Reductions visible at 0.25x (issue #53, Teacher 3): the run plays in 4 x kSecondsPerRun = 40 s,
// drawn at 25 frames a second. Of the frames within the reduce-scatter half (the first start to
// the last end of a reducing message), those showing a reduction mark: at least 9 in 10.
TEST(CollectiveAnimation, ReduceMarksShowInMostFramesAtQuarterSpeed) {
    const SimulationSpec spec = allReduce({dimension(BlockKind::Ring, 8)}, "ring");
    const auto run = runSimulation(spec);
    const CollectiveAnimation animation(run->transfers, NetworkLayout(spec.platform));
    int64_t first = INT64_MAX, last = 0;
    for (const ChunkTransfer& t : run->transfers)
        if (t.reduce) {
            first = std::min(first, t.start.ps());
            last = std::max(last, t.end.ps());
        }
    const double frames = 4 * CollectiveAnimationView::kSecondsPerRun * 25;
    const double perFrame =
        static_cast<double>((animation.end() - animation.begin()).ps()) / frames;
    AnimationFrame frame;
    int inHalf = 0, marked = 0;
    for (double t = static_cast<double>(first); t < static_cast<double>(last); t += perFrame) {
        animation.frameAt(SimTime::fromPs(static_cast<int64_t>(t)), frame);
        ++inHalf;
        marked += !frame.reducers.empty() || !frame.reduceTargets.empty();
    }
    ASSERT_GT(inHalf, 100);
    EXPECT_GE(marked, inHalf * 9 / 10) << marked << " of " << inHalf << " frames";
}

// Through a switch the path bends at the hub; it is walked at constant speed, so the chunk is
// at the hub when half of the transfer is done (both legs are equally long).
TEST(CollectiveAnimation, SwitchPathsPassTheHub) {
    const SimulationSpec spec = allReduce({dimension(BlockKind::Switch, 8)}, "halvingDoubling");
    const auto run = runSimulation(spec);
    const NetworkLayout layout(spec.platform);
    ASSERT_TRUE(layout.level(1).hasHub);
    const QPointF hub = layout.groupCentre(1, 0) + layout.level(1).hubOffset;
    const CollectiveAnimation animation(run->transfers, layout);
    AnimationFrame frame;
    const ChunkTransfer& t = run->transfers.front();
    animation.frameAt(SimTime::fromPs((t.start.ps() + t.end.ps()) / 2), frame);
    bool nearHub = false;
    for (const QPointF& c : frame.chunks)
        nearHub = nearHub || QLineF(c, hub).length() < 0.05;
    EXPECT_TRUE(nearHub);
}

// Beyond 64 NPUs only per-dimension counts are kept.
TEST(CollectiveAnimation, LargePlatformsAggregatePerDimension) {
    const SimulationSpec spec =
        allReduce({dimension(BlockKind::Ring, 16), dimension(BlockKind::Ring, 8)}, "ring");
    const auto run = runSimulation(spec);
    const CollectiveAnimation animation(run->transfers, NetworkLayout(spec.platform));
    EXPECT_FALSE(animation.perChunk());
    AnimationFrame frame;
    const ChunkTransfer& t = run->transfers.front();
    animation.frameAt(SimTime::fromPs((t.start.ps() + t.end.ps()) / 2), frame);
    EXPECT_TRUE(frame.chunks.empty());
    EXPECT_EQ(frame.inFlightPerDimension.at(static_cast<size_t>(t.dimension)), 128);
}

// Steps, and the timeline cursor and the replay moving each other.
TEST(CollectiveAnimation, StepsAndTimelineCursorStayInSync) {
    const SimulationSpec spec = allReduce({dimension(BlockKind::Ring, 8)}, "ring");
    const auto run = runSimulation(spec);
    CollectiveAnimationView view;
    view.setRun(spec.platform, run);
    EXPECT_EQ(view.time(), run->transfers.front().start);
    view.stepForward();
    std::set<int64_t> starts;
    for (const ChunkTransfer& t : run->transfers)
        starts.insert(t.start.ps());
    ASSERT_GE(starts.size(), 2u);
    EXPECT_EQ(view.time().ps(), *std::next(starts.begin()));
    view.stepBackward();
    EXPECT_EQ(view.time().ps(), *starts.begin());

    TimelineWidget timeline;
    timeline.resize(800, 300);
    timeline.setSource(std::make_shared<RunResultTimelineSource>(run), {8});
    QObject::connect(&timeline, &TimelineWidget::cursorMoved, &view,
                     &CollectiveAnimationView::setTime);
    QObject::connect(&view, &CollectiveAnimationView::timeChanged, &timeline,
                     [&timeline](qint64 ps) { timeline.setCursorTime(ps); });
    view.setTime(run->endTime.ps() / 2);
    ASSERT_TRUE(timeline.cursorTime().has_value());
    EXPECT_EQ(*timeline.cursorTime(), run->endTime.ps() / 2);
    // A press on the time axis moves the cursor, and with it the replay.
    timeline.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&timeline));
    const int x =
        timeline.labelWidth() + (timeline.viewport()->width() - timeline.labelWidth()) / 4;
    QSignalSpy moved(&timeline, &TimelineWidget::cursorMoved);
    QTest::mouseClick(timeline.viewport(), Qt::LeftButton, {}, QPoint(x, 5));
    ASSERT_EQ(moved.count(), 1);
    const qint64 t = moved.front().front().toLongLong();
    EXPECT_EQ(view.time().ps(),
              std::clamp<int64_t>(t, view.animation().begin().ps(), view.animation().end().ps()));
    EXPECT_EQ(timeline.cursorTime(), view.time().ps());
}

// A chunk at the very start of its message sits on its sender: the sender's number stays
// readable over it (issue #53, Teacher 3). No chunk colour is near white (each has a channel
// below 0x50), so near-white pixels at the NPU's centre are the number's glyph.
TEST(CollectiveAnimation, ChunkDisksLeaveTheNpuNumbersReadable) {
    const SimulationSpec spec = allReduce({dimension(BlockKind::Ring, 8)}, "ring");
    const auto run = runSimulation(spec);
    CollectiveAnimationView view;
    ASSERT_TRUE(showRun(view, spec, run));
    const ChunkTransfer& t = run->transfers.front();
    view.setTime(t.start.ps());
    ASSERT_FALSE(view.frame().chunks.empty());
    NetworkView* drawing = view.networkView();
    ASSERT_GE(2 * NetworkLayout::kNodeRadius * drawing->scale(), 18) << "numbers are drawn";
    const QPoint centre =
        drawing->sceneToWidget(drawing->networkLayout().npuPosition(t.src)).toPoint();
    const QImage image = drawing->grab().toImage();
    const int half = static_cast<int>(NetworkLayout::kNodeRadius * drawing->scale() * 0.5);
    int white = 0;
    for (int y = centre.y() - half; y <= centre.y() + half; ++y)
        for (int x = centre.x() - half; x <= centre.x() + half; ++x) {
            const QColor c = image.pixelColor(x, y);
            white += c.red() > 225 && c.green() > 225 && c.blue() > 225;
        }
    EXPECT_GE(white, 4) << "NPU " << t.src << "'s number under the chunk at " << centre.x() << ","
                        << centre.y();
}

TEST(CollectiveAnimation, ScreenshotsOfOneRingStepAndATorus) {
    const SimulationSpec spec = allReduce({dimension(BlockKind::Ring, 8)}, "ring");
    const auto run = runSimulation(spec);
    CollectiveAnimationView view;
    ASSERT_TRUE(showRun(view, spec, run));
    // Step 1 (the second reduce-scatter step), from its start to the next step's start.
    const SimTime s0 = view.animation().nextStep(view.animation().begin());
    const SimTime s1 = view.animation().nextStep(s0);
    for (int k = 0; k < 8; ++k) {
        view.setTime(s0.ps() + (s1 - s0).ps() * k / 8);
        gui::test::saveScreenshot(view, QStringLiteral("animation-ring8-step-%1.png").arg(k));
    }

    const SimulationSpec torus =
        allReduce({dimension(BlockKind::Ring, 4), dimension(BlockKind::Ring, 4)}, "ring");
    const auto torusRun = runSimulation(torus);
    view.setRun(torus.platform, torusRun);
    const ChunkTransfer& last = torusRun->transfers.back();
    view.setTime((last.start.ps() + last.end.ps()) / 2);
    EXPECT_FALSE(view.frame().chunks.empty());
    gui::test::saveScreenshot(view, QStringLiteral("animation-torus4x4.png"));

    const SimulationSpec big = allReduce({dimension(BlockKind::Ring, 64)}, "ring");
    const auto bigRun = runSimulation(big);
    view.setRun(big.platform, bigRun);
    view.stepForward();
    view.setTime(view.time().ps() + 1000);
    EXPECT_EQ(view.frame().chunks.size(), 64u);
    gui::test::saveScreenshot(view, QStringLiteral("animation-ring64.png"));
}

// In-switch all-reduce on a Switch of 8 (issue #53, Teacher 1): the 8 inputs go up to the
// switch's hub and the 8 results come down from it, on the drawing. Halfway through an up
// message its chunk is halfway between its NPU and the hub, and the hub is marked as reducing;
// halfway through a down message, halfway back.
TEST(CollectiveAnimation, InSwitchMessagesGoUpToTheHubAndDown) {
    const SimulationSpec spec = allReduce({dimension(BlockKind::Switch, 8)}, "inSwitch");
    const auto run = runSimulation(spec);
    ASSERT_EQ(run->transfers.size(), 16u);
    const NetworkLayout layout(spec.platform);
    ASSERT_TRUE(layout.level(1).hasHub);
    const QPointF hub = layout.groupCentre(1, 0) + layout.level(1).hubOffset;
    const CollectiveAnimation animation(run->transfers, layout);
    ASSERT_EQ(animation.transferCount(), 16u);
    AnimationFrame frame;
    for (bool up : {true, false}) {
        const auto it = std::find_if(run->transfers.begin(), run->transfers.end(),
                                     [up](const ChunkTransfer& t) {
                                         return (up ? t.dst : t.src) == ChunkTransfer::kSwitch;
                                     });
        ASSERT_NE(it, run->transfers.end());
        const SimTime middle = SimTime::fromPs((it->start.ps() + it->end.ps()) / 2);
        animation.frameAt(middle, frame);
        EXPECT_EQ(frame.chunks.size(), 8u) << (up ? "up" : "down");
        const QPointF npu = layout.npuPosition(up ? it->src : it->dst);
        EXPECT_TRUE(hasChunkAt(frame, (npu + hub) / 2)) << (up ? "up" : "down");
        EXPECT_EQ(frame.reduceTargets.size(), up ? 1u : 0u);
        if (up) {
            ASSERT_FALSE(frame.reduceTargets.empty());
            EXPECT_LT(QLineF(frame.reduceTargets.front(), hub).length(), 1e-6);
        }
    }
}
