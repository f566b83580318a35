// The main window when something is wrong: an engine error shown and its field focused, a trace
// set for another NPU count flagged before the run, import errors with their location.
#include "GuiTestSupport.h"
#include "common/LogModel.h"
#include "config/ConfigSection.h"
#include "config/ConfigurationPanel.h"
#include "config/QuantityEdit.h"
#include "gui/ImportAstraDialog.h"
#include "gui/MainWindow.h"
#include "gui/NewProjectWizard.h"
#include "gui/ProjectDocument.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyEditor.h"
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
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;
using test::closeErrorBoxes;
using test::logContains;

TEST(MainWindow, EngineErrorShowsTheMessageAndJumpsToTheField) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir, test::failingRun("system.endpoint-delay")));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    QSignalSpy failed(window.runController(), &RunController::runFailed);
    window.startRun();
    ASSERT_TRUE(failed.wait(3000));
    QTest::qWait(50);
    EXPECT_EQ(window.tabs()->currentIndex(), MainWindow::ConfigurationTab);
    QWidget* endpoint = window.configurationPanel()->editorForKey(QStringLiteral("endpoint-delay"));
    ASSERT_NE(endpoint, nullptr);
    EXPECT_TRUE(endpoint->focusProxy()->property("invalid").toBool()) << "highlighted";
    const auto boxes = window.findChildren<QMessageBox*>(QStringLiteral("errorBox"));
    ASSERT_EQ(boxes.size(), 1);
    EXPECT_TRUE(
        boxes[0]->text().contains(QStringLiteral("endpoint delay must be at most 1000 ns")));
    // The status line says what failed, not only "Quick start #1 failed:".
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("failed: ")))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("endpoint")))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_TRUE(logContains(window.logModel(), QStringLiteral("project.yaml:12:3")));
    const QModelIndex status = window.runsModel()->index(0, RunsTableModel::Status);
    EXPECT_EQ(status.data().toString(), QStringLiteral("Failed"));
    EXPECT_TRUE(status.data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("must be at most 1000 ns")));
    test::saveScreenshot(window, QStringLiteral("09-engine-error.png"));
    closeErrorBoxes(window);
    // Focus returns to the field once the message is read. (The offscreen window is never
    // active, so ask the window which widget holds its focus.)
    EXPECT_TRUE(test::waitUntil([&] { return window.focusWidget() == endpoint->focusProxy(); }));
    window.close();
}

TEST(MainWindow, ATraceSetForAnotherNpuCountIsFlaggedBeforeTheRun) {
    // The quick start's 8-NPU ring with a trace set made for 4 NPUs.
    QTemporaryDir dir;
    QDir(dir.path()).mkpath(QStringLiteral("traces"));
    const auto writeTraces = [&](int from, int to) {
        for (int i = from; i < to; ++i) {
            QFile f(dir.filePath(QStringLiteral("traces/llm.%1.et").arg(i)));
            ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        }
    };
    writeTraces(0, 4);
    QFile project(dir.filePath(QStringLiteral("project.yaml")));
    ASSERT_TRUE(project.open(QIODevice::WriteOnly));
    project.write("name: Traces\n"
                  "platform:\n"
                  "  dimensions:\n"
                  "    - {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 500 ns}\n"
                  "system:\n"
                  "  algorithms: {all-reduce: [ring], reduce-scatter: [ring], all-gather: [ring], "
                  "all-to-all: [ring]}\n"
                  "  scheduling-policy: LIFO\n"
                  "  collective-optimization: localBWAware\n"
                  "  chunks: 4\n"
                  "  active-chunks-per-dimension: 1\n"
                  "  endpoint-delay: 10 ns\n"
                  "  local-memory-bandwidth: 50 GB/s\n"
                  "workload:\n"
                  "  trace: traces/llm\n");
    project.close();
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(project.fileName()));
    QWidget* trace = window.configurationPanel()->editorForKey(QStringLiteral("workload.trace"));
    ASSERT_NE(trace, nullptr);
    QLabel* message = nullptr;
    for (widgets::ConfigSection* s : window.configurationPanel()->sections())
        if (QLabel* m = s->messageLabel(trace))
            message = m;
    ASSERT_NE(message, nullptr);
    EXPECT_EQ(message->text(),
              QStringLiteral("4 traces for a platform of 8 NPUs: the set was made for 4 NPUs"));
    EXPECT_EQ(window.configurationPanel()->invalidFields(),
              QStringList{QStringLiteral("Trace prefix")});
    window.tabs()->setCurrentIndex(MainWindow::ConfigurationTab);
    window.configurationPanel()->focusKey(QStringLiteral("workload.trace"));
    test::saveScreenshot(window, QStringLiteral("09b-trace-count.png"));

    // Run is refused before anything starts, naming the field.
    EXPECT_EQ(window.startRun(), 0);
    const auto boxes = window.findChildren<QMessageBox*>(QStringLiteral("errorBox"));
    ASSERT_EQ(boxes.size(), 1);
    EXPECT_TRUE(boxes[0]->text().contains(QStringLiteral("Trace prefix")));
    EXPECT_EQ(window.runsModel()->rowCount(), 0);
    closeErrorBoxes(window);

    // The missing traces appear (generated meanwhile): the next Run checks again.
    writeTraces(4, 8);
    EXPECT_GT(window.startRun(), 0);
    EXPECT_TRUE(message->text().isEmpty());
    window.stopRuns();
    window.close();
}

// A bandwidth of 0 typed in the topology editor is marked there and kept in the project; Run
// is refused before anything starts, in the editor's words, and no Failed run is stored.
TEST(MainWindow, AnInvalidPlatformIsRefusedBeforeTheRun) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    auto* editor =
        window.tabs()->widget(MainWindow::TopologyTab)->findChild<widgets::TopologyEditor*>();
    ASSERT_NE(editor, nullptr);
    DimensionSpec zero = editor->platform().dimensions.at(0);
    zero.bandwidthBytesPerSecond = 0;
    editor->document()->editDimension(0, zero, widgets::DimensionField::Bandwidth);
    ASSERT_EQ(window.document()->spec().platform.dimensions.at(0).bandwidthBytesPerSecond, 0);
    window.tabs()->setCurrentIndex(MainWindow::ConfigurationTab);

    EXPECT_EQ(window.startRun(), 0);
    const auto boxes = window.findChildren<QMessageBox*>(QStringLiteral("errorBox"));
    ASSERT_EQ(boxes.size(), 1);
    EXPECT_TRUE(boxes[0]->text().contains(QStringLiteral("The platform is not valid yet")))
        << boxes[0]->text().toStdString();
    EXPECT_TRUE(boxes[0]->text().contains(QStringLiteral("bandwidth")))
        << boxes[0]->text().toStdString();
    EXPECT_EQ(window.tabs()->currentIndex(), MainWindow::TopologyTab);
    EXPECT_EQ(window.runsModel()->rowCount(), 0) << "no Failed run was stored";
    closeErrorBoxes(window);
    window.close();
}

TEST(MainWindow, ImportErrorsAreReportedWithTheirLocation) {
    QTemporaryDir dir;
    auto files = std::make_shared<test::MemoryFiles>();
    MainWindow window(test::testServices(dir, {}, files));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_FALSE(window.importAstra(
        {QStringLiteral("network.yml"), QStringLiteral("system.json"), {}, {}, {}}));
    EXPECT_FALSE(window.hasProject());
    EXPECT_TRUE(logContains(window.logModel(), QStringLiteral("network.yml:3:1")));
    closeErrorBoxes(window);
}

TEST(MainWindow, ImportDialogNeedsNetworkAndSystem) {
    ImportAstraDialog dialog;
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    EXPECT_FALSE(ok->isEnabled());
    AstraImportRequest request{QStringLiteral("/in/network.yml"),
                               QStringLiteral("/in/system.json"),
                               QStringLiteral("/in/memory.json"),
                               QStringLiteral("/in/allreduce"),
                               {}};
    dialog.setRequest(request);
    EXPECT_TRUE(ok->isEnabled());
    EXPECT_EQ(dialog.request().workloadPrefix, QStringLiteral("/in/allreduce"));
    EXPECT_EQ(dialog.request().remoteMemoryJson, QStringLiteral("/in/memory.json"));
    dialog.setRequest({QStringLiteral("/in/network.yml"), {}, {}, {}, {}});
    EXPECT_FALSE(ok->isEnabled()) << "the system file is required";
    dialog.setRequest(request);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    test::saveScreenshot(dialog, QStringLiteral("12-import-dialog.png"));
}
