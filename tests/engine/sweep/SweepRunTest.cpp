// Running sweep points on threads into the project database, and resuming.
#include "sweep/SweepRun.h"

#include "engine/sweep/RingProject.h"
#include "project/ProjectFile.h"
#include "simulation/Simulation.h"
#include "support/TempDir.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>

using namespace astrolabe;

namespace {

const char* kSweep =
    "project: project.yaml\naxes:\n"
    "  - {path: platform.dimensions.0.bandwidth, values: [25 GiB/s, 50 GiB/s, 100 GiB/s]}\n"
    "  - {path: system.chunks, values: [1, 2, 4]}\n";

std::map<size_t, int64_t> endTimes(const SweepPlan& plan, int jobs) {
    std::map<size_t, int64_t> ends;
    std::vector<size_t> all;
    for (const PlannedPoint& p : plan.points)
        all.push_back(p.index);
    runSweepOnThreads(plan, all, jobs, [&](PointOutcome&& o) {
        ASSERT_EQ(o.status, RunStatus::Ok) << o.error;
        EXPECT_TRUE(ends.emplace(o.index, o.result->endTime.ps()).second) << "point twice";
    });
    return ends;
}

} // namespace

TEST(SweepRun, AnyNumberOfWorkersGivesTheSameResultsAsRunningEachProject) {
    test::TempDir dir("sweep_run");
    test::writeText(dir.path("project.yaml"), test::kRingProject);
    test::writeText(dir.path("sweep.yaml"), kSweep);
    const SweepPlan plan = planSweep(dir.path("sweep.yaml"));
    const auto one = endTimes(plan, 1);
    ASSERT_EQ(one.size(), 9u);
    EXPECT_EQ(endTimes(plan, 2), one);
    EXPECT_EQ(endTimes(plan, 5), one);
    // Point 5 is the base project itself (50 GiB/s, 4 chunks): ASTRA-sim's 117,780 ns.
    EXPECT_EQ(one.at(5), 117'780'000);
    // Every point as if its project had been written out and run on its own.
    std::string edited = test::kRingProject;
    edited.replace(edited.find("50 GiB/s"), 8, "100 GiB/s");
    edited.replace(edited.find("chunks: 4"), 9, "chunks: 2");
    test::writeText(dir.path("edited.yaml"), edited);
    EXPECT_EQ(runSimulation(loadProject(dir.path("edited.yaml")))->endTime.ps(), one.at(7));
    // More bandwidth never makes the all-reduce slower.
    EXPECT_GT(one.at(2), one.at(5));
    EXPECT_GT(one.at(5), one.at(8));
}

TEST(SweepRun, StoredPointsCarryTheirTagsAndAreNotRunAgain) {
    test::TempDir dir("sweep_store");
    test::writeText(dir.path("project.yaml"), test::kRingProject);
    test::writeText(dir.path("sweep.yaml"), kSweep);
    const SweepPlan plan = planSweep(dir.path("sweep.yaml"));
    ProjectDatabase db(dir.path("astrolabe.db"));
    // The first run stores points 0..3 and is "interrupted".
    runSweepOnThreads(plan, {0, 1, 2, 3}, 2,
                      [&](PointOutcome&& o) { storeSweepPoint(db, plan, o); });
    EXPECT_EQ(storedSweepPoints(db, plan.identity), (std::set<size_t>{0, 1, 2, 3}));
    const std::vector<size_t> rest = pendingSweepPoints(plan, storedSweepPoints(db, plan.identity));
    EXPECT_EQ(rest, (std::vector<size_t>{4, 5, 6, 7, 8}));
    runSweepOnThreads(plan, rest, 2, [&](PointOutcome&& o) { storeSweepPoint(db, plan, o); });
    EXPECT_TRUE(pendingSweepPoints(plan, storedSweepPoints(db, plan.identity)).empty());
    const std::vector<RunRecord> runs = db.listRuns();
    ASSERT_EQ(runs.size(), 9u);
    for (const RunRecord& r : runs) {
        const auto index = storedPointIndex(r.tags, plan.identity);
        ASSERT_TRUE(index);
        // The point's values are in its name: the runs list tells the points apart.
        EXPECT_EQ(r.name, plan.file.name + " · point " + std::to_string(*index) + " (" +
                              plan.point(*index).label() + ")");
        EXPECT_NE(r.notes.find("system.chunks"), std::string::npos);
    }
    const auto named = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) {
        return storedPointIndex(r.tags, plan.identity) == 5u;
    });
    ASSERT_NE(named, runs.end());
    EXPECT_EQ(named->name, plan.file.name + " · point 5 (bandwidth=50 GiB/s, chunks=4)");
    // Editing the base project makes it another sweep: nothing of it is stored yet.
    test::writeText(dir.path("project.yaml"), std::string(test::kRingProject) + "# edited\n");
    const SweepPlan edited = planSweep(dir.path("sweep.yaml"));
    EXPECT_NE(edited.identity, plan.identity);
    EXPECT_EQ(pendingSweepPoints(edited, storedSweepPoints(db, edited.identity)).size(), 9u);
}

TEST(SweepRun, AFailingPointIsStoredWithItsErrorAndTheOthersGoOn) {
    test::TempDir dir("sweep_fail");
    test::writeText(dir.path("project.yaml"), test::kRingProject);
    // Traces that are there (so the plan accepts them) but are not Chakra: the points that read
    // them fail when they run, not when they are planned.
    std::filesystem::create_directories(dir.path("bad"));
    for (int npu = 0; npu < 8; ++npu)
        test::writeText(dir.path("bad/trace." + std::to_string(npu) + ".et"), "not a trace");
    test::writeText(dir.path("sweep.yaml"),
                    "project: project.yaml\naxes:\n"
                    "  - {path: system.chunks, values: [1, 2]}\n"
                    "  - {path: workload, values: [{microbenchmark: {collective: all-reduce, "
                    "size: 1 MiB}}, {trace: bad/trace}]}\n");
    const SweepPlan plan = planSweep(dir.path("sweep.yaml"));
    ASSERT_EQ(plan.runnable(), 4u);
    ProjectDatabase db(dir.path("astrolabe.db"));
    size_t failed = 0;
    runSweepOnThreads(plan, {0, 1, 2, 3}, 2, [&](PointOutcome&& o) {
        failed += o.status == RunStatus::Failed;
        EXPECT_EQ(o.status == RunStatus::Failed, o.index % 2 == 1) << o.index << ": " << o.error;
        storeSweepPoint(db, plan, o);
    });
    EXPECT_EQ(failed, 2u);
    // All four are stored; the two that failed are not done, and run again next time.
    EXPECT_EQ(storedSweepRuns(db, plan.identity).size(), 4u);
    EXPECT_EQ(storedSweepPoints(db, plan.identity), (std::set<size_t>{0, 2}));
    EXPECT_EQ(pendingSweepPoints(plan, storedSweepPoints(db, plan.identity)),
              (std::vector<size_t>{1, 3}));
    size_t sawError = 0;
    for (const RunRecord& r : db.listRuns())
        if (r.status == RunStatus::Failed) {
            ++sawError;
            EXPECT_NE(r.errorMessage.find("trace.0.et"), std::string::npos) << r.errorMessage;
        }
    EXPECT_EQ(sawError, 2u);
}
