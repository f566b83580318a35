// Serving deployments from a project: the serving: section read and written through the
// schema, bad inputs refused or warned about by key, and the deployments' capacity.
#include "ServingTestSupport.h"
#include "core/Error.h"
#include "schema/Setting.h"
#include "serving/Deployment.h"
#include "serving/ServingRun.h"

#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const ErrorList& list) {
        std::string all;
        for (const Error& e : list.errors())
            all += std::string(e.what()) + "\n";
        return all;
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(ServingProject, SectionIsReadThroughTheSchemaAndWrittenBack) {
    const SimulationSpec spec = servingtest::project(
        "model: qwen3-30b-a3b\n  gpu: h200\n  deployment: pd\n  ep: 4\n  tpot-slo: 50 ms\n"
        "  input-distribution: uniform\n  input-min: 10\n  input-max: 20\n");
    EXPECT_TRUE(spec.serving.enabled);
    EXPECT_EQ(spec.serving.model, "qwen3-30b-a3b");
    EXPECT_EQ(spec.serving.ep, 4);
    EXPECT_DOUBLE_EQ(spec.serving.tpotSloNs, 50e6);
    EXPECT_EQ(spec.serving.input.kind, "uniform");
    EXPECT_EQ(spec.serving.input.maximum, 20);
    const SimulationSpec back = parseProject(projectYamlText(spec, "serving.yaml"), "serving.yaml");
    EXPECT_EQ(back.serving, spec.serving);
    EXPECT_NO_THROW(settings::find(settings::servingGroup(), "serving.two-batch-overlap"));
}

TEST(ServingProject, BadSettingsNameTheirKey) {
    EXPECT_THAT(errorOf([] { servingtest::project("model: llama3-8b\n  input-mean: 0\n"); }),
                HasSubstr("serving.input-mean"));
    EXPECT_THAT(errorOf([] { servingtest::project("model: llama3-8b\n  deployment: split\n"); }),
                AllOf(HasSubstr("serving.deployment"), HasSubstr("aggregated")));
    EXPECT_THAT(errorOf([] { servingtest::project("model: llama3-8b\n  tp-size: 2\n"); }),
                HasSubstr("serving.tp-size"));
    EXPECT_THAT(errorOf([] { buildDeployment(servingtest::project("model: llama-9\n"), 100); }),
                AllOf(HasSubstr("serving.model"), HasSubstr("llama3-8b")));
}

TEST(ServingProject, WeightsThatDoNotFitAreRefused) {
    // Llama-3 70B in BF16 is 141 GB: not on one 80 GB H100, fine on four.
    EXPECT_THAT(errorOf([] { buildDeployment(servingtest::project("model: llama3-70b\n"), 100); }),
                AllOf(HasSubstr("serving.tp"), HasSubstr("per GPU")));
    EXPECT_NO_THROW(buildDeployment(servingtest::project("model: llama3-70b\n  tp: 4\n"), 100));
}

TEST(ServingProject, AKvCacheThatCannotHoldOneRequestIsAnError) {
    // Llama-3 8B on an H100: (72 GB - 16 GB) / 128 KiB per token holds about 427,000 tokens.
    const SimulationSpec spec = servingtest::project("model: llama3-8b\n");
    EXPECT_THAT(errorOf([&] {
                    runServing(spec, {Request{7, 0, 500000, 10, 0}});
                }),
                AllOf(HasSubstr("request 7"), HasSubstr("500010 tokens"),
                      HasSubstr("serving.kv-memory-fraction")));
}

TEST(ServingProject, AnSloBelowOneDecodeStepIsWarnedAbout) {
    const SimulationSpec spec =
        servingtest::project("model: llama3-8b\n  tpot-slo: 1 ms\n  rate: 2\n  duration: 2 s\n");
    const ServingResult r = runServing(spec);
    ASSERT_FALSE(r.warnings.empty());
    EXPECT_THAT(r.warnings[0], AllOf(HasSubstr("serving.tpot-slo"), HasSubstr("decode step")));
    EXPECT_EQ(r.summary.goodputRequestsPerSecond, 0);
}

TEST(ServingProject, MemoryPressurePreemptsAndEveryRequestStillFinishes) {
    // A KV cache of a few thousand tokens for 64 requests of 200 + 400 tokens: the scheduler
    // must preempt (recompute) and still finish all of them, never hang.
    const SimulationSpec spec = servingtest::project(
        "model: llama3-8b\n  kv-memory-fraction: 0.206\n  arrival: concurrency\n"
        "  concurrency: 64\n  duration: 1 s\n  input-mean: 200\n  output-mean: 400\n");
    const ServingResult r = runServing(spec);
    EXPECT_EQ(r.summary.completed, r.summary.requests);
    EXPECT_GT(r.summary.preemptions, 0);
    EXPECT_GT(r.summary.peakKvOccupancy, 0.9);
}

TEST(ServingProject, MoeReplicasTimeTheirAllToAllOnThePlatform) {
    // Qwen3-30B-A3B over 8 GPUs (ep 8): the all-to-all is simulated on the platform; without
    // two-batch overlap it adds to the computation; with it each MoE layer runs DeepSeek's
    // decode schedule (StepTiming.h): 2 [max(s + a_in, d) + r + max(a_core, c)], which lies
    // between the larger and the sum of computation and communication.
    const SimulationSpec plain = servingtest::project("model: qwen3-30b-a3b\n  ep: 8\n");
    SimulationSpec overlap = plain;
    overlap.serving.twoBatchOverlap = true;
    const Deployment a = buildDeployment(plain, 1000), b = buildDeployment(overlap, 1000);
    const auto& plainTiming = dynamic_cast<const ColocatedTiming&>(*a.pools[0].timing);
    const auto& overlapTiming = dynamic_cast<const ColocatedTiming&>(*b.pools[0].timing);
    StepShape s;
    s.decodeTokens = s.logits = 512;
    s.decodeContext = 512 * 1000.0;
    const double compute = plainTiming.computeSeconds(s);
    const double comm = plainTiming.communicationSeconds(s);
    EXPECT_GT(comm, 0);
    EXPECT_NEAR(a.pools[0].timing->stepSeconds(s), compute + comm, 1e-15);
    // Overlapped: two half batches, each reading the weights, beside the same all-to-alls.
    const double halves = overlapTiming.computeSeconds(s);
    EXPECT_GT(halves, compute);
    EXPECT_LT(halves, 2 * compute);
    const double commHalves = overlapTiming.communicationSeconds(s);
    const LayerStages g = overlapTiming.layerStages(s);
    EXPECT_GT(g.dispatch, 0);
    EXPECT_NEAR(g.combine - g.dispatch, g.dispatch - overlapTiming.allToAllSeconds(1e-9, 1, false),
                1e-9); // the combine's buffer is twice the dispatch's (BF16 against FP8)
    EXPECT_DOUBLE_EQ(g.period, 2 * (std::max(g.shared + g.attentionIn, g.dispatch) + g.routed +
                                    std::max(g.attentionCore, g.combine)));
    const double step = b.pools[0].timing->stepSeconds(s);
    EXPECT_GE(step, std::max(halves, commHalves) * (1 - 1e-12));
    EXPECT_LE(step, (halves + commHalves) * (1 + 1e-12));
    EXPECT_EQ(a.gpus, 8);
}

TEST(ServingProject, ChunkedPrefillSplitsAPromptByTheTokenBudget) {
    // 2,000 prompt tokens at 512 per iteration: ceil(2000 / 512) = 4 iterations to the first
    // token, which is also the last (one output token).
    const SimulationSpec spec = servingtest::project("model: llama3-8b\n  token-budget: 512\n");
    const ServingResult r = runServing(spec, {Request{0, 0.0, 2000, 1, 0}});
    EXPECT_EQ(r.summary.completed, 1);
    EXPECT_EQ(r.summary.iterations, 4);
}

TEST(ServingProject, WithoutChunkingAPromptOverTheBudgetRunsWholeAndAlone) {
    const SimulationSpec spec =
        servingtest::project("model: llama3-8b\n  chunked-prefill: false\n  token-budget: 512\n");
    const ServingResult r =
        runServing(spec, {Request{0, 0.0, 2000, 3, 0}, Request{1, 0.0, 100, 3, 0}});
    ASSERT_EQ(r.summary.completed, 2);
    // The first iteration is the 2,000-token prompt alone; the short one follows, first come
    // first served.
    EXPECT_LT(r.requests[0].firstToken, r.requests[1].firstToken);
    EXPECT_EQ(r.requests[1].firstScheduled, r.requests[0].firstToken);
}

TEST(ServingProject, SwapPreemptionCopiesTheCacheOverTheHostLink) {
    // Swapping 1,000 tokens of Llama-3 8B (131,072 B each) over 50 GB/s: 2.62144 ms.
    const Deployment d =
        buildDeployment(servingtest::project("model: llama3-8b\n  preemption: swap\n"), 100);
    StepShape swapOnly;
    swapOnly.swapTokens = 1000;
    EXPECT_NEAR(d.pools[0].timing->stepSeconds(swapOnly), 1000 * 131072 / 50e9, 1e-12);
    // Under memory pressure every request still finishes, swapping instead of recomputing.
    const ServingResult r = runServing(servingtest::project(
        "model: llama3-8b\n  kv-memory-fraction: 0.206\n  arrival: concurrency\n"
        "  concurrency: 64\n  duration: 1 s\n  input-mean: 200\n  output-mean: 400\n"
        "  preemption: swap\n"));
    EXPECT_EQ(r.summary.completed, r.summary.requests);
    EXPECT_GT(r.summary.preemptions, 0);
}
