// DeepEP's all-to-all kernels (deepseek-ai/DeepEP) against the DeepSeek platform of
// DeepSeekSupport.h: its published low-latency row at EP128 sets the platform's
// low-latency-bandwidth-factor (an input); its other low-latency rows and its normal kernels at
// the datasheet links are checks. docs/serving.md, "The all-to-all: DeepEP's tables".
#include "DeepSeekSupport.h"
#include "serving/Deployment.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <utility>

using namespace astrolabe;
using namespace astrolabe::serving;
using deepseektest::settings;

namespace {

// DeepEP's published tables (deepseek-ai/DeepEP, README "Performance", since moved to
// docs/legacy.md): H800, one CX7 400 Gb/s NIC per GPU, FP8 dispatch (with one FP32 scale per 128
// elements), BF16 combine, hidden 7,168, top-8 of 256 experts.
namespace deepep {
// DeepEP's FP8 dispatch sends one FP32 scale per 128 elements beside each byte (its bandwidth
// figures count them); the serving model sends the bytes alone (StepTiming.h), so at EP128 the
// factor below takes the scales' 3% of the dispatch's time.
constexpr double kFp8Bytes = 1 + 4.0 / 128;
// Low-latency kernels (decode), 128 tokens per GPU: EP, dispatch and combine latency.
struct LowLatencyRow {
    int ep;
    double dispatch, combine;
};
constexpr LowLatencyRow kLowLatency[] = {
    {32, 155e-6, 273e-6}, {64, 173e-6, 314e-6}, {128, 192e-6, 369e-6}, {256, 194e-6, 360e-6}};
// Normal kernels (prefill), 4,096 tokens per GPU, top-4 groups (nodes): the "bottleneck
// bandwidth" over RDMA, which counts one copy per node a token reaches, its own node included
// (tests/test_internode.py: num_rdma_token_sent x hidden x bytes per element).
struct NormalRow {
    int ep;
    double dispatchGBps, combineGBps;
};
constexpr NormalRow kNormal[] = {{32, 58, 57}, {64, 51, 50}};
} // namespace deepep

/// `gpus` GPUs of the DeepSeek platform, with `factor` as its low-latency-bandwidth-factor.
ColocatedTiming timingOf(int gpus, double factor = 0.85) {
    SimulationSpec spec = deepseektest::project(gpus, settings(gpus, "operations"));
    spec.serving.lowLatencyBandwidthFactor = factor;
    const Deployment d = buildDeployment(spec, 4096);
    return dynamic_cast<const ColocatedTiming&>(*d.pools[0].timing);
}

} // namespace

TEST(DeepSeekProfile, DeepEpsLowLatencyRowSetsTheDecodeAllToAll) {
    // An input, not a check: decode's all-to-all runs DeepEP's low-latency kernels, which move
    // their messages (one per token and expert) at a smaller share of the links than the
    // platform's all-to-all: 0.85 (the platform's low-latency-bandwidth-factor), set from the
    // EP128 row, the decode check's shape, so that dispatch + combine take DeepEP's 192 + 369 us.
    // At the datasheet links (factor 1) the same all-to-all takes 14-16% less.
    const auto run = [](const ColocatedTiming& t, int ep) {
        return std::pair{t.allToAllSeconds(128.0 * ep, 1, false),
                         t.allToAllSeconds(128.0 * ep, 2, false)};
    };
    const auto [datasheetDispatch, datasheetCombine] = run(timingOf(128, 1), 128);
    std::printf("EP128 at the datasheet links: dispatch %.1f us, combine %.1f us\n",
                datasheetDispatch * 1e6, datasheetCombine * 1e6);
    EXPECT_NEAR(datasheetDispatch / 192e-6, 0.86, 0.03);
    EXPECT_NEAR(datasheetCombine / 369e-6, 0.85, 0.03);
    // Each GPU's 128 x 8 x 7,168 bytes (x 2 for the combine), 15/16 of it over its 50 GB/s NIC.
    const double nic = 128.0 * 8 * 7168 * 15 / 16 / 50e9;
    EXPECT_GT(datasheetDispatch, nic);
    EXPECT_GT(datasheetCombine, 2 * nic);
    for (const deepep::LowLatencyRow& row : deepep::kLowLatency) {
        const auto [dispatch, combine] = run(timingOf(row.ep), row.ep);
        std::printf("EP%d, 128 tokens per GPU, factor 0.85: dispatch %.1f us (DeepEP %.0f, "
                    "%+.1f%%), combine %.1f us (DeepEP %.0f, %+.1f%%)\n",
                    row.ep, dispatch * 1e6, row.dispatch * 1e6, (dispatch / row.dispatch - 1) * 100,
                    combine * 1e6, row.combine * 1e6, (combine / row.combine - 1) * 100);
        if (row.ep == 128) { // the input
            EXPECT_NEAR((dispatch + combine) / (row.dispatch + row.combine), 1, 0.02);
            EXPECT_NEAR(dispatch / row.dispatch, 1, 0.05);
            EXPECT_NEAR(combine / row.combine, 1, 0.05);
        } else if (row.ep == 256) { // a check: as many nodes or more, the same share
            EXPECT_NEAR(dispatch / row.dispatch, 1, 0.06);
            EXPECT_NEAR(combine / row.combine, 1, 0.06);
        } else { // fewer nodes: DeepEP's kernels reach more of the links than 0.85
            EXPECT_GT(dispatch, row.dispatch);
            EXPECT_LT(dispatch, 1.2 * row.dispatch);
            EXPECT_GT(combine, row.combine);
            EXPECT_LT(combine, 1.2 * row.combine);
        }
    }
    // The congestion-unaware backend would give each of the 127 messages a whole link; the
    // all-to-all is timed where they share it, whichever backend the project names.
    SimulationSpec aware = deepseektest::project(128, settings(128, "operations"));
    aware.options.backend = NetworkBackend::CongestionAware;
    const auto& u =
        dynamic_cast<const ColocatedTiming&>(*buildDeployment(aware, 4096).pools[0].timing);
    EXPECT_DOUBLE_EQ(u.allToAllSeconds(128.0 * 128, 1, false),
                     timingOf(128).allToAllSeconds(128.0 * 128, 1, false));
}

TEST(DeepSeekProfile, TheLowLatencyFactorSlowsOnlyDecodesAllToAll) {
    // low-latency-bandwidth-factor f: an iteration that only decodes moves its all-to-all at f
    // of the links' bandwidth, so its time per byte is 1 / f times the platform's; an iteration
    // that prefills (DeepEP's normal kernels) keeps the platform's all-to-all exactly.
    const ColocatedTiming datasheet = timingOf(128, 1), slower = timingOf(128, 0.5);
    const double tokens = 128.0 * 128;
    EXPECT_DOUBLE_EQ(slower.allToAllSeconds(tokens, 1, true),
                     datasheet.allToAllSeconds(tokens, 1, true));
    const auto perByte = [&](const ColocatedTiming& t) {
        return t.allToAllSeconds(2 * tokens, 1, false) - t.allToAllSeconds(tokens, 1, false);
    };
    EXPECT_NEAR(perByte(slower) / perByte(datasheet), 2, 0.02);
}

TEST(DeepSeekProfile, DeepEpsNormalKernelsRunAtTheDatasheetLinks) {
    // A check, not an input: prefill's all-to-all (DeepEP's normal kernels: one copy per node
    // reached, forwarded inside the node over NVLink) at the platform's datasheet links against
    // DeepEP's normal-kernel table. Its bandwidth counts one copy per node reached, the own node
    // included, so its time is tokens x nodes reached x 7,168 x bytes per element / bandwidth.
    // EP32 (4 nodes, all four groups allowed): 3.61 nodes per token, as our uniform routing.
    // EP64 (8 nodes, top-4 groups): 4 (1 - C(96, 8) / C(128, 8)) = 3.63 nodes per token; ours
    // routes over all 8, so it is given the same bytes per GPU (fewer tokens), 7/8 of them off
    // the node in both.
    for (const deepep::NormalRow& row : deepep::kNormal) {
        const ColocatedTiming t = timingOf(row.ep);
        const int nodes = row.ep / 8;
        const int groups = std::min(nodes, 4);
        const double experts = 256.0 * groups / nodes, perNode = 256.0 / nodes;
        double miss = 1;
        for (int i = 0; i < 8; ++i)
            miss *= (experts - perNode - i) / (experts - i);
        const double reached = groups * (1 - miss);
        const double tokens = 4096.0 * row.ep * reached / t.tokenCopies(true);
        const double dispatch = t.allToAllSeconds(tokens, 1, true);
        const double combine = t.allToAllSeconds(tokens, 2, true);
        const double theirDispatch =
            4096 * reached * 7168 * deepep::kFp8Bytes / (row.dispatchGBps * 1e9);
        const double theirCombine = 4096 * reached * 7168 * 2 / (row.combineGBps * 1e9);
        std::printf("EP%d normal kernels, %.3f nodes per token: dispatch %.0f us (DeepEP %.0f, "
                    "%+.1f%%), combine %.0f us (DeepEP %.0f, %+.1f%%)\n",
                    row.ep, reached, dispatch * 1e6, theirDispatch * 1e6,
                    (dispatch / theirDispatch - 1) * 100, combine * 1e6, theirCombine * 1e6,
                    (combine / theirCombine - 1) * 100);
        EXPECT_NEAR(dispatch / theirDispatch, 1, 0.05);
        EXPECT_NEAR(combine / theirCombine, 1, 0.05);
    }
}
