// The SQLite run store behind the runs list, and the database-backed timeline source, checked
// against the database itself and against the in-memory source over the same result.
#include "gui/SqliteRunStore.h"

#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "generate/WorkloadGenerator.h"
#include "gui/RunsTableModel.h"
#include "project/ProjectFile.h"
#include "simulation/Simulation.h"
#include "store/ProjectDatabase.h"
#include "support/MachineTime.h"
#include "timeline/DatabaseTimelineSource.h"
#include "timeline/RunResultTimelineSource.h"
#include "widgets/timeline/SyntheticRun.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <chrono>
#include <gtest/gtest.h>
#include <iostream>
#include <thread>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

SimulationSpec quickstartSpec(int ringSize = 8) {
    SimulationSpec spec =
        loadProject(std::string(ASTROLABE_SOURCE_DIR) + "/projects/quickstart/project.yaml");
    spec.platform.dimensions.at(0).size = ringSize;
    spec.name = "ring " + std::to_string(ringSize);
    return spec;
}

gui::RunRecord finishedRecord(const SimulationSpec& spec) {
    gui::RunRecord r;
    r.name = QString::fromStdString(spec.name);
    r.spec = spec;
    r.result = runSimulation(spec);
    r.status = gui::RunStatus::Finished;
    r.simulatedTime = r.result->endTime;
    r.events = r.result->events;
    r.wallSeconds = 0.25;
    return r;
}

std::vector<ActivityInterval> overlapping(const widgets::ActivityWindow& w, int64_t t0) {
    std::vector<ActivityInterval> out;
    for (const ActivityInterval& a : w.items)
        if (a.end.ps() > t0)
            out.push_back(a);
    return out;
}

bool sameInterval(const ActivityInterval& a, const ActivityInterval& b) {
    return a.npu == b.npu && a.start == b.start && a.end == b.end && a.nodeId == b.nodeId &&
           a.kind == b.kind && a.nameIndex == b.nameIndex;
}

} // namespace

TEST(SqliteRunStore, SavesEditsDeletesAndReopens) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("astrolabe.db"));
    int finishedId = 0, failedId = 0;
    {
        SqliteRunStore store(path);
        EXPECT_EQ(store.count(), 0);
        RunsTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setStore(&store);
        finishedId = model.addRun(finishedRecord(quickstartSpec()));
        gui::RunRecord failed;
        failed.name = QStringLiteral("broken");
        failed.status = gui::RunStatus::Cancelled;
        failed.message = QStringLiteral("the run was cancelled");
        failed.spec = quickstartSpec();
        failedId = model.addRun(failed);
        EXPECT_NE(finishedId, failedId);
        EXPECT_TRUE(model.renameRun(finishedId, QStringLiteral("renamed")));
        EXPECT_TRUE(model.setTags(finishedId, {QStringLiteral("a"), QStringLiteral("b")}));
        EXPECT_TRUE(model.setNotes(failedId, QStringLiteral("why")));
        store.flush(); // edits are written by the store's writer thread

        const ProjectDatabase db(path.toStdString());
        const astrolabe::RunRecord row = db.run(finishedId);
        EXPECT_EQ(row.name, "renamed");
        EXPECT_EQ(row.status, astrolabe::RunStatus::Ok);
        EXPECT_EQ(row.simulatedTime, SimTime::fromNs(117'780));
        EXPECT_EQ(row.tags, (std::vector<std::string>{"a", "b"}));
        const astrolabe::RunRecord cancelled = db.run(failedId);
        EXPECT_EQ(cancelled.status, astrolabe::RunStatus::Cancelled);
        EXPECT_EQ(cancelled.errorMessage, "the run was cancelled");
        EXPECT_EQ(cancelled.notes, "why");
        model.setStore(nullptr);
    }
    SqliteRunStore reopened(path);
    ASSERT_EQ(reopened.count(), 2);
    EXPECT_EQ(reopened.at(0).id, finishedId); // oldest first
    EXPECT_EQ(reopened.at(0).name, QStringLiteral("renamed"));
    EXPECT_EQ(reopened.at(0).status, gui::RunStatus::Finished);
    EXPECT_EQ(reopened.at(0).simulatedTime, SimTime::fromNs(117'780));
    EXPECT_FALSE(reopened.at(0).result);
    EXPECT_GT(reopened.at(0).activityCount, 0u);
    EXPECT_EQ(reopened.at(0).spec.platform.npuCount(), 8);
    EXPECT_EQ(keySettings(reopened.at(0).spec), keySettings(quickstartSpec()));
    EXPECT_EQ(reopened.at(1).status, gui::RunStatus::Cancelled);
    EXPECT_EQ(reopened.at(1).message, QStringLiteral("the run was cancelled"));
    EXPECT_TRUE(reopened.remove(failedId));
    reopened.flush();
    EXPECT_EQ(ProjectDatabase(path.toStdString()).listRuns().size(), 1u);
}

TEST(SqliteRunStore, BackgroundSaverStoresOnItsOwnConnection) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("astrolabe.db"));
    SqliteRunStore store(path);
    const RunStore::BackgroundSaver saver = store.backgroundSaver();
    ASSERT_TRUE(saver);
    gui::RunRecord record = finishedRecord(quickstartSpec());
    std::thread worker([&] { saver(record); });
    worker.join();
    EXPECT_GT(record.id, 0);
    EXPECT_EQ(record.databasePath, path);
    const int id = store.add(record); // already saved: only listed
    EXPECT_EQ(id, record.id);
    EXPECT_EQ(ProjectDatabase(path.toStdString()).listRuns().size(), 1u);
}

TEST(DatabaseTimelineSource, ServesTheSameWindowsAsTheInMemorySource) {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("astrolabe.db")).toStdString();
    // A generated training iteration (TP 2 x DP 40) on 80 NPUs: thousands of intervals, three
    // row blocks.
    SimulationSpec spec = quickstartSpec(80);
    generate::GeneratorSpec g;
    g.model.name = "small";
    g.model.layers = 2;
    g.model.hidden = 64;
    g.model.heads = 4;
    g.model.ffn = 256;
    g.model.vocabulary = 128;
    g.model.sequence = 16;
    g.training = {1, 80, 2}; // micro-batch 1 x DP 40 x 2 micro-batches
    g.parallel.tp = 2;
    g.parallel.pp = 1;
    g.parallel.dp = 40;
    generate::GeneratedWorkload workload = generate::generateWorkload(g);
    spec.commGroups = workload.groups;
    const std::shared_ptr<const RunResult> result = runSimulation(spec, std::move(workload.traces));
    ASSERT_GT(result->activities.size(), 80u * 10);
    int64_t id = 0;
    std::shared_ptr<const RunResult> meta;
    {
        ProjectDatabase db(path);
        id = db.saveRun(*result, RunProvenance{});
        meta = db.loadResult(id, false, true);
    }
    ASSERT_TRUE(meta->activities.empty());
    const widgets::RunResultTimelineSource memory(result);
    const widgets::DatabaseTimelineSource stored(path, id, meta);
    ASSERT_EQ(stored.rowCount(), memory.rowCount());
    EXPECT_EQ(stored.endPs(), memory.endPs());
    EXPECT_EQ(stored.cachedIntervals(), 0u); // nothing read before the first window
    // The legend's kinds, known from the stored summaries and spans without reading a window.
    EXPECT_EQ(stored.presentColorKeys(), memory.presentColorKeys());
    EXPECT_FALSE(stored.presentColorKeys().empty());
    EXPECT_EQ(stored.queryCount(), 0);

    const int64_t end = memory.endPs();
    const std::vector<std::pair<int64_t, int64_t>> windows = {
        {0, end}, {end / 3, end / 3 + end / 50}, {end - end / 7, end}, {end / 2, end / 2 + 1}};
    size_t compared = 0;
    for (const auto& [t0, t1] : windows)
        for (int row = 0; row < memory.rowCount(); ++row) {
            const widgets::ActivityWindow m = memory.activities(row, t0, t1);
            const std::vector<ActivityInterval> expected = overlapping(m, t0);
            const widgets::ActivityWindow d = stored.activities(row, t0, t1);
            ASSERT_EQ(d.items.size(), d.colorKeys.size());
            const std::vector<ActivityInterval> got = overlapping(d, t0);
            ASSERT_EQ(got.size(), expected.size()) << "row " << row << " window " << t0;
            for (size_t i = 0; i < got.size(); ++i) {
                ASSERT_TRUE(sameInterval(got[i], expected[i])) << "row " << row << " item " << i;
                compared++;
            }
            // Same colours: the keys depend on the collective of each communication node.
            for (size_t i = 0, j = 0; i < d.items.size() && j < m.items.size();)
                if (sameInterval(d.items[i], m.items[j]))
                    ASSERT_EQ(d.colorKeys[i++], m.colorKeys[j++]);
                else if (d.items[i].start < m.items[j].start)
                    ++i;
                else
                    ++j;
        }
    EXPECT_GT(compared, result->activities.size()); // the full window saw every interval
    // A narrow window keeps only its neighbourhood in memory.
    const widgets::DatabaseTimelineSource narrow(path, id, meta);
    for (int row = 0; row < narrow.rowCount(); ++row)
        narrow.activities(row, end / 2, end / 2 + end / 100);
    EXPECT_LT(narrow.cachedIntervals(), result->activities.size() / 4);
    EXPECT_EQ(narrow.queryCount(), 3); // one read per 32-row block

    // Search finds the same activities in the same order.
    std::vector<bool> matches(result->names.size(), false);
    for (size_t i = 0; i < matches.size(); i += 2)
        matches[i] = true;
    widgets::ActivityRef fromMemory{5, end / 2, 0}, fromDb = fromMemory;
    for (int step = 0; step < 20; ++step) {
        const std::optional<widgets::ActivityRef> a = memory.findNext(matches, fromMemory);
        const std::optional<widgets::ActivityRef> b = stored.findNext(matches, fromDb);
        ASSERT_EQ(a.has_value(), b.has_value());
        if (!a)
            break;
        EXPECT_EQ(*a, *b);
        fromMemory = *a;
        fromDb = *b;
    }
    EXPECT_EQ(stored.lastError(), "");
}

TEST(SqliteRunStore, EditsDoNotWaitForASaveInProgress) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("astrolabe.db"));
    SqliteRunStore store(path);
    const int first = store.add(finishedRecord(quickstartSpec()));
    // A save of a million intervals holds the write lock for about a second.
    synthetic::SyntheticOptions options;
    options.itemsPerNpu = 1000; // 1024 NPUs
    gui::RunRecord big = finishedRecord(quickstartSpec());
    big.result = synthetic::syntheticRun(options);
    const RunStore::BackgroundSaver saver = store.backgroundSaver();
    QElapsedTimer saveClock;
    saveClock.start();
    std::thread worker([&] { saver(big); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gui::RunRecord renamed = store.at(0);
    renamed.name = QStringLiteral("renamed while saving");
    const astrolabe::timing::OwnClock clock; // less the machine's pauses (support/MachineTime.h)
    EXPECT_TRUE(store.update(renamed));
    const astrolabe::timing::Reading update = clock.read();
    const double updateMs = update.ownMs;
    worker.join();
    const qint64 saveMs = saveClock.elapsed();
    store.flush();
    std::cout << "[ writer   ] rename took " << updateMs << " ms during a " << saveMs
              << " ms save of " << big.result->activities.size() << " intervals\n";
    // The save holds the write lock for seconds; the edit waits for none of it (typically
    // 1-5 ms; the bound leaves room for the machine's scheduling).
    EXPECT_TRUE(astrolabe::timing::within(update, 100.0, "rename during a save"));
    EXPECT_GT(static_cast<double>(saveMs), updateMs);
    const ProjectDatabase db(path.toStdString());
    EXPECT_EQ(db.run(first).name, "renamed while saving");
    EXPECT_EQ(db.run(big.id).activityCount, big.result->activities.size());
}

TEST(SqliteRunStore, FailedWritesAreReported) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("astrolabe.db"));
    SqliteRunStore store(path);
    const int id = store.add(finishedRecord(quickstartSpec()));
    ProjectDatabase(path.toStdString()).deleteRun(id); // another process deleted it meanwhile
    gui::RunRecord renamed = store.at(0);
    renamed.name = QStringLiteral("gone");
    EXPECT_TRUE(store.update(renamed)); // queued: the list shows the new name at once
    store.flush();
    const QStringList errors = store.takeWriteErrors();
    ASSERT_EQ(errors.size(), 1);
    EXPECT_TRUE(errors[0].contains(QString::number(id))) << errors[0].toStdString();
    EXPECT_TRUE(store.takeWriteErrors().isEmpty());
}

// Runs of an unsaved project move into the database when the project is first saved (issue #53,
// Researcher 3): they keep the time they were made, their tags and their notes, not the save's.
TEST(SqliteRunStore, RunsMovedInKeepTheirDatesTagsAndNotes) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("astrolabe.db"));
    const QDateTime made = QDateTime(QDate(2026, 11, 29), QTime(6, 0, 41), Qt::UTC);
    {
        SqliteRunStore store(path);
        gui::RunRecord finished = finishedRecord(quickstartSpec());
        finished.started = made.toLocalTime();
        finished.tags = QStringList{QStringLiteral("baseline")};
        finished.notes = QStringLiteral("before the switch");
        store.add(std::move(finished));
        gui::RunRecord failed;
        failed.name = QStringLiteral("broken");
        failed.status = gui::RunStatus::Failed;
        failed.message = QStringLiteral("deadlock");
        failed.spec = quickstartSpec();
        failed.started = made.addSecs(14).toLocalTime();
        store.add(std::move(failed));
    }
    SqliteRunStore reopened(path);
    ASSERT_EQ(reopened.count(), 2);
    EXPECT_EQ(reopened.at(0).started.toUTC(), made);
    EXPECT_EQ(reopened.at(1).started.toUTC(), made.addSecs(14));
    EXPECT_EQ(reopened.at(0).tags, QStringList{QStringLiteral("baseline")});
    EXPECT_EQ(reopened.at(0).notes, QStringLiteral("before the switch"));
}
