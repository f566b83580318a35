// Presentation mode in a real X window (Xvfb; ctest runs this executable under xvfb-run): the
// quick start run twice and compared, a small sweep run, then every tab at 200 % — and in the
// high-contrast theme — saved under screenshots/present-*.png to be looked at. Checked here, at
// 200 % on every tab and sub-tab: every visible button is wide enough for its text, every tab of
// every tab bar is whole (none behind the scroll arrows, its text inside its rect), no page is
// wider than a scroll area that cannot scroll sideways, no tool bar
// hides buttons in its overflow menu, no combo box or table header is narrower than its text,
// and no chart elides a label, title or legend to "..." (what
// Qt Charts does when the chart is too small for its fonts); then the scale comes back to 100 %.
#include "ClippedWidgets.h"
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "common/InterfaceScale.h"
#include "gui/HelpController.h"
#include "gui/HelpWindow.h"
#include "gui/LessonsController.h"
#include "gui/MainWindow.h"
#include "gui/PresentationController.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/SweepController.h"
#include "gui/TimelinePage.h"

#include <QAbstractButton>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QGuiApplication>
#include <QHeaderView>
#include <QScreen>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolBar>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

TEST(GuiScenario, EveryTabAt200PercentInARealWindow) {
    ASTROLABE_SKIP_UNLESS_REAL_WINDOW();
    QTemporaryDir dir;
    ASSERT_TRUE(QFile::copy(
        QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml"),
        dir.filePath(QStringLiteral("project.yaml"))));
    {
        QFile sweep(dir.filePath(QStringLiteral("sweep.yaml")));
        ASSERT_TRUE(sweep.open(QIODevice::WriteOnly));
        sweep.write("name: ring bandwidth x chunks\nproject: project.yaml\naxes:\n"
                    "  - name: bw0\n    path: platform.dimensions[0].bandwidth\n"
                    "    values: [25 GiB/s, 50 GiB/s, 100 GiB/s]\n"
                    "  - path: system.chunks\n    values: [1, 2, 4, 8]\n");
    }
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1600, 1000);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    PresentationController* presentation = window.presentation();
    presentation->setScale(2.0);
    test::saveScreenshot(window, QStringLiteral("present-200-welcome.png"));
    // The scaled minimum sizes still fit the screen (the window was taller than it once).
    const QRect screen = window.screen()->availableGeometry();
    EXPECT_LE(window.minimumSizeHint().height(), screen.height());
    EXPECT_LE(window.minimumSizeHint().width(), screen.width());
    window.showMaximized();

    ASSERT_TRUE(window.openProject(dir.filePath(QStringLiteral("project.yaml"))));
    QSignalSpy stored(&window, &MainWindow::runStored);
    ASSERT_NE(window.startRun(), 0);
    ASSERT_TRUE(test::waitUntil([&] { return stored.size() >= 1; }, 30000));
    ASSERT_NE(window.startRun(), 0);
    ASSERT_TRUE(test::waitUntil([&] { return stored.size() >= 2; }, 30000));
    QSignalSpy finished(window.sweepController(), &SweepController::finished);
    ASSERT_TRUE(window.runSweep(dir.filePath(QStringLiteral("sweep.yaml")), 2));
    ASSERT_TRUE(test::waitUntil([&] { return finished.size() == 1; }, 120000));
    const int first = window.runsModel()->store()->at(0).id;
    const int second = window.runsModel()->store()->at(1).id;
    window.compareRuns({first, second});
    window.runsPanel()->selectRun(first);

    const std::pair<int, const char*> tabs[] = {
        {MainWindow::TopologyTab, "topology"}, {MainWindow::ConfigurationTab, "configuration"},
        {MainWindow::TimelineTab, "timeline"}, {MainWindow::UtilizationTab, "utilization"},
        {MainWindow::CompareTab, "compare"},   {MainWindow::WorkloadTab, "workload"},
        {MainWindow::SweepTab, "sweep"},       {MainWindow::BandwidthTab, "bandwidth"},
        {MainWindow::WatchTab, "watch"},
    };
    for (const auto& [tab, name] : tabs) {
        window.tabs()->setCurrentIndex(tab);
        if (tab == MainWindow::TimelineTab) {
            auto* page = qobject_cast<TimelinePage*>(window.tabs()->widget(tab));
            ASSERT_TRUE(test::waitUntil([page] { return page->isReady(); }));
        }
        QTest::qWait(150);
        test::saveScreenshot(window, QStringLiteral("present-200-%1.png").arg(QLatin1String(name)));
        test::expectNothingClipped(window, QLatin1String(name));
        // Sub-tabs (utilization pages, compare pages, sweep charts): each one, too.
        for (QTabWidget* inner : window.tabs()->widget(tab)->findChildren<QTabWidget*>()) {
            if (!inner->isVisible())
                continue;
            for (int i = 1; i < inner->count(); ++i) {
                inner->setCurrentIndex(i);
                QTest::qWait(100);
                test::saveScreenshot(
                    window,
                    QStringLiteral("present-200-%1-%2.png").arg(QLatin1String(name)).arg(i));
                test::expectNothingClipped(
                    window, QStringLiteral("%1 %2").arg(QLatin1String(name), inner->tabText(i)));
            }
            inner->setCurrentIndex(0);
        }
    }

    // High contrast at 200 %: the drawings.
    presentation->setHighContrast(true);
    for (const auto& [tab, name] : tabs) {
        if (tab != MainWindow::TopologyTab && tab != MainWindow::TimelineTab &&
            tab != MainWindow::UtilizationTab)
            continue;
        window.tabs()->setCurrentIndex(tab);
        QTest::qWait(150);
        test::saveScreenshot(
            window, QStringLiteral("present-200-contrast-%1.png").arg(QLatin1String(name)));
    }
    presentation->setHighContrast(false);

    // The full-screen tab and the guide at 200 %.
    for (const auto& [tab, name] : tabs) {
        window.tabs()->setCurrentIndex(tab);
        presentation->setTabFullScreen(true);
        QTest::qWait(300);
        test::saveScreenshot(
            window, QStringLiteral("present-200-fullscreen-%1.png").arg(QLatin1String(name)));
        test::expectNothingClipped(window,
                                   QStringLiteral("full screen %1").arg(QLatin1String(name)));
        presentation->setTabFullScreen(false);
        QTest::qWait(100);
    }
    HelpWindow* help = window.help()->showGuide(QStringLiteral("the-timeline-tab"));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(help));
    test::saveScreenshot(*help, QStringLiteral("present-200-help.png"));
    help->close();

    presentation->resetZoom();
    EXPECT_EQ(widgets::InterfaceScale::factor(), 1.0);
}

// A teacher's setting: a lesson open beside the project, then 250 %. The side docks give way and
// the window stays within the screen (it grew to 1931 x 1149 on a 1600 x 1000 screen, the Log
// and the status bar below its edge); back at 100 % it is where it was.
TEST(GuiScenario, ALessonAt250PercentKeepsTheWindowOnTheScreen) {
    ASTROLABE_SKIP_UNLESS_REAL_WINDOW();
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.lessons()->setCopyDirectory(dir.filePath(QStringLiteral("lessons")));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.setWindowState(Qt::WindowNoState);
    const QRect screen = window.screen()->availableGeometry();
    window.setGeometry(screen.adjusted(0, 30, 0, 0));
    ASSERT_TRUE(window.lessons()->openLesson(QString::fromStdString(
        ASTROLABE_SOURCE_DIR + "/resources/lessons/01-ring-all-reduce/lesson.md")));
    QTest::qWait(200);
    const QRect before = window.frameGeometry();
    for (const double scale : {1.5, 2.0, 2.5}) {
        window.presentation()->setScale(scale);
        QTest::qWait(200);
        EXPECT_LE(window.minimumSizeHint().width(), screen.width()) << scale;
        EXPECT_LE(window.minimumSizeHint().height(), screen.height()) << scale;
        EXPECT_LE(window.frameGeometry().width(), screen.width()) << scale;
        EXPECT_LE(window.frameGeometry().height(), screen.height()) << scale;
    }
    test::saveScreenshot(window, QStringLiteral("present-250-lesson.png"));
    window.presentation()->setScale(1.0);
    QTest::qWait(200);
    EXPECT_EQ(window.frameGeometry().size(), before.size());
    window.close();
}
