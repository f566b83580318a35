// The serving engine's closed forms: a lone request, a fixed batch, a P/D KV transfer, and the
// roofline of one step checked against hand arithmetic. The hand arithmetic is the roofline's
// (compute-model: roofline); the P/D transfer and the determinism hold under the default
// operation model.
#include "ServingTestSupport.h"
#include "core/Error.h"
#include "generate/ModelPresets.h"
#include "serving/Deployment.h"
#include "serving/ServingRun.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {

// Llama-3 8B by hand: per layer attention 4096*4096*2 + 2*4096*1024 (GQA, 8 KV heads of 128)
// and SwiGLU 3*4096*14336; 32 layers; untied embeddings 2*128256*4096.
constexpr double kLayerParams = 4096.0 * 4096 * 2 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336;
constexpr double kParams = 32 * kLayerParams + 2 * 128256.0 * 4096;
// A step reads every weight once, but of the untied input embedding only its tokens' rows.
constexpr double kInputTable = 128256.0 * 4096;
constexpr double weightBytesRead(double tokens) {
    return 2 * (kParams - kInputTable) + 2 * 4096.0 * tokens;
}
constexpr double kKvBytesPerToken = 32 * 2 * 8 * 128 * 2.0; // K and V, BF16
constexpr double kHbm = 3350e9 * 0.8;                       // H100 HBM x bandwidth-efficiency
constexpr const char* kRoofline = "model: llama3-8b\n  gpu: h100\n  compute-model: roofline\n";

StepShape decodeShape(int batch, double contextEach) {
    StepShape s;
    s.decodeTokens = s.logits = batch;
    s.decodeContext = batch * contextEach;
    return s;
}

} // namespace

TEST(ServingClosedForm, DecodeStepOfLlama8bIsItsWeightsAndCacheOverHbmBandwidth) {
    // A decode step of a few requests is memory-bound: every weight once (of the input table
    // only the requests' rows), plus each request's cache:
    // t = (2 bytes x (params - input table + requests x hidden) + requests x context x KV bytes
    // per token) / (HBM x 0.8).
    const SimulationSpec spec = servingtest::project(kRoofline);
    const Deployment d = buildDeployment(spec, 1000);
    for (int batch : {1, 8, 32}) {
        const double expected = (weightBytesRead(batch) + batch * 1001.0 * kKvBytesPerToken) / kHbm;
        EXPECT_NEAR(d.pools[0].timing->stepSeconds(decodeShape(batch, 1001)), expected,
                    1e-9 * expected)
            << batch;
    }
    EXPECT_DOUBLE_EQ(d.kvBytesPerToken, kKvBytesPerToken);
}

TEST(ServingClosedForm, PrefillOfALongPromptIsComputeBound) {
    // 8,192 tokens: 2 FLOPs per parameter per token (the LM head only for the last token) plus
    // the causal attention products 4 x heads x head size per (token, earlier position) pair,
    // at 989.5 TFLOP/s x 0.7.
    const SimulationSpec spec = servingtest::project(kRoofline);
    const Deployment d = buildDeployment(spec, 8192);
    const double p = 8192, head = 2 * 128256.0 * 4096;
    StepShape s;
    s.prefillTokens = 8192;
    s.prefillContext = p * (p + 1) / 2;
    s.logits = 1;
    const double linear = p * 2 * (kParams - head) + head;
    const double core = s.prefillContext * 32 * 4 * 32 * 128;
    const double expected = (linear + core) / (989.5e12 * 0.7);
    EXPECT_NEAR(d.pools[0].timing->stepSeconds(s), expected, 0.005 * expected);
}

TEST(ServingClosedForm, LoneRequestTtftIsItsPrefillAndTpotOneDecodeStep) {
    const SimulationSpec spec = servingtest::project(kRoofline);
    const Deployment d = buildDeployment(spec, 1000);
    const ServingResult r = runServing(spec, {Request{0, 0.0, 1000, 50, 0}});
    ASSERT_EQ(r.summary.completed, 1);
    StepShape prefill;
    prefill.prefillTokens = 1000;
    prefill.prefillContext = 1000.0 * 1001 / 2;
    prefill.logits = 1;
    EXPECT_NEAR(r.summary.ttft.p50, d.pools[0].timing->stepSeconds(prefill), 1e-12);
    // 49 decode steps, the k-th over a context of 1000 + k tokens.
    double decode = 0;
    for (int k = 1; k <= 49; ++k)
        decode += d.pools[0].timing->stepSeconds(decodeShape(1, 1000 + k));
    EXPECT_NEAR(r.summary.tpot.p50, decode / 49, 1e-12);
    EXPECT_NEAR(r.summary.tpot.p50, (weightBytesRead(1) + 1025 * kKvBytesPerToken) / kHbm, 1e-6);
    EXPECT_EQ(r.summary.itl.count, 49);
    EXPECT_NEAR(r.summary.queueing.max, 0, 1e-12);
}

TEST(ServingClosedForm, FixedBatchDecodesAtBatchOverStepTime) {
    // 32 requests at once, 128-token prompts, 201 output tokens: one prefill iteration, then
    // 200 decode iterations of the whole batch, each (weights + 32 x context x KV) / HBM.
    const SimulationSpec spec = servingtest::project(kRoofline);
    std::vector<Request> requests;
    for (int i = 0; i < 32; ++i)
        requests.push_back(Request{i, 0.0, 128, 201, 0});
    const ServingResult r = runServing(spec, requests);
    ASSERT_EQ(r.summary.completed, 32);
    double steps = 0;
    for (int k = 1; k <= 200; ++k)
        steps += (weightBytesRead(32) + 32 * (128.0 + k) * kKvBytesPerToken) / kHbm;
    const double throughput = 32 * 200 / (r.requests[0].lastToken - r.requests[0].firstToken);
    EXPECT_NEAR(throughput, 32 / (steps / 200), 1e-3 * throughput);
    EXPECT_EQ(r.summary.iterations, 201);
    EXPECT_EQ(r.summary.preemptions, 0);
}

TEST(ServingClosedForm, PdKvTransferIsBytesOverLinkBandwidthPlusLatency) {
    // Prefill and decode replicas of one GPU each: the 1,000-token cache (1000 x 131,072 B)
    // crosses the platform's outer link, 50 GB/s and 5 us: 2.62144 ms + 5 us.
    const SimulationSpec spec = servingtest::project(
        "model: llama3-8b\n  gpu: h100\n  deployment: pd\n  replicas: 1\n  prefill-replicas: 1\n");
    const Deployment d = buildDeployment(spec, 1000);
    ASSERT_EQ(d.pools.size(), 2u);
    const ServingResult r = runServing(spec, {Request{0, 0.0, 1000, 2, 0}});
    ASSERT_EQ(r.summary.completed, 1);
    const double transfer = 1000 * kKvBytesPerToken / 50e9 + 5e-6;
    const double decode = d.pools[1].timing->stepSeconds(decodeShape(1, 1001));
    EXPECT_NEAR(r.requests[0].lastToken - r.requests[0].firstToken, transfer + decode, 1e-11);
    EXPECT_EQ(r.summary.gpus, 2);
}

TEST(ServingClosedForm, SameInputSameResult) {
    const SimulationSpec spec = servingtest::project(
        "model: llama3-8b\n  gpu: h100\n  rate: 20\n  duration: 20 s\n"
        "  input-distribution: lognormal\n  input-mean: 600\n  output-distribution: uniform\n"
        "  output-min: 10\n  output-max: 300\n");
    const ServingResult a = runServing(spec), b = runServing(spec);
    ASSERT_GT(a.summary.completed, 300);
    EXPECT_EQ(a.summary.completed, b.summary.completed);
    EXPECT_EQ(a.summary.ttft.p99, b.summary.ttft.p99);
    EXPECT_EQ(a.summary.itl.p50, b.summary.itl.p50);
    EXPECT_EQ(a.summary.iterations, b.summary.iterations);
}

TEST(ServingClosedForm, TwoPipelineStagesAddTheirHalvesAndTheTransferBetweenThem) {
    // pp = 2: each stage holds 16 of Llama-3 8B's 32 layers (and half the embeddings) on its own
    // H100, so a lone decode token reads half the weights and half its cache on each:
    //   stage = (weight bytes read + context x KV bytes) / 2 / (HBM x 0.8)
    // and then crosses the 50 GB/s, 5 us link to the other stage: 4,096 x 2 B / 50 GB/s + 5 us.
    // Per token: the two halves' computation plus that transfer.
    const std::string pp2 = std::string(kRoofline) + "  pp: 2\n";
    const SimulationSpec one = servingtest::project(kRoofline), two = servingtest::project(pp2);
    const Deployment d1 = buildDeployment(one, 1000), d2 = buildDeployment(two, 1000);
    EXPECT_EQ(d2.gpus, 2);
    const double transfer = 4096 * 2.0 / 50e9 + 5e-6;
    for (double context : {1.0, 1001.0, 8000.0}) {
        const double half = (weightBytesRead(1) + context * kKvBytesPerToken) / 2 / kHbm;
        EXPECT_NEAR(d2.pools[0].timing->stepSeconds(decodeShape(1, context)), 2 * half + transfer,
                    1e-9 * half)
            << context;
    }
    const ServingResult r = runServing(two, {Request{0, 0.0, 1000, 50, 0}});
    ASSERT_EQ(r.summary.completed, 1);
    EXPECT_NEAR(r.summary.tpot.p50,
                (weightBytesRead(1) + 1025 * kKvBytesPerToken) / kHbm + transfer, 1e-6);
    // The 1,000-token prompt runs as two micro-batches of 500: the first through both stages
    // (with its 500 tokens' transfer), the second one stage behind it.
    StepShape prefill;
    prefill.prefillTokens = 1000;
    prefill.prefillContext = 1000.0 * 1001 / 2;
    prefill.logits = 1;
    const double stage = d1.pools[0].timing->stepSeconds(fraction(prefill, 2)) / 2;
    const double x = 500 * 4096 * 2.0 / 50e9 + 5e-6;
    EXPECT_NEAR(r.summary.ttft.p50, std::max(2 * stage + x, 2 * x), 1e-12);
    // Each GPU holds half the weights and caches half the layers: the cache holds
    // 2 (HBM x 0.9 - weights / 2) / KV bytes per token tokens instead of (HBM x 0.9 - weights)
    // / KV bytes.
    const double usable = 81559.0 * (1 << 20) * 0.9, weights = 2 * kParams; // H100: 81,559 MiB
    const double ratio = double(d2.pools[0].limits.kvBlocks) / double(d1.pools[0].limits.kvBlocks);
    EXPECT_NEAR(ratio, 2 * (usable - weights / 2) / (usable - weights), 1e-3);
}

TEST(ServingClosedForm, PipelineStagesMoreThanLayersAreRefused) {
    const SimulationSpec spec = servingtest::project(std::string(kRoofline) + "  pp: 33\n");
    try {
        buildDeployment(spec, 1000);
        FAIL() << "33 stages for 32 layers were accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "serving.pp");
        EXPECT_NE(e.message().find("found 33"), std::string::npos) << e.message();
    }
}

TEST(ServingClosedForm, MoreTensorParallelGpusThanKvHeadsEachHoldOneHead) {
    // Llama-3 8B has 8 KV heads: tp 2 to 8 split them (131,072 B per token / tp), and at tp 16
    // each GPU holds one head, replicated: 131,072 / 8 = 16,384 B, not 8,192. The capacity and
    // the cache read per step follow.
    const ModelFigures model = modelFigures(generate::presetSpec("llama3-8b").model);
    for (int tp : {1, 2, 8, 16, 32}) {
        ReplicaHardware hw;
        hw.gpus = hw.tp = tp;
        EXPECT_DOUBLE_EQ(StepCost(model, hw).kvBytesPerTokenPerGpu(),
                         kKvBytesPerToken / std::min(tp, 8))
            << tp;
    }
}
