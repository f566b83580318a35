// A sweep in a real X window (Xvfb; ctest runs this executable under xvfb-run): open the 2-D
// torus, run its 64-point sweep (bandwidth x chunks) from the main window on two workers, then
// look at the heatmap and the Pareto scatter. Screenshots: screenshots/sweep-*.png.
#include "GapMeter.h"
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/MainWindow.h"
#include "gui/SweepController.h"
#include "gui/SweepSettingDialog.h"
#include "sweep/SweepCharts.h"
#include "sweep/SweepView.h"

#include <QFile>
#include <QGuiApplication>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <gtest/gtest.h>
#include <iostream>

using namespace astrolabe;
using namespace astrolabe::gui;

TEST(GuiScenario, SweepHeatmapAndParetoInARealWindow) {
    ASTROLABE_SKIP_UNLESS_REAL_WINDOW();
    QTemporaryDir dir;
    const QString from = QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/torus-2d/");
    for (const char* file : {"project.yaml", "sweep.yaml"})
        ASSERT_TRUE(QFile::copy(from + QLatin1String(file), dir.filePath(QLatin1String(file))));

    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(dir.filePath(QStringLiteral("project.yaml"))));
    QSignalSpy finished(window.sweepController(), &SweepController::finished);
    widgets::SweepView* view = window.sweepView();

    // One axis first: "Sweep this setting…" on chunks (1 to 128, log scale) draws a line. It
    // also paints the Sweep tab and its charts once (fonts, chart scene): a first paint is not
    // what the stall figure below is about, the GUI while two workers run is.
    const QString oneAxis =
        writeSettingSweep(dir.filePath(QStringLiteral("project.yaml")),
                          QStringLiteral("system.chunks"), sweepRangeValues("1", "128", 8, true));
    ASSERT_TRUE(window.runSweep(oneAxis, 2));
    ASSERT_TRUE(test::waitUntil([&] { return finished.size() == 1; }, 120000));
    view->chartTabs()->setCurrentIndex(0);
    ASSERT_NE(view->lineChart()->line(), nullptr);
    EXPECT_EQ(view->lineChart()->line()->count(), 8);
    test::saveScreenshot(window, QStringLiteral("sweep-5-line-chunks.png"));
    view->chartTabs()->setCurrentIndex(1);
    QTest::qWait(100);
    view->chartTabs()->setCurrentIndex(0);
    QTest::qWait(100);

    // Two axes: the example's 64 points, the event loop measured while they run.
    test::GapMeter meter;
    ASSERT_TRUE(window.runSweep(dir.filePath(QStringLiteral("sweep.yaml")), 2));
    ASSERT_TRUE(test::waitUntil([&] { return view->model()->finished() >= 20; }, 120000));
    meter.skip();
    test::saveScreenshot(window, QStringLiteral("sweep-1-running.png"));
    meter.skip();
    ASSERT_TRUE(test::waitUntil([&] { return finished.size() == 2; }, 240000));
    meter.stop();
    EXPECT_EQ(view->model()->finished(), 64u);
    view->chartTabs()->setCurrentIndex(0);
    test::saveScreenshot(window, QStringLiteral("sweep-2-heatmap.png"));
    view->chartTabs()->setCurrentIndex(1);
    test::saveScreenshot(window, QStringLiteral("sweep-3-pareto-exposed.png"));
    ASSERT_TRUE(view->paretoChart()->selectMetric(QStringLiteral("bw0")));
    EXPECT_GE(view->paretoChart()->frontPoints().size(), 2);
    test::saveScreenshot(window, QStringLiteral("sweep-4-pareto-bandwidth.png"));
    std::cout << "[ scenario ] sweep: " << meter.describe() << "\n";
    if (meter.steady()) {
        EXPECT_LT(meter.maxCpuGapMs(), 50.0);
        EXPECT_LT(meter.maxGapMs(), 50);
    } else {
        std::cout << meter.unsteadyNote();
    }
    window.close();
}
