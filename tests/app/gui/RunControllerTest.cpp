// The run controller keeps the GUI thread free, reports progress at most 25 times a second,
// stops within 100 ms and runs queued specs first-in first-out.
#include "gui/RunController.h"

#include "GapMeter.h"
#include "GuiTestSupport.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;
using namespace std::chrono_literals;

namespace {
SimulationSpec namedSpec(const std::string& name) {
    SimulationSpec spec;
    spec.name = name;
    spec.platform.dimensions = {DimensionSpec{BlockKind::Ring, 4, 1e9, 0}};
    return spec;
}
} // namespace

TEST(RunController, FinishedRunDeliversTheResultOnTheGuiThread) {
    RunController controller(test::busyRun(50ms));
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy idle(&controller, &RunController::idle);
    const int id = controller.enqueue(namedSpec("a"));
    EXPECT_GT(id, 0);
    EXPECT_TRUE(controller.isBusy());
    ASSERT_TRUE(finished.wait(5000));
    EXPECT_EQ(finished.at(0).at(0).toInt(), id);
    const auto result = finished.at(0).at(1).value<std::shared_ptr<const RunResult>>();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->name, "a");
    EXPECT_EQ(result->npuCount, 4);
    // The fake spends at least its 50 ms; the wall time measured around it must say so.
    EXPECT_GE(finished.at(0).at(2).toDouble(), 0.05);
    EXPECT_FALSE(controller.isBusy());
    EXPECT_EQ(idle.count(), 1);
}

TEST(RunController, EventLoopStaysResponsiveDuringALongRun) {
    // A timer firing every 5 ms records the gaps between its ticks while a 1 s run goes on. The
    // run is on a worker thread and progress is throttled, so no gap may exceed 50 ms.
    RunController controller(test::busyRun(1000ms));
    QSignalSpy finished(&controller, &RunController::runFinished);
    QSignalSpy progress(&controller, &RunController::progressed);
    test::GapMeter meter;
    controller.enqueue(namedSpec("long"));
    ASSERT_TRUE(finished.wait(10000));
    meter.stop();
    const double seconds = static_cast<double>(meter.elapsedMs()) / 1e3;
    std::printf("[ measured ] %s; %lld progress signals in %.2f s\n", meter.describe().c_str(),
                static_cast<long long>(progress.count()), seconds);
    if (meter.steady()) {
        EXPECT_LT(meter.maxGapMs(), 50);
        // About 25 reports in the second (throttled to 25 Hz).
        EXPECT_GE(progress.count(), 10);
    } else {
        std::printf("%s", meter.unsteadyNote().c_str());
    }
    // ~200 ticks at 5 ms while the GUI thread has the machine; the timer must have really run
    // for the gap figure to mean anything.
    EXPECT_GT(meter.ticks(), meter.runningMs() / 5 / 4);
    // At most 25 Hz (plus one for the first report), and some progress did arrive.
    EXPECT_GE(progress.count(), 1);
    EXPECT_LE(progress.count(), static_cast<qsizetype>(seconds * 25.0) + 1);
}

TEST(RunController, StopCancelsWithin100Milliseconds) {
    RunController controller(test::busyRun(10000ms));
    QSignalSpy failed(&controller, &RunController::runFailed);
    QSignalSpy progress(&controller, &RunController::progressed);
    controller.enqueue(namedSpec("to stop"));
    ASSERT_TRUE(progress.wait(2000));        // the run is really going
    const astrolabe::timing::OwnClock clock; // less the machine's pauses (support/MachineTime.h)
    controller.stop();
    ASSERT_TRUE(failed.wait(2000));
    const astrolabe::timing::Reading stop = clock.read();
    std::printf("[ measured ] stop -> cancelled signal: %.1f ms (wall %.1f ms)\n", stop.ownMs,
                stop.wallMs);
    EXPECT_TRUE(astrolabe::timing::within(stop, 100.0, "stop -> cancelled signal"));
    EXPECT_TRUE(failed.at(0).at(3).toBool()) << "reported as cancelled, not as an error";
    EXPECT_FALSE(controller.isBusy());
}

TEST(RunController, QueuedRunsRunFirstInFirstOutAndStopDropsTheQueue) {
    RunController controller(test::busyRun(30ms));
    QSignalSpy started(&controller, &RunController::runStarted);
    QSignalSpy finished(&controller, &RunController::runFinished);
    const int a = controller.enqueue(namedSpec("a"));
    const int b = controller.enqueue(namedSpec("b"));
    const int c = controller.enqueue(namedSpec("c"));
    EXPECT_EQ(controller.queuedCount(), 2);
    ASSERT_TRUE(test::waitUntil([&] { return finished.count() == 3; }));
    EXPECT_EQ(started.at(0).at(0).toInt(), a);
    EXPECT_EQ(started.at(1).at(0).toInt(), b);
    EXPECT_EQ(started.at(2).at(0).toInt(), c);
    EXPECT_EQ(started.at(1).at(1).toString(), QStringLiteral("b"));

    RunController slow(test::busyRun(10000ms));
    QSignalSpy dropped(&slow, &RunController::runDropped);
    QSignalSpy failed(&slow, &RunController::runFailed);
    slow.enqueue(namedSpec("x"));
    const int y = slow.enqueue(namedSpec("y"));
    slow.stop();
    EXPECT_EQ(dropped.count(), 1);
    EXPECT_EQ(dropped.at(0).at(0).toInt(), y);
    ASSERT_TRUE(failed.wait(2000));
    QTest::qWait(50);
    EXPECT_FALSE(slow.isBusy());
    EXPECT_EQ(failed.count(), 1) << "the dropped run never started";
}

TEST(RunController, EngineErrorsArriveWithMessageAndKeyPath) {
    RunController controller(test::failingRun("system.endpoint-delay"));
    QSignalSpy failed(&controller, &RunController::runFailed);
    controller.enqueue(namedSpec("bad"));
    ASSERT_TRUE(failed.wait(2000));
    const QString message = failed.at(0).at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("endpoint delay must be at most 1000 ns")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("project.yaml:12:3"))) << message.toStdString();
    EXPECT_EQ(failed.at(0).at(2).toString(), QStringLiteral("system.endpoint-delay"));
    EXPECT_FALSE(failed.at(0).at(3).toBool());
}

TEST(RunController, DestroyingTheControllerCancelsARunningJob) {
    QElapsedTimer clock;
    clock.start();
    {
        RunController controller(test::busyRun(10000ms));
        QSignalSpy progress(&controller, &RunController::progressed);
        controller.enqueue(namedSpec("abandoned"));
        ASSERT_TRUE(progress.wait(2000));
    }
    EXPECT_LT(clock.elapsed(), 3000) << "the destructor waited for the whole 10 s run";
}

TEST(RunController, DefaultRunFunctionIsTheEngine) {
    RunController controller;
    QSignalSpy finished(&controller, &RunController::runFinished);
    // ASTRA-sim's regression case: 8-NPU ring, 1 MiB all-reduce in 4 chunks = 117,780 ns.
    SimulationSpec spec = namedSpec("engine");
    spec.platform.dimensions = {DimensionSpec{BlockKind::Ring, 8, 50.0 * (1 << 30), 500}};
    spec.system.preferredDatasetSplits = 4;
    spec.system.localMemBandwidthGBps = 50;
    spec.system.allReduce = {AlgorithmSpec{AlgorithmKind::Ring, 0}};
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.sizeBytes = 1 << 20;
    controller.enqueue(spec);
    ASSERT_TRUE(finished.wait(5000));
    const auto result = finished.at(0).at(1).value<std::shared_ptr<const RunResult>>();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->npuCount, 8);
    EXPECT_EQ(result->endTime.nsFloor(), 117780);
}
