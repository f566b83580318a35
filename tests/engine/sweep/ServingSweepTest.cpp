// A sweep over a serving project (docs/sweeps.md, "Searching a deployment"): each point runs as
// `astrolabe-cli serve` runs its project, optionally at the rate its own rate search finds, is
// stored with its serving records, and is ranked by the sweep's objective; applying a point to
// a project changes the settings the sweep names and nothing else.
#include "sweep/ServingSweep.h"

#include "engine/sweep/RingProject.h"
#include "project/ProjectFile.h"
#include "serving/RateSearch.h"
#include "serving/ServingRun.h"
#include "store/RunStorage.h"
#include "support/TempDir.h"
#include "sweep/SweepRun.h"

#include <gtest/gtest.h>

using namespace astrolabe;

namespace {

/// Llama 3 8B on a node of two H100 (one replica of one GPU each): prompts of 500-1500 tokens,
/// 50-150 output tokens, TTFT <= 300 ms and TPOT <= 25 ms, 10 s of Poisson arrivals at 20/s.
const char* kProject = R"(name: serving sweep
platform:
  dimensions:
    - {type: Switch, size: 2, bandwidth: 50 GB/s, latency: 5 us}
system:
  algorithms: [ring]
  chunks: 4
serving:
  model: llama3-8b
  gpu: h100
  rate: 20
  duration: 10 s
  ttft-slo: 300 ms
  tpot-slo: 25 ms
  input-distribution: uniform
  input-min: 500
  input-max: 1500
  output-distribution: uniform
  output-min: 50
  output-max: 150
)";

std::string writeSweep(const test::TempDir& dir, const std::string& serving) {
    test::writeText(dir.path("project.yaml"), kProject);
    test::writeText(dir.path("sweep.yaml"), "project: project.yaml\n" + serving +
                                                "axes:\n"
                                                "  - {path: serving.replicas, values: [1, 2]}\n"
                                                "  - {path: serving.max-batch, values: [2, 64]}\n");
    return dir.path("sweep.yaml");
}

} // namespace

TEST(ServingSweep, ObjectiveAndRateSearchAreCheckedWhereTheyAreWritten) {
    const std::string unknown =
        test::sweepFileError("project: p.yaml\nserving: {objective: goodput}\naxes:\n"
                             "  - {path: serving.rate, values: [1]}\n");
    EXPECT_NE(unknown.find("s.yaml:2:"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("unknown objective \"goodput\""), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("goodput-per-gpu"), std::string::npos) << unknown;
    const std::string share =
        test::sweepFileError("project: p.yaml\nserving:\n  rate-search: 90\naxes:\n"
                             "  - {path: serving.rate, values: [1]}\n");
    EXPECT_NE(share.find("s.yaml:3:"), std::string::npos) << share;
    EXPECT_NE(share.find("serving.rate-search"), std::string::npos) << share;
    EXPECT_NE(test::sweepFileError("project: p.yaml\nserving: {objectve: x}\naxes:\n"
                                   "  - {path: serving.rate, values: [1]}\n")
                  .find("objective"),
              std::string::npos);
}

TEST(ServingSweep, EachPointIsTheServeRunOfItsProjectRankedByGoodputPerGpu) {
    test::TempDir dir("serving_sweep");
    const SweepPlan plan = planSweep(writeSweep(dir, ""));
    ASSERT_EQ(plan.points.size(), 4u);
    EXPECT_EQ(plan.file.serving.objective, "goodput-per-gpu");
    ProjectDatabase db(dir.path("sweep.db"));
    std::map<size_t, double> goodput;
    runSweepOnThreads(plan, {0, 1, 2, 3}, 2, [&](PointOutcome&& o) {
        ASSERT_EQ(o.status, RunStatus::Ok) << o.error;
        ASSERT_TRUE(o.serving.has_value());
        // The same numbers as serving the point's project on its own.
        const serving::ServingResult alone = serving::runServing(plan.work(o.index).spec);
        EXPECT_EQ(o.serving->goodputPerGpu, alone.summary.goodputPerGpu);
        EXPECT_EQ(o.serving->gpus, alone.summary.gpus);
        EXPECT_EQ(o.servingRate, 20);
        // goodput per GPU = requests meeting both SLOs / duration / GPUs
        EXPECT_DOUBLE_EQ(o.serving->goodputPerGpu * o.serving->gpus,
                         o.serving->goodputRequestsPerSecond);
        EXPECT_EQ(servingObjectiveValue("goodput-per-gpu", *o.serving), o.serving->goodputPerGpu);
        EXPECT_EQ(servingObjectiveValue("output-tokens-per-gpu", *o.serving),
                  o.serving->outputTokensPerGpuSecond);
        goodput[o.index] = o.serving->goodputPerGpu;
        const int64_t id = storeSweepPoint(db, plan, o);
        const auto stored = storedServingSummary(db, id);
        ASSERT_TRUE(stored.has_value());
        EXPECT_EQ(stored->goodputPerGpu, o.serving->goodputPerGpu);
    });
    ASSERT_EQ(goodput.size(), 4u);
    // Points: (replicas, max-batch) = (1, 2), (1, 64), (2, 2), (2, 64). At 20 requests/s of
    // ~1,000-token prompts, a batch of 2 queues requests past the TTFT SLO; 64 does not. A
    // second replica halves the load per GPU and doubles the GPUs: at a rate one GPU already
    // serves, goodput per GPU halves.
    EXPECT_GT(goodput.at(1), goodput.at(0));
    EXPECT_GT(goodput.at(1), goodput.at(3));
    EXPECT_NEAR(goodput.at(3), goodput.at(1) / 2, 0.05 * goodput.at(1));
}

TEST(ServingSweep, ARateSearchPerPointRunsAtTheRateTheSearchFinds) {
    test::TempDir dir("serving_sweep_rate");
    const SweepPlan plan = planSweep(writeSweep(dir, "serving: {rate-search: 0.9}\n"));
    EXPECT_EQ(plan.file.serving.rateSearch, 0.9);
    const PointOutcome o = runSweepPoint(plan, 1); // one replica, max-batch 64
    ASSERT_EQ(o.status, RunStatus::Ok) << o.error;
    const serving::RateSearchResult found =
        serving::searchRate(plan.work(1).spec, serving::RateSearchOptions{0.9, 0.01, 40});
    ASSERT_GT(found.rate, 0);
    EXPECT_EQ(o.servingRate, found.rate);
    EXPECT_GE(o.serving->sloAttainment, 0.9);
    bool noted = false;
    for (const std::string& line : o.result->reportLines)
        noted = noted || line.find("rate search") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST(ServingSweep, ApplyingAPointChangesTheSettingsTheSweepNamesAndKeepsTheOthers) {
    test::TempDir dir("serving_sweep_apply");
    const std::string sweep = writeSweep(dir, "set:\n  serving.tpot-slo: 40 ms\n");
    const SweepPlan plan = planSweep(sweep);
    SimulationSpec edited = loadProject(dir.path("project.yaml"));
    edited.serving.seed = 7;     // changed in the window, not named by the sweep
    edited.serving.gpu = "h200"; // likewise
    const SimulationSpec applied = applySweepPoint(edited, dir.path("project.yaml"), plan, 2);
    EXPECT_EQ(applied.serving.replicas, 2);
    EXPECT_EQ(applied.serving.maxBatch, 2);
    EXPECT_EQ(applied.serving.tpotSloNs, 40e6);
    EXPECT_EQ(applied.serving.seed, 7);
    EXPECT_EQ(applied.serving.gpu, "h200");
    EXPECT_EQ(applied.serving.ttftSloNs, 300e6);
}
