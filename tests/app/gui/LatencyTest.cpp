// The GUI thread stays responsive during a long REAL run: a 5 ms timer on the GUI thread records
// the gaps between its ticks while the main window runs a 1024-NPU switch all-reduce (symmetry
// off, congestion-aware: seconds of engine time), reports progress and saves the result to the
// project database. The longest gap must stay under 50 ms.
#include "GapMeter.h"
#include "GuiTestSupport.h"
#include "gui/MainWindow.h"
#include "gui/RunsTableModel.h"
#include "simulation/Simulation.h"
#include "store/ProjectDatabase.h"
#include "store/RunStorage.h"

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTimer>
#include <algorithm>
#include <gtest/gtest.h>
#include <iostream>

using namespace astrolabe;
using namespace astrolabe::gui;

TEST(GuiLatency, EventLoopStaysResponsiveDuringALongRealRun) {
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("switch/project.yaml"));
    QDir().mkpath(dir.filePath(QStringLiteral("switch")));
    {
        QFile file(project);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("name: Switch 1024\n"
                   "platform:\n"
                   "  dimensions:\n"
                   "    - {type: Switch, size: 1024, bandwidth: 50 GiB/s, latency: 500 ns}\n"
                   "system:\n"
                   "  algorithms: {all-reduce: [ring], reduce-scatter: [ring], all-gather: "
                   "[ring], all-to-all: [ring]}\n"
                   "  chunks: 4\n"
                   "  local-memory-bandwidth: 50 GB/s\n"
                   "workload:\n"
                   "  microbenchmark: {collective: all-reduce, size: 1 GiB}\n"
                   "run:\n"
                   "  backend: congestion-aware\n");
    }
    // The real engine with symmetry off, so every NPU is simulated (the long run).
    const RunController::RunFunction real = [](const SimulationSpec& spec, ProgressSink* progress,
                                               const CancelToken* cancel) {
        SimulationSpec full = spec;
        full.options.exploitSymmetry = false;
        return runSimulation(full, progress, cancel);
    };
    MainWindow window(test::testServices(dir, real));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(project));

    test::GapMeter meter;
    // One picture mid-run (the progress label); the grab's own time is not counted as a gap.
    QTimer::singleShot(1500, &window, [&] {
        test::saveScreenshot(window, QStringLiteral("guiint-2-running-switch1024.png"));
        meter.skip();
    });
    QSignalSpy stored(&window, &MainWindow::runStored);
    ASSERT_GT(window.startRun(), 0);
    ASSERT_TRUE(stored.wait(300000));
    meter.stop();
    const double totalSeconds = static_cast<double>(meter.elapsedMs()) / 1000.0;
    test::saveScreenshot(window, QStringLiteral("guiint-7-switch1024.png"));

    ASSERT_EQ(window.runsModel()->rowCount(), 1);
    const gui::RunRecord& run = window.runsModel()->store()->at(0);
    ASSERT_EQ(run.status, gui::RunStatus::Finished) << run.message.toStdString();
    std::cout << "[ latency  ] run " << run.wallSeconds << " s wall, " << run.events << " events, "
              << run.activityCount << " intervals; run + save " << totalSeconds << " s; "
              << meter.describe() << "\n";
    EXPECT_GE(run.wallSeconds, 1.0) << "the run must be long for the measurement to mean much";
    // The GUI thread never works 50 ms at a stretch, and no tick is late by that beyond the
    // machine's own pauses.
    if (meter.steady()) {
        EXPECT_LT(meter.maxCpuGapMs(), 50.0);
        EXPECT_LT(meter.maxGapMs(), 50);
    } else {
        std::cout << meter.unsteadyNote();
    }
    EXPECT_GT(meter.ticks(), meter.runningMs() / 5 / 4); // kept firing while the machine ran
    EXPECT_EQ(ProjectDatabase(defaultDatabasePath(project.toStdString())).listRuns().size(), 1u);
}
