// kill -9 while a run is being written: the run must be wholly present or absent, and the file
// must pass PRAGMA integrity_check. POSIX only (fork/kill).
#include "store/ProjectDatabase.h"
#include "store/Sqlite.h"
#include "support/SyntheticRun.h"
#include "support/TempDir.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <gtest/gtest.h>
#include <random>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace astrolabe;

TEST(CrashSafety, KillNineDuringSaveNeverLeavesAPartialRun) {
    test::TempDir dir("crash");
    const std::string path = dir.path("crash.db");
    test::SyntheticRunShape shape;
    shape.npus = 256;
    shape.steps = 150; // ~80k intervals, 40k collectives, 80k phases: a save takes tens of ms
    const RunResult big = test::makeSyntheticRun(shape);
    { ProjectDatabase create(path); }

    // Kills fall within three times one save's duration measured here, so that on a loaded
    // machine (where a save takes several times longer) kills still land both inside saves and
    // after committed ones.
    int64_t saveUs = 0;
    {
        ProjectDatabase timing(dir.path("timing.db"));
        const auto start = std::chrono::steady_clock::now();
        timing.saveRun(big, {});
        saveUs = std::chrono::duration_cast<std::chrono::microseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count();
    }
    std::mt19937 rng(20261121); // fixed seed: the same kill times on every run of the test
    std::uniform_int_distribution<int64_t> killAfterUs(0, std::max<int64_t>(250'000, 3 * saveUs));
    int runsSeen = 0;
    int killedMidSave = 0;
    const int trials = 50;
    for (int trial = 0; trial < trials; ++trial) {
        // The child reports 'b' before and 'e' after each save, so the parent knows whether
        // the kill landed inside a write.
        int pipeFds[2];
        ASSERT_EQ(::pipe(pipeFds), 0);
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            ::close(pipeFds[0]);
            try {
                ProjectDatabase db(path);
                for (;;) {
                    (void)!::write(pipeFds[1], "b", 1);
                    db.saveRun(big, {});
                    (void)!::write(pipeFds[1], "e", 1);
                }
            } catch (...) {
                ::_exit(1);
            }
        }
        ::close(pipeFds[1]);
        std::this_thread::sleep_for(std::chrono::microseconds(killAfterUs(rng)));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        ASSERT_TRUE(WIFSIGNALED(status))
            << "the writer exited by itself (status " << status << ") in trial " << trial;
        char last = 0, c = 0;
        while (::read(pipeFds[0], &c, 1) == 1)
            last = c;
        ::close(pipeFds[0]);
        killedMidSave += last == 'b';

        ProjectDatabase db(path); // recovers the WAL
        ASSERT_EQ(db.integrityCheck(), "ok") << "trial " << trial;
        SqliteConnection raw(path);
        const auto runs = db.listRuns();
        for (const RunRecord& r : runs) {
            ASSERT_EQ(r.activityCount, big.activities.size()) << "run " << r.id;
            const std::string where = " WHERE run_id = " + std::to_string(r.id);
            EXPECT_EQ(raw.queryInt("SELECT sum(count) FROM timeline_chunks" + where),
                      static_cast<int64_t>(big.activities.size()));
            EXPECT_EQ(raw.queryInt("SELECT count(*) FROM npu_summaries" + where), shape.npus);
            EXPECT_EQ(raw.queryInt("SELECT count(*) FROM links" + where),
                      static_cast<int64_t>(big.links.size()));
            EXPECT_EQ(raw.queryInt("SELECT count(*) FROM run_blobs" + where), 7);
        }
        // No orphan rows of a run that is not (or no longer) listed.
        EXPECT_EQ(raw.queryInt("SELECT count(*) FROM timeline_chunks WHERE run_id NOT IN "
                               "(SELECT id FROM runs)"),
                  0);
        runsSeen = static_cast<int>(runs.size());
    }
    // The test means something only if many kills hit a save in progress and some saves
    // committed before a kill.
    EXPECT_GE(killedMidSave, trials / 2);
    EXPECT_GT(runsSeen, 0);
    RecordProperty("runs_committed", runsSeen);
    RecordProperty("killed_mid_save", killedMidSave);
    std::printf("%d of %d kills landed inside a save; %d runs committed in all\n", killedMidSave,
                trials, runsSeen);
}
