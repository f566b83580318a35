// "Watch a collective" in the main window (issue #21): Record and watch on the quick start
// (ASTRA-sim's rt_template, 8-NPU ring, 1 MiB all-reduce in 4 chunks) runs it again with the
// message recorder on; the recorded run finishes at the same 117,780 ns and its 4 chunks x 8 NPUs
// x 2(8-1) ring steps show in the Watch tab, whose replay and the Timeline tab's cursor move
// each other. A screenshot of the tab goes to screenshots/.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/MainWindow.h"
#include "gui/RunsTableModel.h"
#include "gui/TimelinePage.h"
#include "gui/WatchPage.h"
#include "project/ProjectFile.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "topology/CollectiveAnimationView.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

TEST(Watch, RecordAndWatchTheQuickstartAllReduce) {
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath(QStringLiteral("quickstart")));
    const QString project = dir.filePath(QStringLiteral("quickstart/project.yaml"));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(ASTROLABE_SOURCE_DIR) +
                                QStringLiteral("/projects/quickstart/project.yaml"),
                            project));
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(project));

    window.tabs()->setCurrentIndex(MainWindow::WatchTab);
    auto* watch = qobject_cast<WatchPage*>(window.tabs()->currentWidget());
    ASSERT_NE(watch, nullptr);
    EXPECT_TRUE(watch->animation()->animation().empty());
    ASSERT_TRUE(watch->recordButton()->isEnabled());
    QSignalSpy stored(&window, &MainWindow::runStored);
    watch->recordButton()->click();
    ASSERT_TRUE(stored.count() > 0 || stored.wait(30000));
    ASSERT_TRUE(test::waitUntil([watch] { return !watch->animation()->animation().empty(); }));

    const RunRecord& run = window.runsModel()->store()->at(0);
    ASSERT_TRUE(run.result);
    EXPECT_EQ(run.simulatedTime, SimTime::fromNs(117'780)) << "recording changes no timing";
    EXPECT_EQ(run.result->transfers.size(), 4u * 8u * 2u * 7u);
    EXPECT_EQ(watch->animation()->animation().transferCount(), run.result->transfers.size());

    // The replay moves the Timeline tab's cursor, and that cursor moves the replay.
    auto* timelinePage =
        qobject_cast<TimelinePage*>(window.tabs()->widget(MainWindow::TimelineTab));
    ASSERT_NE(timelinePage, nullptr);
    widgets::TimelineWidget* timeline = timelinePage->view()->timeline();
    watch->animation()->stepForward();
    watch->animation()->stepForward();
    EXPECT_EQ(timeline->cursorTime(), watch->animation()->time().ps());
    EXPECT_EQ(watch->timeline()->cursorTime(), watch->animation()->time().ps());
    // Halfway through a message in the middle of the run (between messages nothing moves).
    const ChunkTransfer& t = run.result->transfers[run.result->transfers.size() / 2];
    const qint64 middle = (t.start.ps() + t.end.ps()) / 2;
    emit timeline->cursorMoved(middle);
    EXPECT_EQ(watch->animation()->time().ps(), middle);
    EXPECT_FALSE(watch->animation()->frame().chunks.empty());
    QApplication::processEvents();
    test::saveScreenshot(window, QStringLiteral("watch-quickstart.png"));

    // Another project (another lesson): nothing of this run stays on the Watch tab, neither the
    // drawing nor its timeline, until that project records its own (issue #53, Teacher 6).
    QDir().mkpath(dir.filePath(QStringLiteral("torus")));
    const QString other = dir.filePath(QStringLiteral("torus/project.yaml"));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(ASTROLABE_SOURCE_DIR) +
                                QStringLiteral("/projects/torus-2d/project.yaml"),
                            other));
    ASSERT_TRUE(window.openProject(other));
    EXPECT_TRUE(watch->animation()->animation().empty());
    EXPECT_EQ(watch->timeline()->source(), nullptr) << "the previous project's run";
    test::saveScreenshot(window, QStringLiteral("watch-after-other-project.png"));
}

// Record and watch runs what the tab shows: the shown run's setup (a lesson's step runs a
// generated workload the project does not hold), and the project's when no run is shown.
TEST(Watch, RecordAndWatchRunsTheShownRunsSetup) {
    const SimulationSpec project =
        loadProject(ASTROLABE_SOURCE_DIR + std::string("/projects/quickstart/project.yaml"));
    WatchPage page;
    page.setSpec(project);
    RunRecord shown;
    shown.name = QStringLiteral("Lesson step 1");
    shown.spec = project;
    shown.spec.workload.microbenchmark.sizeBytes = 64ull << 20;
    page.showRun(&shown);
    QSignalSpy requested(&page, &WorkspacePage::runRequested);
    page.recordButton()->click();
    ASSERT_EQ(requested.count(), 1);
    auto spec = requested.at(0).at(0).value<SimulationSpec>();
    EXPECT_EQ(spec.workload.microbenchmark.sizeBytes, 64ull << 20) << "the shown run's setup";
    EXPECT_TRUE(spec.options.recordTransfers);

    page.showRun(nullptr);
    page.recordButton()->click();
    ASSERT_EQ(requested.count(), 2);
    spec = requested.at(1).at(0).value<SimulationSpec>();
    EXPECT_EQ(spec.workload.microbenchmark.sizeBytes, 1ull << 20) << "no run shown: the project";
}
