// The first hour, in a real X window (Xvfb; ctest runs this executable under xvfb-run): open the
// quick start, run it, generate and run a small LLM iteration, click back and forth between the
// two runs ten times with the mouse, visit every tab, undo and redo an editor change with the
// keyboard. A 5 ms watchdog timer on the GUI thread records the longest stall of the event loop;
// above 200 ms the test fails. Each step leaves a screenshot under screenshots/scenario-*.png.
#include "GapMeter.h"
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "generate/ModelPresets.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "topology/NetworkView.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyEditor.h"

#include <QApplication>
#include <QFile>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTabBar>
#include <QTableView>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>
#include <iostream>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

/// A GPT-style model (about 350 M parameters) that generates and runs in about a second on
/// 8 NPUs, and takes milliseconds of simulated time where the quick start takes 118 µs.
generate::GeneratorSpec smallLlm() {
    generate::GeneratorSpec spec = generate::presetSpec("gpt3-175b");
    spec.model.name = "GPT (8 layers, d=1024)";
    spec.model.layers = 8;
    spec.model.hidden = 1024;
    spec.model.heads = 16;
    spec.model.ffn = 4096;
    spec.model.vocabulary = 32768;
    spec.model.sequence = 1024;
    spec.parallel = {};
    spec.parallel.tp = 2;
    spec.parallel.dp = 4;
    spec.training.microBatch = 1;
    spec.training.globalBatch = 32;
    return spec;
}

/// Clicks the middle of a row of the runs table with the mouse.
void clickRun(QTableView* view, int row) {
    const QRect rect = view->visualRect(view->model()->index(row, 0));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
}

} // namespace

TEST(GuiScenario, FirstHourInARealWindow) {
    ASTROLABE_SKIP_UNLESS_REAL_WINDOW();
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("quickstart/project.yaml"));
    QDir().mkpath(dir.filePath(QStringLiteral("quickstart")));
    ASSERT_TRUE(QFile::copy(
        QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml"),
        project));

    MainWindow window(test::testServices(dir)); // the real engine
    window.setAskBeforeDiscarding(false);
    window.resize(1280, 800);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    test::GapMeter meter;
    int shot = 0;
    const auto screenshot = [&](const char* what) {
        test::saveScreenshot(window, QStringLiteral("scenario-%1-%2.png")
                                         .arg(++shot, 2, 10, QLatin1Char('0'))
                                         .arg(QLatin1String(what)));
        meter.skip(); // grabbing the window is the test's work, not the application's
    };

    // 1. Open the quick start and run it.
    ASSERT_TRUE(window.openProject(project));
    screenshot("opened");
    QSignalSpy stored(&window, &MainWindow::runStored);
    ASSERT_GT(window.startRun(), 0);
    ASSERT_TRUE(test::waitUntil([&] { return stored.count() >= 1; }, 30000));
    screenshot("quickstart-run");

    // 2. Generate and run a small LLM iteration on the same 8 NPUs.
    ASSERT_GT(window.startGeneratedRun(smallLlm()), 0);
    ASSERT_TRUE(test::waitUntil([&] { return stored.count() >= 2; }, 60000));
    window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
    screenshot("llm-run");
    QTableView* runs = window.runsPanel()->view();
    ASSERT_EQ(runs->model()->rowCount(), 2);
    const RunRecord& first = window.runsModel()->store()->at(0);
    const RunRecord& second = window.runsModel()->store()->at(1);
    ASSERT_TRUE(first.result && second.result);
    const double ratio = std::max(first.result->endTime.us(), second.result->endTime.us()) /
                         std::min(first.result->endTime.us(), second.result->endTime.us());
    std::cout << "[ scenario ] run lengths " << first.result->endTime.us() << " us and "
              << second.result->endTime.us() << " us (ratio " << ratio << ")\n";
    EXPECT_GT(ratio, 100.0) << "the two runs should differ in length by orders of magnitude";

    // 3. Back and forth between the runs, ten times, on the utilization and timeline tabs.
    for (int i = 0; i < 10; ++i) {
        window.tabs()->setCurrentIndex(i % 2 ? MainWindow::TimelineTab
                                             : MainWindow::UtilizationTab);
        clickRun(runs, i % 2);
        QTest::qWait(40);
    }
    screenshot("after-switching");

    // 4. Every tab, clicked on the tab bar.
    QTabBar* bar = window.tabs()->tabBar();
    for (int t = 0; t < bar->count(); ++t) {
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(t).center());
        QTest::qWait(60);
        EXPECT_EQ(window.tabs()->currentIndex(), t);
        screenshot(
            ("tab-" + bar->tabText(t).remove(QLatin1Char('&')).toLower().toStdString()).c_str());
    }

    // 5. An editor change, undone and redone from the keyboard.
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(MainWindow::TopologyTab).center());
    auto* editor =
        window.tabs()->widget(MainWindow::TopologyTab)->findChild<widgets::TopologyEditor*>();
    ASSERT_NE(editor, nullptr);
    const PlatformSpec before = window.document()->spec().platform;
    DimensionSpec faster = before.dimensions.at(0);
    faster.bandwidthBytesPerSecond *= 2;
    editor->document()->editDimension(0, faster, widgets::DimensionField::Bandwidth);
    ASSERT_NE(window.document()->spec().platform, before);
    editor->networkView()->setFocus();
    ASSERT_TRUE(test::waitUntil([] { return QApplication::focusWidget() != nullptr; }));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(window.document()->spec().platform, before) << "Ctrl+Z undid the edit";
    screenshot("undone");
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z,
                    Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(window.document()->spec().platform.dimensions.at(0).bandwidthBytesPerSecond,
              faster.bandwidthBytesPerSecond)
        << "Ctrl+Shift+Z redid it";
    screenshot("redone");

    QTest::qWait(50);
    std::cout << "[ scenario ] " << meter.describe() << "\n";
    if (meter.steady()) {
        EXPECT_LT(meter.maxCpuGapMs(), 200.0);
        EXPECT_LT(meter.maxGapMs(), 200);
    } else {
        std::cout << meter.unsteadyNote();
    }
    window.close();
}
