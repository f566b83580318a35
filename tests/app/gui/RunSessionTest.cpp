// The run session and the run store controller without a window: runs are named, queued,
// followed and stored exactly once; stopping and replacing the project drop what must not be
// stored; a saved project's runs go to its SQLite database and load back by id.
#include "gui/RunSession.h"

#include "GuiTestSupport.h"
#include "common/LogModel.h"
#include "gui/Presets.h"
#include "gui/ProjectDocument.h"
#include "gui/RunStoreController.h"
#include "gui/RunsTableModel.h"

#include <QSignalSpy>
#include <gtest/gtest.h>
#include <set>

using namespace astrolabe;
using namespace astrolabe::gui;
using namespace std::chrono_literals;

namespace {
struct Session {
    explicit Session(
        RunController::RunFunction run,
        RunStoreController::OpenStore open =
            [](const QString& path) { return openProjectRunStore(path, nullptr); })
        : runner(std::move(run))
        , store(std::move(open), &log)
        , session(&runner, &document, &store, &log) {
        document.reset(preset(QStringLiteral("quickstart")).spec);
    }
    widgets::LogModel log;
    ProjectDocument document{defaultProjectIo()};
    RunController runner;
    RunStoreController store;
    RunSession session;
};
} // namespace

TEST(RunSession, QueuesRunsAndStoresEachOnceInOrder) {
    Session s(test::busyRun(30ms));
    QSignalSpy stored(&s.store, &RunStoreController::runStored);
    QSignalSpy progressShown(&s.session, &RunSession::progressVisibleChanged);
    QSignalSpy queueText(&s.session, &RunSession::queueTextChanged);
    std::set<int> ids;
    for (int i = 0; i < 3; ++i)
        ids.insert(
            s.session.start(s.document.spec(), i == 2 ? QStringLiteral("variant") : QString()));
    EXPECT_EQ(ids.size(), 3u);
    EXPECT_EQ(s.session.pendingCount(), 3);
    EXPECT_TRUE(s.session.isActive());
    ASSERT_TRUE(test::waitUntil([&] { return !s.session.isActive(); }, 20000));
    QTest::qWait(50); // nothing more may come
    ASSERT_EQ(stored.count(), 3) << "each run stored once";
    EXPECT_EQ(s.session.pendingCount(), 0);
    ASSERT_EQ(s.store.store()->count(), 3);
    const QString project = s.document.displayName();
    for (int row = 0; row < 3; ++row) {
        const RunRecord& run = s.store.store()->at(row);
        EXPECT_EQ(run.number, row + 1);
        EXPECT_EQ(run.status, RunStatus::Finished);
        EXPECT_TRUE(run.result);
        EXPECT_EQ(run.spec.name, run.name.toStdString());
        EXPECT_EQ(stored.at(row).at(0).toInt(), run.id);
    }
    EXPECT_EQ(s.store.store()->at(0).name, QStringLiteral("%1 #1").arg(project));
    EXPECT_EQ(s.store.store()->at(2).name, QStringLiteral("%1 #3 (variant)").arg(project));
    EXPECT_TRUE(s.document.lastRunSpec()) << "the last run's settings are remembered";
    ASSERT_GE(progressShown.count(), 2);
    EXPECT_FALSE(progressShown.last().at(0).toBool()) << "hidden once idle";
    bool sawWaiting = false;
    for (const QList<QVariant>& args : queueText)
        sawWaiting |= args.at(0).toString().contains(QStringLiteral("2 runs waiting"));
    EXPECT_TRUE(sawWaiting);
}

TEST(RunSession, StopStoresTheRunningRunAsCancelledAndDropsTheQueue) {
    Session s(test::busyRun(10s));
    QSignalSpy stored(&s.store, &RunStoreController::runStored);
    for (int i = 0; i < 3; ++i)
        s.session.start(s.document.spec());
    ASSERT_TRUE(test::waitUntil([&] { return s.runner.isBusy(); }));
    s.session.stop();
    ASSERT_TRUE(test::waitUntil([&] { return !s.session.isActive(); }, 5000));
    QTest::qWait(50);
    ASSERT_EQ(stored.count(), 1) << "queued runs are dropped, not stored";
    EXPECT_EQ(s.store.store()->at(0).status, RunStatus::Cancelled);
    EXPECT_EQ(s.session.pendingCount(), 0);
}

TEST(RunSession, AFailedRunIsStoredOnceAndReportedWithItsSetting) {
    Session s(test::failingRun("network.latency"));
    QSignalSpy stored(&s.store, &RunStoreController::runStored);
    QSignalSpy errors(&s.session, &RunSession::errorOccurred);
    s.session.start(s.document.spec());
    ASSERT_TRUE(test::waitUntil([&] { return stored.count() == 1; }));
    ASSERT_EQ(errors.count(), 1);
    EXPECT_EQ(errors.at(0).at(2).toString(), QStringLiteral("network.latency"));
    EXPECT_EQ(s.store.store()->at(0).status, RunStatus::Failed);
    EXPECT_EQ(s.store.store()->at(0).keyPath, QStringLiteral("network.latency"));
}

TEST(RunSession, ResetDropsTheOutcomeOfThePreviousProjectsRuns) {
    Session s(test::busyRun(10s));
    QSignalSpy stored(&s.store, &RunStoreController::runStored);
    s.session.start(s.document.spec());
    ASSERT_TRUE(test::waitUntil([&] { return s.runner.isBusy(); }));
    s.store.attach({});
    s.session.reset();
    ASSERT_TRUE(test::waitUntil([&] { return !s.session.isActive(); }, 5000));
    QTest::qWait(50);
    EXPECT_EQ(stored.count(), 0);
    EXPECT_EQ(s.store.store()->count(), 0);
}

TEST(RunStoreController, SavedProjectRunsGoToItsDatabaseAndLoadBack) {
    QTemporaryDir dir;
    const QString projectPath = dir.filePath(QStringLiteral("p.yaml"));
    {
        Session s(test::busyRun(20ms));
        s.session.start(s.document.spec()); // an unsaved project: kept in memory
        QSignalSpy stored(&s.store, &RunStoreController::runStored);
        ASSERT_TRUE(test::waitUntil([&] { return stored.count() == 1; }));
        EXPECT_TRUE(s.store.store()->at(0).databasePath.isEmpty());

        QSignalSpy changed(&s.store, &RunStoreController::runsChanged);
        s.store.moveToProject(projectPath); // "save as": the runs follow into the database
        EXPECT_GE(changed.count(), 1);
        ASSERT_EQ(s.store.store()->count(), 1);
        EXPECT_FALSE(s.store.store()->at(0).databasePath.isEmpty());

        s.session.start(s.document.spec()); // saved on the worker thread
        ASSERT_TRUE(test::waitUntil([&] { return stored.count() == 2; }, 10000));
        EXPECT_EQ(s.store.store()->count(), 2);
        EXPECT_EQ(s.store.store()->at(1).number, 2);
    }
    Session reopened(test::busyRun(20ms));
    reopened.store.attach(projectPath);
    ASSERT_EQ(reopened.store.store()->count(), 2);
    const RunRecord& first = reopened.store.store()->at(0);
    EXPECT_FALSE(first.result) << "stored results load on demand";
    QSignalSpy loaded(&reopened.store, &RunStoreController::resultLoaded);
    const int id = first.id;
    EXPECT_EQ(reopened.store.runToShow(id), &first);
    ASSERT_TRUE(loaded.wait(10000));
    EXPECT_EQ(loaded.at(0).at(0).toInt(), id);
    ASSERT_TRUE(reopened.store.model()->run(id)->result);
    EXPECT_EQ(reopened.store.takeRunNumber(), 3) << "numbers continue after the stored runs";
}
