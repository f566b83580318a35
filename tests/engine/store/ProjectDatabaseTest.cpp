#include "store/ProjectDatabase.h"

#include "core/Error.h"
#include "store/RunStorage.h"
#include "store/Schema.h"
#include "store/Sha256.h"
#include "store/Sqlite.h"
#include "support/SyntheticRun.h"
#include "support/TempDir.h"

#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

using namespace astrolabe;
using astrolabe::test::makeSyntheticRun;
using astrolabe::test::SyntheticRunShape;
using astrolabe::test::TempDir;

namespace {

RunProvenance provenance() {
    RunProvenance p;
    p.configJson = "{\"name\":\"x\"}";
    p.inputHashes = {{"configuration", sha256Hex(p.configJson)}};
    p.tags = {"baseline"};
    return p;
}

/// The intervals of `all` that overlap [t0, t1) on the wanted NPUs: the brute-force answer.
std::vector<ActivityInterval> expectedWindow(const std::vector<ActivityInterval>& all, SimTime t0,
                                             SimTime t1, const std::vector<int>& npus) {
    std::vector<ActivityInterval> out;
    for (const ActivityInterval& a : all) {
        const bool npuOk = npus.empty() || std::find(npus.begin(), npus.end(), a.npu) != npus.end();
        const bool overlaps = a.start < t1 && (a.end > t0 || (a.end == a.start && a.start >= t0));
        if (npuOk && overlaps)
            out.push_back(a);
    }
    return out;
}

void expectSameIntervals(const std::vector<ActivityInterval>& a,
                         const std::vector<ActivityInterval>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].npu, b[i].npu) << i;
        EXPECT_EQ(a[i].start, b[i].start) << i;
        EXPECT_EQ(a[i].end, b[i].end) << i;
        EXPECT_EQ(a[i].nodeId, b[i].nodeId) << i;
    }
}

} // namespace

TEST(ProjectDatabase, SavedRunReloadsWithEveryTable) {
    TempDir dir("db_roundtrip");
    ProjectDatabase db(dir.path("p.db"));
    EXPECT_EQ(db.schemaVersion(), kSchemaVersion);
    const RunResult r = makeSyntheticRun();
    const int64_t id = db.saveRun(r, provenance());
    const RunRecord rec = db.run(id);
    EXPECT_EQ(rec.name, "synthetic");
    EXPECT_EQ(rec.status, RunStatus::Ok);
    EXPECT_EQ(rec.simulatedTime, r.endTime);
    EXPECT_EQ(rec.activityCount, r.activities.size());
    EXPECT_EQ(rec.tags, std::vector<std::string>{"baseline"});
    EXPECT_EQ(rec.configJson, "{\"name\":\"x\"}");
    ASSERT_EQ(rec.inputHashes.size(), 1u);
    EXPECT_EQ(rec.created.size(), 20u); // 2026-11-21T09:36:29Z
    EXPECT_EQ(rec.created[10], 'T');

    const auto back = db.loadResult(id);
    EXPECT_EQ(back->npuCount, r.npuCount);
    ASSERT_EQ(back->npus.size(), r.npus.size());
    EXPECT_EQ(back->npus[5].finish, r.npus[5].finish);
    EXPECT_EQ(back->npus[5].overlap, r.npus[5].overlap);
    EXPECT_EQ(back->npus[5].peakMemoryBytes, r.npus[5].peakMemoryBytes);
    expectSameIntervals(back->activities, r.activities);
    EXPECT_EQ(back->names, r.names);
    ASSERT_EQ(back->collectives.size(), r.collectives.size());
    EXPECT_EQ(back->collectives[7].end, r.collectives[7].end);
    EXPECT_EQ(back->collectives[7].sizeBytes, r.collectives[7].sizeBytes);
    ASSERT_EQ(back->phases.size(), r.phases.size());
    EXPECT_EQ(back->phases[3].dimension, r.phases[3].dimension);
    ASSERT_EQ(back->links.size(), r.links.size());
    EXPECT_EQ(back->links[9].dst, r.links[9].dst);
    EXPECT_EQ(back->linkStats[9].busy, r.linkStats[9].busy);
    EXPECT_EQ(back->linkSeries, r.linkSeries);
    EXPECT_EQ(back->seriesBucket, r.seriesBucket);
    ASSERT_EQ(back->dimensions.size(), r.dimensions.size());
    EXPECT_EQ(back->dimensions[1].bytes, r.dimensions[1].bytes);
    EXPECT_EQ(back->trafficBytes, r.trafficBytes);
    EXPECT_EQ(back->criticalPath, r.criticalPath);
    EXPECT_EQ(back->reportLines, r.reportLines);

    // Per-collective statistics: 8 NPUs ran each all-reduce; NPU i is staggered by i ns.
    const auto stats = db.loadCollectiveStats(id);
    ASSERT_EQ(stats.size(), 4u); // 4 steps, one collective node each
    EXPECT_EQ(stats[0].npus, 8);
    EXPECT_EQ(stats[0].firstStart, SimTime::fromNs(1000));
    EXPECT_EQ(stats[0].lastEnd, SimTime::fromNs(7 + 1000 + 600));
    EXPECT_DOUBLE_EQ(stats[0].meanDurationPs, 600e3);
    EXPECT_EQ(db.integrityCheck(), "ok");
}

// Local memory over time (track-local-mem) is kept with the run, so the timeline of a stored
// run draws its memory line; a run without it stores no such record.
TEST(ProjectDatabase, MemoryUsageOverTimeReloads) {
    TempDir dir("db_memory");
    ProjectDatabase db(dir.path("p.db"));
    RunResult r = makeSyntheticRun();
    const int64_t plain = db.saveRun(r, provenance());
    EXPECT_TRUE(db.loadResult(plain)->memoryUsage.empty());
    r.memoryUsage = {{{SimTime::zero(), 0}, {SimTime::fromNs(5), 4096}, {SimTime::fromNs(9), 16}},
                     {},
                     {{SimTime::fromPs(1), uint64_t{1} << 40}, {SimTime::fromNs(2), 0}}};
    const int64_t tracked = db.saveRun(r, provenance());
    const auto back = db.loadResult(tracked);
    ASSERT_EQ(back->memoryUsage.size(), 3u);
    for (size_t npu = 0; npu < 3; ++npu) {
        ASSERT_EQ(back->memoryUsage[npu].size(), r.memoryUsage[npu].size()) << npu;
        for (size_t i = 0; i < r.memoryUsage[npu].size(); ++i) {
            EXPECT_EQ(back->memoryUsage[npu][i].time, r.memoryUsage[npu][i].time);
            EXPECT_EQ(back->memoryUsage[npu][i].bytes, r.memoryUsage[npu][i].bytes);
        }
    }
    // Without its timeline too (what the GUI's stored-run timeline loads).
    EXPECT_EQ(db.loadResult(tracked, false, true)->memoryUsage.size(), 3u);
}

TEST(ProjectDatabase, WindowQueriesMatchBruteForce) {
    TempDir dir("db_window");
    ProjectDatabase db(dir.path("p.db"));
    SyntheticRunShape shape;
    shape.npus = 64;
    shape.steps = 40;
    RunResult r = makeSyntheticRun(shape);
    // One interval spanning almost the whole run: it lives in bucket 0 but must appear in
    // every window.
    r.activities.insert(r.activities.begin(),
                        {SimTime::zero(), r.endTime - SimTime::fromNs(1), 0,
                         ActivityKind::Communication, NodeType::CommColl, 777, 1, 0});
    const int64_t id = db.saveRun(r, provenance());
    std::mt19937_64 rng(42);
    for (int trial = 0; trial < 50; ++trial) {
        const int64_t a = static_cast<int64_t>(rng() % static_cast<uint64_t>(r.endTime.ps()));
        const int64_t len =
            static_cast<int64_t>(rng() % static_cast<uint64_t>(r.endTime.ps() / 10));
        const SimTime t0 = SimTime::fromPs(a), t1 = SimTime::fromPs(a + len + 1);
        std::vector<int> npus;
        if (trial % 2)
            npus = {0, static_cast<int>(rng() % 64), 63};
        const auto got = db.loadActivities(id, t0, t1, npus);
        auto want = expectedWindow(r.activities, t0, t1, npus);
        std::stable_sort(want.begin(), want.end(), [](const auto& x, const auto& y) {
            return x.npu != y.npu ? x.npu < y.npu : x.start < y.start;
        });
        expectSameIntervals(got, want);
        bool hasLong = false;
        for (const auto& i : got)
            hasLong = hasLong || i.nodeId == 777;
        EXPECT_TRUE(hasLong) << "window " << t0.ps() << ".." << t1.ps();
    }
    EXPECT_TRUE(db.loadActivities(id, SimTime::fromNs(5), SimTime::fromNs(5)).empty());
}

TEST(ProjectDatabase, RenameTagNotesDelete) {
    TempDir dir("db_ops");
    ProjectDatabase db(dir.path("p.db"));
    const int64_t a = db.saveRun(makeSyntheticRun(), provenance());
    const int64_t b = db.saveRun(makeSyntheticRun(), provenance());
    db.renameRun(a, "first");
    db.setTags(a, {"x", "y", "x"});
    db.setNotes(a, "looks right");
    const RunRecord ra = db.run(a);
    EXPECT_EQ(ra.name, "first");
    EXPECT_EQ(ra.tags, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(ra.notes, "looks right");
    const auto list = db.listRuns();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].id, b); // newest first
    db.deleteRun(a);
    EXPECT_FALSE(db.findRun(a));
    EXPECT_EQ(db.listRuns().size(), 1u);
    EXPECT_THROW(db.loadActivities(a, SimTime::zero(), SimTime::max()), Error);
    SqliteConnection raw(dir.path("p.db"));
    for (const char* table : {"timeline_chunks", "npu_summaries", "links", "run_blobs", "run_tags"})
        EXPECT_EQ(raw.queryInt(std::string("SELECT count(*) FROM ") + table +
                               " WHERE run_id = " + std::to_string(a)),
                  0)
            << table; // deletion cascades
    EXPECT_THROW(db.renameRun(a, "z"), Error);
    EXPECT_EQ(db.loadResult(b)->activities.size(), makeSyntheticRun().activities.size());
    EXPECT_EQ(db.integrityCheck(), "ok");
}

// Six processes storing their first run in the same new database at the same moment: every
// run is kept. Before, most failed with "table runs already exists" or "database is locked"
// because each process created the schema after reading version 0 outside the write lock.
TEST(ProjectDatabase, ConcurrentFirstRunsOnANewDatabaseAreAllStored) {
    TempDir dir("db_concurrent");
    const RunResult run = makeSyntheticRun();
    for (int round = 0; round < 5; ++round) {
        const std::string path = dir.path("round" + std::to_string(round) + ".db");
        int go[2];
        ASSERT_EQ(::pipe(go), 0);
        std::vector<pid_t> children;
        for (int i = 0; i < 6; ++i) {
            const pid_t pid = ::fork();
            ASSERT_GE(pid, 0);
            if (pid == 0) { // the child: wait for the start, store one run, report by exit code
                ::close(go[1]);
                char byte;
                (void)!::read(go[0], &byte, 1);
                int code = 0;
                try {
                    ProjectDatabase db(path);
                    db.saveRun(run, provenance());
                } catch (const std::exception& e) {
                    std::fprintf(stderr, "child %d: %s\n", i, e.what());
                    code = 1;
                }
                std::fflush(stderr);
                ::_exit(code);
            }
            children.push_back(pid);
        }
        ::close(go[0]);
        ::close(go[1]); // all children start now
        for (pid_t pid : children) {
            int status = 0;
            ASSERT_EQ(::waitpid(pid, &status, 0), pid);
            EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "round " << round;
        }
        ProjectDatabase db(path);
        const std::vector<RunRecord> runs = db.listRuns();
        EXPECT_EQ(runs.size(), 6u) << "round " << round;
        std::set<int64_t> numbers; // each run its own number, 1 to 6
        for (const RunRecord& r : runs)
            numbers.insert(r.number);
        EXPECT_EQ(numbers, (std::set<int64_t>{1, 2, 3, 4, 5, 6})) << "round " << round;
        SqliteConnection check(path);
        SqliteStatement integrity(check, "PRAGMA integrity_check");
        ASSERT_TRUE(integrity.step());
        EXPECT_EQ(integrity.columnText(0), "ok");
    }
}

TEST(ProjectDatabase, FailedRunIsStoredWithItsMessage) {
    TempDir dir("db_failed");
    ProjectDatabase db(dir.path("p.db"));
    SimulationSpec spec;
    spec.name = "broken";
    const int64_t id =
        storeFailedRun(db, spec, RunStatus::Failed, "deadlock: NPU 3 waits on node 12", 1.5);
    const RunRecord r = db.run(id);
    EXPECT_EQ(r.status, RunStatus::Failed);
    EXPECT_EQ(r.errorMessage, "deadlock: NPU 3 waits on node 12");
    EXPECT_DOUBLE_EQ(r.wallSeconds, 1.5);
    EXPECT_EQ(r.activityCount, 0u);
    EXPECT_TRUE(db.loadResult(id)->activities.empty());
}

// A run whose NPU rows are gone (deleted by hand, a damaged file) is refused when read, naming
// the run and what is missing, not shown or exported as a run of 8 NPUs with no figures.
TEST(ProjectDatabase, ARunMissingItsNpuRowsIsRefusedWhenRead) {
    TempDir dir("db_missing_rows");
    const std::string path = dir.path("p.db");
    int64_t id = 0;
    {
        ProjectDatabase db(path);
        id = db.saveRun(test::makeSyntheticRun(), {});
        ASSERT_NO_THROW(db.loadResult(id));
    }
    {
        SqliteConnection raw(path);
        raw.exec("DELETE FROM npu_summaries WHERE run_id = " + std::to_string(id));
    }
    ProjectDatabase db(path);
    try {
        db.loadResult(id);
        ADD_FAILURE() << "a run without its NPU rows was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("run " + std::to_string(id) +
                                             " is incomplete in project database " + path +
                                             ": it ran on "),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("holds the figures of 0"), std::string::npos);
    }
    EXPECT_EQ(db.listRuns().size(), 1u) << "it is still listed, to be deleted";
}

// A file with a damaged page in its middle took new runs beside the damage (an outside audit).
// Before a connection's first new run the whole file is checked; a damaged one is refused,
// naming the file and SQLite's first finding, and not one byte of it changes.
TEST(ProjectDatabase, ADamagedFileTakesNoNewRun) {
    TempDir dir("db_damaged");
    const std::string path = dir.path("p.db");
    {
        ProjectDatabase db(path);
        for (int i = 0; i < 6; ++i)
            db.saveRun(test::makeSyntheticRun(), provenance());
        EXPECT_EQ(db.integrityCheck(), "ok");
    }
    int64_t pages = 0, pageSize = 0;
    {
        SqliteConnection raw(path);
        pages = raw.queryInt("PRAGMA page_count");
        pageSize = raw.queryInt("PRAGMA page_size");
    }
    ASSERT_GT(pages, 8);
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(pages / 2 * pageSize);
        const std::string garbage(static_cast<size_t>(pageSize), '\xde');
        file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    const auto bytes = [&path] {
        std::ifstream in(path, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), {});
    };
    const std::string before = bytes();
    ProjectDatabase db(path);
    for (bool failed : {false, true}) {
        try {
            if (failed)
                db.saveFailedRun("x", RunStatus::Failed, "message", 1, {});
            else
                db.saveRun(test::makeSyntheticRun(), provenance());
            ADD_FAILURE() << "a damaged database took a new run";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(path), std::string::npos) << what;
            EXPECT_NE(what.find("the project database is damaged (SQLite's check: "),
                      std::string::npos)
                << what;
            EXPECT_NE(what.find("nothing was written"), std::string::npos) << what;
        }
    }
    EXPECT_EQ(bytes(), before);
}

TEST(RunStorage, ProvenanceHashesTheInputFilesAndTheConfiguration) {
    TempDir dir("db_provenance");
    const std::string project = dir.path("project.yaml");
    std::ofstream(project) << "name: demo\n";
    SimulationSpec spec;
    spec.name = "demo";
    spec.sourceFile = project;
    spec.platform.dimensions = {{BlockKind::Ring, 8, 50e9, 500}};
    EXPECT_EQ(defaultDatabasePath(project), dir.path("astrolabe.db"));
    EXPECT_EQ(defaultDatabasePath(""), "astrolabe.db");
    const int64_t id = saveRunToProjectDb("", spec, makeSyntheticRun(), 2.0);
    ProjectDatabase db(dir.path("astrolabe.db"));
    const RunRecord r = db.run(id);
    EXPECT_DOUBLE_EQ(r.wallSeconds, 2.0);
    EXPECT_NE(r.configJson.find("\"npuCount\":8"), std::string::npos);
    bool projectHashed = false, configHashed = false;
    for (const auto& [input, hash] : r.inputHashes) {
        projectHashed =
            projectHashed || (input == "project:" + project && hash == sha256Hex("name: demo\n"));
        configHashed =
            configHashed || (input == "configuration" && hash == sha256Hex(r.configJson));
    }
    EXPECT_TRUE(projectHashed);
    EXPECT_TRUE(configHashed);
    EXPECT_FALSE(r.engineVersion.empty());
}
