// Runs are numbered per project and the numbers live in the project database: the first run of
// every project is #1, a reopened project continues where it stopped, and databases written
// before numbers existed get them in insertion order. The run state shown in the status bar and
// tool bar never belongs to a stopped run or to another project.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/MainWindow.h"
#include "gui/RunsTableModel.h"
#include "store/ProjectDatabase.h"
#include "store/RunStorage.h"
#include "store/Schema.h"
#include "store/Sqlite.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;
using namespace std::chrono_literals;

namespace {

QString copyQuickstart(const QTemporaryDir& dir, const QString& folder) {
    return gui::test::copyBundledProject(dir, QStringLiteral("quickstart"), folder);
}

/// Runs the open project to the end and returns the stored run's name.
QString runOnce(MainWindow& window) {
    QSignalSpy stored(&window, &MainWindow::runStored);
    if (window.startRun() <= 0 || !stored.wait(30000))
        return {};
    const RunStore* store = window.runsModel()->store();
    return store->at(store->count() - 1).name;
}

bool idle(const MainWindow& window) {
    return !window.runController()->isBusy() && window.runController()->queuedCount() == 0;
}

} // namespace

TEST(RunNumbers, EachProjectCountsItsOwnRunsAndKeepsCountingWhenReopened) {
    QTemporaryDir dir;
    const QString a = copyQuickstart(dir, QStringLiteral("a"));
    const QString b = copyQuickstart(dir, QStringLiteral("b"));
    ASSERT_FALSE(a.isEmpty());
    ASSERT_FALSE(b.isEmpty());
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();

    ASSERT_TRUE(window.openProject(a));
    EXPECT_TRUE(runOnce(window).endsWith(QStringLiteral(" #1")));
    EXPECT_TRUE(runOnce(window).endsWith(QStringLiteral(" #2")));

    ASSERT_TRUE(window.openProject(b));
    const QString firstOfB = runOnce(window);
    EXPECT_TRUE(firstOfB.endsWith(QStringLiteral(" #1"))) << firstOfB.toStdString();
    EXPECT_EQ(window.runsModel()->store()->at(0).number, 1);

    ASSERT_TRUE(window.openProject(a));
    ASSERT_EQ(window.runsModel()->rowCount(), 2);
    EXPECT_EQ(window.runsModel()->store()->at(0).number, 1);
    EXPECT_EQ(window.runsModel()->store()->at(1).number, 2);
    const QString third = runOnce(window);
    EXPECT_TRUE(third.endsWith(QStringLiteral(" #3"))) << third.toStdString();
    window.runsModel()->store()->flush();

    const ProjectDatabase db(defaultDatabasePath(a.toStdString()));
    const std::vector<astrolabe::RunRecord> runs = db.listRuns(); // newest first
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].number, 3);
    EXPECT_EQ(runs[1].number, 2);
    EXPECT_EQ(runs[2].number, 1);
    window.close();
}

TEST(RunNumbers, ADatabaseWithoutNumbersIsMigratedAndNumberedInOrder) {
    QTemporaryDir dir;
    const QString project = copyQuickstart(dir, QStringLiteral("old"));
    ASSERT_FALSE(project.isEmpty());
    const std::string dbPath = defaultDatabasePath(project.toStdString());
    {
        // What Astrolabe wrote with schema version 2: two runs, no numbers.
        SqliteConnection old(dbPath);
        migrateSchema(old, 2);
        for (const char* name : {"first", "second"})
            old.exec(std::string("INSERT INTO runs(name, created, engine_version, status, "
                                 "config_json) VALUES ('") +
                     name + "', '2026-01-01T00:00:00Z', '0.1', 'ok', '{}')");
    }
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(window.openProject(project));
    ASSERT_EQ(window.runsModel()->rowCount(), 2);
    EXPECT_EQ(window.runsModel()->store()->at(0).name, QStringLiteral("first"));
    EXPECT_EQ(window.runsModel()->store()->at(0).number, 1);
    EXPECT_EQ(window.runsModel()->store()->at(1).number, 2);
    const QString next = runOnce(window);
    EXPECT_TRUE(next.endsWith(QStringLiteral(" #3"))) << next.toStdString();
    window.close();
    EXPECT_EQ(ProjectDatabase(dbPath).schemaVersion(), kSchemaVersion);
}

TEST(RunNumbers, StoppedRunLeavesNoRunningStateBehind) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir, test::busyRun(10000ms)));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    QSignalSpy progress(window.runController(), &RunController::progressed);
    ASSERT_GT(window.startRun(), 0);
    ASSERT_TRUE(progress.wait(3000));
    EXPECT_TRUE(window.statusBar()->currentMessage().startsWith(QStringLiteral("Running")));

    QSignalSpy failed(window.runController(), &RunController::runFailed);
    window.stopAction()->trigger();
    ASSERT_TRUE(failed.count() > 0 || failed.wait(2000));
    ASSERT_TRUE(test::waitUntil([&window] { return idle(window); }));
    QTest::qWait(20);
    const QString status = window.statusBar()->currentMessage();
    EXPECT_FALSE(status.contains(QStringLiteral("Running"))) << status.toStdString();
    EXPECT_FALSE(window.progressBar()->isVisible());
    EXPECT_FALSE(window.stopAction()->isEnabled());
    EXPECT_TRUE(window.runAction()->isEnabled());
    EXPECT_FALSE(window.progressLabel()->text().contains(QStringLiteral("simulated")));
    window.close();
}

TEST(RunNumbers, SwitchingProjectsForgetsThePreviousProjectsRunState) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir, test::busyRun(10000ms)));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    const QString projectA = window.windowTitle();
    QSignalSpy progress(window.runController(), &RunController::progressed);
    ASSERT_GT(window.startRun(), 0);
    window.startRun(); // one waiting as well
    ASSERT_TRUE(progress.wait(3000));
    const QString runningA = window.progressLabel()->text();
    ASSERT_FALSE(runningA.isEmpty());

    window.newProjectFromPreset(QStringLiteral("torus-2d"));
    ASSERT_NE(window.windowTitle(), projectA);
    QTest::qWait(20); // the tool bar lays out (and hides) its widgets on the next pass
    EXPECT_FALSE(window.statusBar()->currentMessage().contains(QStringLiteral("Running")));
    EXPECT_TRUE(window.progressLabel()->text().isEmpty())
        << window.progressLabel()->text().toStdString();
    EXPECT_FALSE(window.progressBar()->isVisible());
    ASSERT_TRUE(test::waitUntil([&window] { return idle(window); }));
    QTest::qWait(50); // late reports of A's run must not come back
    EXPECT_TRUE(window.progressLabel()->text().isEmpty())
        << window.progressLabel()->text().toStdString();
    EXPECT_FALSE(window.statusBar()->currentMessage().contains(QStringLiteral("Running")));
    EXPECT_FALSE(window.stopAction()->isEnabled());
    EXPECT_TRUE(window.runAction()->isEnabled());
    EXPECT_EQ(window.runsModel()->rowCount(), 0) << "A's runs are not B's";

    // B's first run is #1, whatever A did.
    ASSERT_GT(window.startRun(), 0);
    EXPECT_TRUE(window.progressLabel()->text().contains(QStringLiteral("#1:")))
        << window.progressLabel()->text().toStdString();
    window.stopRuns();
    ASSERT_TRUE(test::waitUntil([&window] { return idle(window); }));
    window.close();
}
