// The main window, driven as a first-time user would: quick start, run, read the runs list.
// Screenshots of each step go to screenshots/ in the working directory.
#include "gui/MainWindow.h"

#include "GapMeter.h"
#include "GuiTestSupport.h"
#include "common/LogModel.h"
#include "config/ConfigSection.h"
#include "config/ConfigurationPanel.h"
#include "config/QuantityEdit.h"
#include "gui/ImportAstraDialog.h"
#include "gui/NewProjectWizard.h"
#include "gui/ProjectDocument.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "utilization/DimensionStatsModel.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <gtest/gtest.h>
#include <iostream>

using namespace astrolabe;
using namespace astrolabe::gui;
using namespace std::chrono_literals;

using test::closeErrorBoxes;
using test::logContains;

TEST(MainWindow, StartsShowsAndQuitsCleanly) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_EQ(window.windowTitle(), QStringLiteral("Astrolabe"));
    const QString path = test::saveScreenshot(window, QStringLiteral("01-welcome.png"));
    EXPECT_GT(QFileInfo(path).size(), 1000);
    QStringList menus;
    for (QAction* a : window.menuBar()->actions())
        menus << a->text();
    EXPECT_EQ(menus, (QStringList{QStringLiteral("&File"), QStringLiteral("&Edit"),
                                  QStringLiteral("&Run"), QStringLiteral("&Tools"),
                                  QStringLiteral("&View"), QStringLiteral("&Help")}));
    EXPECT_FALSE(window.runAction()->isEnabled()) << "nothing to run before a project is open";
    EXPECT_TRUE(window.close());
}

TEST(MainWindow, AboutTextNamesTheVersion) {
    EXPECT_TRUE(MainWindow::aboutText().contains(QStringLiteral("Astrolabe 0.")));
}

TEST(MainWindow, QuickStartRunAppearsInTheRunsList) {
    // The real engine entry point: the same function the CLI calls.
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    ASSERT_TRUE(window.hasProject());
    EXPECT_EQ(window.tabs()->currentIndex(), MainWindow::ConfigurationTab);
    EXPECT_EQ(window.windowTitle(), QStringLiteral("Quick start (not saved)[*] \u2014 Astrolabe"));
    EXPECT_FALSE(window.isWindowModified());
    test::saveScreenshot(window, QStringLiteral("02-quickstart-configuration.png"));

    QSignalSpy finished(window.runController(), &RunController::runFinished);
    window.runAction()->trigger();
    ASSERT_TRUE(finished.wait(10000));
    QTest::qWait(20);
    ASSERT_EQ(window.runsModel()->rowCount(), 1);
    const QModelIndex name = window.runsModel()->index(0, RunsTableModel::Name);
    EXPECT_EQ(name.data().toString(), QStringLiteral("Quick start #1"));
    EXPECT_EQ(window.runsModel()->index(0, RunsTableModel::Status).data().toString(),
              QStringLiteral("Finished"));
    EXPECT_TRUE(window.runsModel()
                    ->index(0, RunsTableModel::Settings)
                    .data()
                    .toString()
                    .contains(QStringLiteral("Ring 8")));
    EXPECT_EQ(window.runsPanel()->selectedRunId(), window.runsModel()->idAt(0));
    EXPECT_TRUE(logContains(window.logModel(), QStringLiteral("Quick start #1 finished")));
    EXPECT_FALSE(window.progressBar()->isVisible()) << "no progress bar while idle";
    test::saveScreenshot(window, QStringLiteral("03-quickstart-finished.png"));
    window.tabs()->setCurrentIndex(MainWindow::TimelineTab);
    test::saveScreenshot(window, QStringLiteral("04-timeline-placeholder.png"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    test::saveScreenshot(window, QStringLiteral("04b-topology-placeholder.png"));
    window.close();
}

TEST(MainWindow, LongRunShowsProgressAndStops) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir, test::busyRun(10000ms)));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.newProjectFromPreset(QStringLiteral("torus-2d"));
    QSignalSpy progress(window.runController(), &RunController::progressed);
    const int first = window.startRun();
    const int second = window.startRun(); // queued behind the first
    EXPECT_GT(first, 0);
    EXPECT_GT(second, first);
    EXPECT_EQ(window.runController()->queuedCount(), 1);
    ASSERT_TRUE(progress.wait(3000));
    // The whole window (progress label, busy bar) stays responsive: a 5 ms timer's ticks are
    // never more than 50 ms apart (beyond the machine's own pauses) while the run goes on, for
    // 300 ms in which the machine ran.
    test::GapMeter meter;
    QTest::qWait(300);
    for (int i = 0; i < 50 && meter.runningMs() < 300; ++i)
        QTest::qWait(100);
    meter.stop();
    if (meter.steady()) {
        EXPECT_LT(meter.maxGapMs(), 50) << meter.describe();
    } else {
        std::cout << meter.unsteadyNote();
    }
    EXPECT_GT(progress.count(), meter.steady() ? 3 : 0);
    EXPECT_TRUE(window.stopAction()->isEnabled());
    EXPECT_EQ(window.progressBar()->maximum(), 0) << "busy indicator while running";
    EXPECT_TRUE(window.progressBar()->isVisible());
    const QString label = window.progressLabel()->text();
    EXPECT_TRUE(label.contains(QStringLiteral("simulated"))) << label.toStdString();
    EXPECT_TRUE(label.contains(QStringLiteral("events/s"))) << label.toStdString();
    test::saveScreenshot(window, QStringLiteral("05-running.png"));

    QSignalSpy failed(window.runController(), &RunController::runFailed);
    astrolabe::timing::OwnClock clock; // less the machine's pauses (support/MachineTime.h)
    window.stopAction()->trigger();
    ASSERT_TRUE(failed.wait(2000));
    const astrolabe::timing::Reading stop = clock.read();
    EXPECT_TRUE(astrolabe::timing::within(stop, 100.0, "stop"))
        << "Stop ends the run within 100 ms: " << stop.ownMs << " ms (wall " << stop.wallMs
        << " ms)";
    QTest::qWait(20);
    ASSERT_EQ(window.runsModel()->rowCount(), 1) << "the queued run was dropped, not stored";
    EXPECT_EQ(window.runsModel()->index(0, RunsTableModel::Status).data().toString(),
              QStringLiteral("Cancelled"));
    EXPECT_FALSE(window.stopAction()->isEnabled());
    EXPECT_FALSE(window.progressBar()->isVisible()) << "no progress bar while idle";
    test::saveScreenshot(window, QStringLiteral("06-stopped.png"));
    window.close();
}

TEST(MainWindow, EditsMarkTheProjectModifiedAndUndoRestoresIt) {
    QTemporaryDir dir;
    auto files = std::make_shared<test::MemoryFiles>();
    MainWindow window(test::testServices(dir, {}, files));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    QSignalSpy finished(window.runController(), &RunController::runFinished);
    window.startRun();
    ASSERT_TRUE(finished.wait(10000));

    // Type a new endpoint delay, as a user would.
    auto* endpoint = qobject_cast<widgets::QuantityEdit*>(
        window.configurationPanel()->editorForKey(QStringLiteral("endpoint-delay")));
    ASSERT_NE(endpoint, nullptr);
    endpoint->numberEdit()->selectAll();
    QTest::keyClicks(endpoint->numberEdit(), QStringLiteral("25"));
    EXPECT_EQ(window.document()->spec().system.endpointDelayNs, 25);
    EXPECT_TRUE(window.isWindowModified());
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("[*]")));
    EXPECT_EQ(window.configurationPanel()->changedFields(),
              QStringList{QStringLiteral("Endpoint delay")});
    EXPECT_EQ(window.document()->undoStack()->count(), 1) << "typing \"25\" is one undo step";
    test::saveScreenshot(window, QStringLiteral("07-changed-since-run.png"));

    // An invalid value shows a message next to the field and blocks the run.
    auto* bandwidth = qobject_cast<widgets::QuantityEdit*>(
        window.configurationPanel()->editorForKey(QStringLiteral("local-mem-bw")));
    ASSERT_NE(bandwidth, nullptr);
    bandwidth->numberEdit()->selectAll();
    QTest::keyClicks(bandwidth->numberEdit(), QStringLiteral("fast"));
    EXPECT_FALSE(bandwidth->isValid());
    EXPECT_EQ(window.configurationPanel()->invalidFields(),
              QStringList{QStringLiteral("Local memory bandwidth")});
    EXPECT_EQ(window.startRun(), 0);
    test::saveScreenshot(window, QStringLiteral("08-invalid-field.png"));
    closeErrorBoxes(window);
    bandwidth->setTextAsTyped(QStringLiteral("100"));
    EXPECT_TRUE(bandwidth->isValid());
    EXPECT_DOUBLE_EQ(window.document()->spec().system.localMemBandwidthGBps, 100.0);

    window.document()->undoStack()->undo();
    window.document()->undoStack()->undo();
    EXPECT_EQ(window.document()->spec().system.endpointDelayNs, 10);
    EXPECT_EQ(endpoint->text(), QStringLiteral("10 ns")) << "the form follows undo";
    EXPECT_TRUE(window.configurationPanel()->changedFields().isEmpty());
    EXPECT_FALSE(window.isWindowModified());

    // Save through the pluggable saver; the title loses its modified mark; recent projects.
    window.document()->undoStack()->redo();
    EXPECT_TRUE(window.isWindowModified());
    EXPECT_TRUE(window.saveProjectAs(dir.filePath(QStringLiteral("quick.yaml"))));
    EXPECT_FALSE(window.isWindowModified());
    EXPECT_EQ(files->saves, 1);
    EXPECT_EQ(files->files.begin()->second.system.endpointDelayNs, 25);
    EXPECT_EQ(window.recentProjects().value(0), dir.filePath(QStringLiteral("quick.yaml")));
    EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Quick start (quick.yaml)")));
    window.close();
}

TEST(MainWindow, LayoutAndRecentProjectsPersistBetweenSessions) {
    QTemporaryDir dir;
    auto files = std::make_shared<test::MemoryFiles>();
    const std::string path = dir.filePath(QStringLiteral("torus.yaml")).toStdString();
    files->files[path].name = "Torus from disk";
    files->files[path].platform.dimensions = {DimensionSpec{BlockKind::Ring, 4, 1e9, 10},
                                              DimensionSpec{BlockKind::Ring, 4, 1e9, 10}};
    {
        MainWindow window(test::testServices(dir, {}, files));
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        ASSERT_TRUE(window.openProject(QString::fromStdString(path)));
        EXPECT_EQ(window.document()->spec().platform.npuCount(), 16);
        window.findChild<QDockWidget*>(QStringLiteral("logDock"))->hide();
        window.resize(1100, 700);
        window.close();
    }
    MainWindow again(test::testServices(dir, {}, files));
    again.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&again));
    EXPECT_FALSE(again.findChild<QDockWidget*>(QStringLiteral("logDock"))->isVisible());
    EXPECT_EQ(again.size(), QSize(1100, 700));
    EXPECT_EQ(again.recentProjects(), QStringList{QString::fromStdString(path)});
    test::saveScreenshot(again, QStringLiteral("11-welcome-with-recent.png"));
    EXPECT_FALSE(again.openProject(dir.filePath(QStringLiteral("missing.yaml"))));
    closeErrorBoxes(again);
    again.close();
}

// View > Units: one convention for every size and bandwidth, applied to the shown run at once and
// remembered for the next session.
TEST(MainWindow, UnitsSettingRewritesTheShownRunAndPersists) {
    QTemporaryDir dir;
    const auto peakText = [](MainWindow& window) {
        auto* stats = window.findChild<widgets::DimensionStatsModel*>();
        return stats && stats->rowCount() > 0
                   ? stats->index(0, widgets::DimensionStatsModel::Peak).data().toString()
                   : QString();
    };
    {
        MainWindow window(test::testServices(dir));
        window.setAskBeforeDiscarding(false);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.newProjectFromPreset(QStringLiteral("quickstart"));
        QSignalSpy finished(window.runController(), &RunController::runFinished);
        window.runAction()->trigger();
        ASSERT_TRUE(finished.wait(10000));
        // A hidden tab takes the run when it is shown, not before (no GUI-thread work for it).
        QTest::qWait(50);
        EXPECT_TRUE(peakText(window).isEmpty());
        window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
        ASSERT_TRUE(test::waitUntil([&] { return !peakText(window).isEmpty(); }));
        EXPECT_TRUE(peakText(window).endsWith(QStringLiteral(" GiB/s")))
            << peakText(window).toStdString();
        window.setUnitConvention(units::Convention::Decimal);
        EXPECT_TRUE(peakText(window).endsWith(QStringLiteral(" GB/s")))
            << peakText(window).toStdString();
        EXPECT_EQ(units::formatBandwidth(50.0 * (1 << 30)), "53.6871 GB/s");
        window.close();
    }
    units::setConvention(units::Convention::AsEntered);
    {
        MainWindow again(test::testServices(dir));
        EXPECT_EQ(units::convention(), units::Convention::Decimal);
        again.setUnitConvention(units::Convention::AsEntered);
        again.close();
    }
    EXPECT_EQ(units::convention(), units::Convention::AsEntered);
}

TEST(MainWindow, NewProjectWizardOffersThePresets) {
    NewProjectWizard wizard;
    EXPECT_EQ(wizard.presetId(), QStringLiteral("quickstart"));
    EXPECT_TRUE(wizard.selectPreset(QStringLiteral("hgx-h100")));
    EXPECT_FALSE(wizard.selectPreset(QStringLiteral("cray")));
    EXPECT_EQ(wizard.spec().platform.dimensions.at(0).kind, BlockKind::Switch);
    EXPECT_EQ(wizard.spec().name, "HGX-H100 8 GPUs");
    EXPECT_TRUE(wizard.selectPreset(QStringLiteral("torus-2d")));
    EXPECT_EQ(wizard.spec().platform.npuCount(), 16);
    wizard.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&wizard));
    test::saveScreenshot(wizard, QStringLiteral("10-new-project-wizard.png"));
}

TEST(MainWindow, RunsCanBeRenamedTaggedAndDeleted) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir, test::busyRun(5ms)));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.newProjectFromPreset(QStringLiteral("hgx-h100"));
    QSignalSpy finished(window.runController(), &RunController::runFinished);
    window.startRun();
    window.startRun();
    ASSERT_TRUE(test::waitUntil([&] { return finished.count() == 2; }));
    RunsTableModel* runs = window.runsModel();
    ASSERT_EQ(runs->rowCount(), 2);
    EXPECT_EQ(runs->index(1, RunsTableModel::Name).data().toString(),
              QStringLiteral("HGX-H100 8 GPUs #2"));
    const int first = runs->idAt(0);
    EXPECT_TRUE(runs->setData(runs->index(0, RunsTableModel::Name), QStringLiteral("baseline")));
    EXPECT_TRUE(runs->setData(runs->index(0, RunsTableModel::Tags), QStringLiteral("h100")));
    // The explorer follows the runs list.
    const QStandardItemModel* tree = window.explorer()->treeModel();
    const QStandardItem* runsItem = tree->item(tree->rowCount() - 1);
    EXPECT_EQ(runsItem->text(), QStringLiteral("Runs (2)"));
    EXPECT_TRUE(runsItem->child(0)->text().startsWith(QStringLiteral("baseline")));

    window.runsPanel()->selectRun(first);
    EXPECT_EQ(window.runsPanel()->selectedRunId(), first);
    window.runsPanel()->deleteSelected(false);
    ASSERT_EQ(runs->rowCount(), 1);
    EXPECT_NE(runs->idAt(0), first);
    EXPECT_EQ(tree->item(tree->rowCount() - 1)->text(), QStringLiteral("Runs (1)"));
    window.close();
}
