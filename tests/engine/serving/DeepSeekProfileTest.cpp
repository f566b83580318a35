// DeepSeek-V3 on H800 as DeepSeek's public profile (deepseek-ai/profile-data) describes it,
// against the throughput the SGLang team derived from that profile (LMSYS blog, 2025-05-05,
// "Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism on 96 H100
// GPUs", table "DeepSeek Profile": 62,713 prefill and 18,598 decode tokens/s per 8-GPU node),
// which InferSim's README quotes per GPU: 7,839 and 2,324. That table gives the profile's decode
// setup as 128 requests per GPU at a KV-cache length of 4,096, beside DeepSeek's production
// average of 4,989 (the day-6 inference-system overview, deepseek-ai/open-infra-index).
// docs/serving.md tabulates these beside InferSim's own simulation. The platform: 8 H800 per
// node on NVLink (400 GB/s per GPU both directions together: 200 GB/s each way), nodes joined
// by one 400 Gb/s NIC per GPU (50 GB/s).
//
// The step is timed by operation (serving/OperationStep.h): DeepGEMM's published FP8 GEMM table
// and FlashMLA's published decoding rates for H800, the kernel curves for the rest; the
// dispatch and combine all-to-alls cross both dimensions of the platform (`algorithms: [direct,
// direct]`), so their bytes leave each node over its NICs (decode's, DeepEP's low-latency
// kernels, at 0.85 of the links, the share DeepEP's README publishes for them: DeepEpAllToAllTest),
// and each MoE layer runs the two-batch schedule of DeepSeek's profile (serving/StepTiming.h).
// Nothing is fitted to either row: both are predictions (docs/serving.md says how far each is and
// what is missing). The roofline at its default efficiencies (0.7 of the tensor peak, 0.8 of HBM)
// is a looser bound above both.
#include "DeepSeekSupport.h"
#include "hardware/MeasuredKernels.h"
#include "serving/Deployment.h"
#include "serving/OperationStep.h"

#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {

constexpr double kPrefillProfile = 7839, kDecodeProfile = 2324;
// The decode context: the profile's, as the SGLang team's table gives it (KV-cache length 4,096;
// the profile's README: "a prompt length of 4K"; TheProfilesDecodeContextIsFourK checks it on
// FlashMLA's kernel), and DeepSeek's production average, "the average kvcache length per output
// token was 4,989 tokens" (day-6 overview), which InferSim's example runs (4,096 + 1,786 / 2).
constexpr double kProfileContext = 4096, kProductionContext = 4989;

using deepseektest::settings;

void printOperations(const char* title, const Deployment& d, const StepShape& shape) {
    const auto* timing = dynamic_cast<const ColocatedTiming*>(d.pools[0].timing.get());
    ASSERT_NE(timing, nullptr);
    std::vector<OpTime> ops;
    const double total = operationSeconds(timing->cost(), fraction(shape, 2), &ops);
    std::printf("%s, one micro-batch per GPU: %.3f ms computation, communication %.3f ms per "
                "step\n",
                title, total * 1e3, timing->communicationSeconds(shape) * 1e3);
    for (const OpTime& op : ops)
        std::printf("  %-24s %8.3f ms  %s\n", op.name.c_str(), op.seconds * 1e3,
                    opSourceName(op.source));
    const LayerStages g = timing->layerStages(shape);
    std::printf("  one MoE layer, one micro-batch: attention in %.1f us, core %.1f us, shared "
                "%.1f us, routed %.1f us; dispatch %.1f us, combine %.1f us (%.2f copies of a "
                "token); both micro-batches %.1f us\n",
                g.attentionIn * 1e6, g.attentionCore * 1e6, g.shared * 1e6, g.routed * 1e6,
                g.dispatch * 1e6, g.combine * 1e6, timing->tokenCopies(shape.prefillTokens > 0),
                g.period * 1e6);
}

struct Figures {
    double prefill = 0, decode = 0;
};

Figures perGpu(const std::string& model, bool print = false, double context = kProfileContext) {
    Figures f;
    // Prefill: EP32, TP1, 4K prompts, 16K tokens per GPU: one iteration of 32 x 16,384 tokens.
    const Deployment p = buildDeployment(deepseektest::project(32, settings(32, model)), 4096);
    f.prefill = 16384 / p.pools[0].timing->stepSeconds(deepseektest::prefillShape(32));
    // Decode: EP128, TP1, 128 requests per GPU at `context` tokens each.
    const Deployment d = buildDeployment(deepseektest::project(128, settings(128, model)), 4096);
    f.decode = 128 / d.pools[0].timing->stepSeconds(deepseektest::decodeShape(128, 128, context));
    if (print) {
        printOperations("prefill EP32", p, deepseektest::prefillShape(32));
        printOperations("decode EP128", d, deepseektest::decodeShape(128, 128, context));
    }
    std::printf("%s, decode context %.0f: prefill %.0f tokens/GPU/s (profile %.0f, %+.1f%%), "
                "decode %.0f (profile "
                "%.0f, %+.1f%%)\n",
                model.c_str(), context, f.prefill, kPrefillProfile,
                (f.prefill / kPrefillProfile - 1) * 100, f.decode, kDecodeProfile,
                (f.decode / kDecodeProfile - 1) * 100);
    return f;
}

} // namespace

TEST(DeepSeekProfile, TheRooflineBoundsBothProfileFigures) {
    const Figures r = perGpu("roofline");
    EXPECT_GT(r.prefill, kPrefillProfile);
    EXPECT_GT(r.decode, kDecodeProfile);
}

TEST(DeepSeekProfile, PrefillIsWithin10AndDecodeWithin24Percent) {
    // Measured kernels, the kernel latency and the kernels the profile shows (rotary, top-k), the
    // KV-cache writes, MLA prefill's key concatenation, the scatter and gather around the
    // contiguous grouped GEMMs, the all-to-all over the NICs (decode's at DeepEP's published
    // low-latency rate: DeepEpsLowLatencyRowSetsTheDecodeAllToAll), DeepSeek's two-batch
    // schedule, nothing fitted to either row: prefill +9.8% (within the 15%), decode
    // +23.6% at one query token per request, InferSim's count (not within: every GEMM at its
    // published best, no idle gaps between kernels or steps; docs/serving.md). As the profile
    // ran it, two query tokens per request counted as its figure counts them, decode is within:
    // DecodeAsTheProfileRanItIsWithin15Percent. Both are tighter than the roofline's +57% and
    // +82%.
    const Figures f = perGpu("operations", true);
    const Figures r = perGpu("roofline");
    EXPECT_NEAR(f.prefill / kPrefillProfile - 1, 0.098, 0.01);
    EXPECT_NEAR(f.decode / kDecodeProfile - 1, 0.236, 0.01);
    EXPECT_LT(f.prefill / kPrefillProfile - 1, 0.15);
    EXPECT_LT(f.prefill - kPrefillProfile, 0.6 * (r.prefill - kPrefillProfile));
    EXPECT_LT(f.decode - kDecodeProfile, 0.6 * (r.decode - kDecodeProfile));
}

TEST(DeepSeekProfile, DecodeAsTheProfileRanItIsWithin15Percent) {
    // The profile decodes two query tokens per request (MTP: DecodeKernelsAgainstTheProfile), 128
    // requests per GPU at 4,096 positions. Its published figure (the SGLang team's, 18,598 tokens/s
    // per node) counts accepted tokens: the same blog sets its own simulated-MTP run, counted at
    // its stated 60% acceptance, against it ("just 6.6% below": 17,373 / 18,598), and 18,598 / 8
    // x 87.32 ms (the profile's 61 layers) / 128 = 1.59 tokens per request per step. So the step
    // of 256 query tokens per GPU, counted at 1.6 per request, against 2,324: +9.2% (the module
    // that drafts the second token, one more MoE layer, is not run: with it about +7%).
    const Deployment d =
        buildDeployment(deepseektest::project(128, settings(128, "operations")), 4096);
    const double step =
        d.pools[0].timing->stepSeconds(deepseektest::decodeShape(128, 256, kProfileContext));
    const double error = 128 * 1.6 / step / kDecodeProfile - 1;
    std::printf("decode as the profile ran it: step %.2f ms, 128 x 1.6 / step = %.0f tokens/GPU/s "
                "(profile %.0f, %+.1f%%)\n",
                step * 1e3, 128 * 1.6 / step, kDecodeProfile, error * 100);
    EXPECT_LT(std::abs(error), 0.15);
    EXPECT_NEAR(error, 0.092, 0.01);
    // The figure's own arithmetic: the accepted tokens per request over the profile's layers.
    EXPECT_NEAR(kDecodeProfile * 87.32e-3 / 128, 1.6, 0.02);
}

TEST(DeepSeekProfile, NormalKernelsSendOneCopyPerNodeReached) {
    // EP32 on 4 nodes of 64 experts each, top-8 of 256, uniform routing: a token misses a node
    // with probability C(192, 8) / C(256, 8) = prod (192 - i) / (256 - i), i < 8, so it reaches
    // 4 (1 - 0.0964) = 3.61 nodes; the low-latency kernels send one copy per expert, 8.
    const Deployment p =
        buildDeployment(deepseektest::project(32, settings(32, "operations")), 4096);
    const auto& t = dynamic_cast<const ColocatedTiming&>(*p.pools[0].timing);
    double miss = 1;
    for (int i = 0; i < 8; ++i)
        miss *= (192.0 - i) / (256.0 - i);
    EXPECT_NEAR(miss, 0.0964, 1e-4);
    EXPECT_DOUBLE_EQ(t.tokenCopies(true), 4 * (1 - miss));
    EXPECT_DOUBLE_EQ(t.tokenCopies(false), 8);
}

TEST(DeepSeekProfile, DecodeKernelsAgainstTheProfile) {
    // DeepSeek's decoding profile, kernel by kernel (resources/compute/decode-kernels-h800.csv:
    // one MoE layer of one micro-batch on H800). Its micro-batch is 64 requests with two query
    // tokens each (MTP): FlashMLA's 255 us is 64 x 2 x 4,096 positions x 128 heads x 2 x
    // (576 + 512) FLOPs at 573 TFLOPS, its published 580 (one token: 126 us), and the routed
    // GEMM's 512 rows per expert are 64 x 2 x 128 GPUs x 8 / 256. So the operation model is set
    // the profile's shape: 256 query tokens per GPU per step, 4K context each.
    const Deployment d =
        buildDeployment(deepseektest::project(128, settings(128, "operations")), 4096);
    const auto& t = dynamic_cast<const ColocatedTiming&>(*d.pools[0].timing);
    std::vector<OpTime> ops;
    operationSeconds(t.cost(), fraction(deepseektest::decodeShape(128, 256, 4096), 2), &ops);
    const auto perLayer = [&](const char* name, double layers) {
        for (const OpTime& op : ops)
            if (op.name == name)
                return op.seconds / layers;
        ADD_FAILURE() << "no operation " << name;
        return 0.0;
    };
    const auto profile = [](const char* operation) {
        double s = 0;
        for (const hardware::ProfileKernel& k : hardware::profileKernels())
            if (k.operation == operation)
                s += k.seconds;
        EXPECT_GT(s, 0) << operation;
        return s;
    };
    struct Row {
        const char* ours;
        double layers;
        const char* theirs;
        double tolerance; ///< relative; < 0: ours is known to be shorter (printed, not bounded)
    };
    const Row rows[] = {
        {"q_a + kv_a", 61, "q_a + kv_a", 0.25},
        {"q_b", 61, "q_b", 0.15},
        {"W_UK (decode)", 61, "W_UK", 0.45},
        {"attention decode (MLA)", 61, "attention core", 0.05},
        {"W_UV (decode)", 61, "W_UV", 0.45},
        {"o_proj", 61, "o_proj", 0.15},
        {"router", 58, "router", 0.25},
        {"rotary", 61, "rotary embedding", -1},
        {"router top-k", 58, "router top-k", -1},
        {"routed experts up", 58, "routed experts up", -1},
        {"routed experts down", 58, "routed experts down", -1},
    };
    std::printf("decode, one MoE layer, one micro-batch of 64 requests x 2 tokens:\n");
    double oursSum = 0, theirsSum = 0;
    for (const Row& r : rows) {
        const double ours = perLayer(r.ours, r.layers), theirs = profile(r.theirs);
        oursSum += ours;
        theirsSum += theirs;
        std::printf("  %-24s ours %6.1f us  profile %6.1f us  %+6.1f%%\n", r.ours, ours * 1e6,
                    theirs * 1e6, (ours / theirs - 1) * 100);
        if (r.tolerance > 0)
            EXPECT_NEAR(ours / theirs, 1, r.tolerance) << r.ours;
        else
            EXPECT_LT(ours, theirs) << r.ours;
    }
    // The norms (input, latent and post-attention) and the casts (q_b's and o_proj's inputs):
    // element-wise kernels, each the kernel latency plus its bytes at 0.8 of HBM.
    const double norms =
        profile("input norm") + profile("q and kv latent norms") + profile("post-attention norm");
    std::printf("  %-24s ours %6.1f us  profile %6.1f us\n", "norms", perLayer("norms", 61) * 1e6,
                norms * 1e6);
    EXPECT_NEAR(perLayer("norms", 61) / norms, 1, 0.35); // ours 11.9 us, the profile 9
    std::printf("  the rows above: ours %.0f us, profile %.0f us (%+.1f%%)\n", oursSum * 1e6,
                theirsSum * 1e6, (oursSum / theirsSum - 1) * 100);
    // The routed experts: DeepSeek's masked grouped GEMMs ran 1.40 and 1.19 times the time of
    // DeepGEMM's published row for this very shape (2 groups of 512, 57.8 and 32.8 us).
    EXPECT_NEAR(perLayer("routed experts up", 58), 2.0 * 2 * 512 * 4096 * 7168 / 1040e12, 1e-6);
    EXPECT_NEAR(profile("routed experts up") / (2.0 * 2 * 512 * 4096 * 7168 / 1040e12), 1.40, 0.02);
    // The step at the profile's shape, against the figure: what it gives depends on what the
    // published 2,324 counts (one token per request per step, both, or the accepted ones).
    const double step = t.stepSeconds(deepseektest::decodeShape(128, 256, 4096));
    // 128 x 1.6: the SGLang team's own simulated MTP counts 60% acceptance; if their "DeepSeek
    // Profile" figure counts the same, the profile's step is 128 x 1.6 / 2,324.75 = 88.1 ms.
    std::printf("step of 256 query tokens per GPU: %.2f ms: 128 / step = %.0f, 256 / step = %.0f, "
                "128 x 1.85 / step = %.0f, 128 x 1.6 / step = %.0f tokens/GPU/s (profile figure "
                "%.0f)\n",
                step * 1e3, 128 / step, 256 / step, 128 * 1.85 / step, 128 * 1.6 / step,
                kDecodeProfile);
    EXPECT_GT(step, 1.5 * t.stepSeconds(deepseektest::decodeShape(128, 128, 4096)));
    // The reading's step figures, in its H800 column (its source, zdszero.github.io's
    // sources/Computer/Artificial_Intelligence/deepseek_profile.md, puts both there): 96 ms end
    // to end, 87.32 ms for the 61 layers. Ours at the same shape: the step less the LM head of
    // each micro-batch. The 8.68 ms outside the layers hold the MTP module (one more layer and
    // its LM head), the LM heads, sampling and any idle time; we run none of the MTP module.
    OpPhases half;
    operationSeconds(t.cost(), fraction(deepseektest::decodeShape(128, 256, 4096), 2), nullptr,
                     &half);
    const double layers = step - 2 * half.head;
    std::printf("the profile's step: 96 ms end to end, 87.32 ms for 61 layers; ours %.2f ms, %.2f "
                "ms for 61 layers (%+.1f%%), LM heads %.2f ms\n",
                step * 1e3, layers * 1e3, (layers / 87.32e-3 - 1) * 100, 2 * half.head * 1e3);
    EXPECT_LT(layers, 87.32e-3);
    EXPECT_NEAR(layers / 87.32e-3 - 1, -0.092, 0.015); // 79.29 ms
    // Counting 1.6 accepted tokens per request per step, the profile's shape is within 15%.
    EXPECT_NEAR(128 * 1.6 / step / kDecodeProfile - 1, 0.092, 0.01);
}

TEST(DeepSeekProfile, TheKernelLatencyIsTheProfilesShortestKernel) {
    // Every element-wise kernel takes the latency plus its bytes at 0.8 of HBM: 2 us, the
    // shortest kernels of the decode profile (RMSNorm of the latents, a quantisation, the
    // split-K reduction). With it, the profile's FP8 quantisation of o_proj's input (128 x 16,384
    // elements, read BF16, written FP8: 6.3 MB) is 2 us + 6.3 MB / 2,680 GB/s = 4.3 us; measured 5.
    EXPECT_DOUBLE_EQ(hardware::kernelLatencySeconds(), 2e-6);
    const double quant = 2e-6 + 3.0 * 128 * 16384 / (3350e9 * 0.8);
    EXPECT_NEAR(quant / 5e-6, 1, 0.15);
}

TEST(DeepSeekProfile, TheProfilesDecodeContextIsFourK) {
    // The profile's FlashMLA kernel takes 255 us for one micro-batch of 128 query rows (64
    // requests x 2 tokens with MTP; the routed GEMMs' 512 rows per expert fix the 128), each row
    // 128 heads x 2 x (576 + 512) FLOPs per cached position. At 4,096 positions that is 573
    // TFLOPS, under FlashMLA's published 580 for H800; at DeepSeek's production average of 4,989
    // it would be 698, above anything FlashMLA published for H800. So the profile decodes at
    // about 4K of context, as the SGLang team's table gives it, and 4,989 is production's.
    double kernel = 0;
    for (const hardware::ProfileKernel& k : hardware::profileKernels())
        if (k.operation == "attention core")
            kernel += k.seconds;
    ASSERT_NEAR(kernel, 255e-6, 1e-9);
    const hardware::MlaDecodeRate* flashMla = hardware::findMlaDecodeRate("h800");
    ASSERT_NE(flashMla, nullptr);
    const double flopsPerPosition = 128.0 * 128 * 2 * (576 + 512);
    const double at4k = flopsPerPosition * kProfileContext / kernel;
    const double atProduction = flopsPerPosition * kProductionContext / kernel;
    std::printf("FlashMLA in the profile: %.0f TFLOPS at 4,096 positions, %.0f at 4,989 (published "
                "peak %.0f)\n",
                at4k / 1e12, atProduction / 1e12, flashMla->tflops);
    EXPECT_LT(at4k, flashMla->tflops * 1e12);
    EXPECT_GT(at4k, 0.95 * flashMla->tflops * 1e12);
    EXPECT_GT(atProduction, 1.15 * flashMla->tflops * 1e12);
}

TEST(DeepSeekProfile, DecodeAtInferSimsSetup) {
    // InferSim's DeepSeek-V3 decode example (example/deepseek-v3/dsv3_decode.sh, models/model.py
    // of alibaba/InferSim): two micro-batches of 64 requests per GPU on 128 H800, one token per
    // request per step, every request at the average context 4,096 + 1,786 / 2 = 4,989, which is
    // DeepSeek's production average, not the profile's (TheProfilesDecodeContextIsFourK). InferSim
    // also adds 5 ms per step "for scheduler": an assumption of that simulator, not a
    // measurement, so it is not our default (`step-overhead` stays 0; docs/serving.md).
    const Figures f = perGpu("operations", false, kProductionContext);
    const Figures at4k = perGpu("operations", false, kProfileContext);
    EXPECT_GT(f.decode, kDecodeProfile);
    EXPECT_LT(f.decode, at4k.decode); // a longer context: more of the cache read per token
    EXPECT_NEAR(f.decode / kDecodeProfile - 1, 0.150, 0.01); // at the target's bound
    // `step-overhead` adds its time to every step, exactly.
    const auto step = [](const std::string& extra) {
        const Deployment d =
            buildDeployment(deepseektest::project(128, settings(128, "operations") + extra), 4096);
        return d.pools[0].timing->stepSeconds(deepseektest::decodeShape(128, 128, 4989));
    };
    const double plain = step(""), withFive = step("step-overhead: 5 ms\n");
    EXPECT_NEAR(withFive - plain, 5e-3, 1e-12);
    std::printf("the profile's setup (4,096 context): step %.2f ms\n", 128 / at4k.decode * 1e3);
    std::printf("InferSim's setup (4,989 context, one token per request): step %.2f ms, %.0f "
                "tokens/GPU/s (%+.1f%%); with InferSim's 5 ms per step: %.2f ms, %.0f (%+.1f%%)\n",
                plain * 1e3, 128 / plain, (128 / plain / kDecodeProfile - 1) * 100, withFive * 1e3,
                128 / withFive, (128 / withFive / kDecodeProfile - 1) * 100);
}

TEST(DeepSeekProfile, DecodeLayerAgainstTheProfilesSchedule) {
    // One MoE layer at the profile's own shape (256 query tokens per GPU, 4K context), stage by
    // stage: the profile's kernels (decode-kernels-h800.csv) against ours, each micro-batch
    // running DeepSeek's decode schedule 2 [max(s + a_in, d) + r + max(a_core, c)].
    double s = 0, aIn = 0, aCore = 0, r = 0, d = 0, c = 0;
    for (const hardware::ProfileKernel& k : hardware::profileKernels()) {
        const std::string& o = k.operation;
        if (o.rfind("shared experts", 0) == 0)
            s += k.seconds;
        else if (o.rfind("routed experts", 0) == 0)
            r += k.seconds;
        else if (o == "dispatch")
            d += k.seconds;
        else if (o == "combine")
            c += k.seconds;
        else if (o == "attention core" || o == "W_UV" || o == "o_proj input" || o == "o_proj" ||
                 o == "post-attention norm" || o == "router" || o == "router top-k")
            aCore += k.seconds;
        else
            aIn += k.seconds;
    }
    const double theirs = 2 * (std::max(s + aIn, d) + r + std::max(aCore, c));
    // 2 (187 + 128 + 394) us: the dispatch and the combine set the layer, the computation beside
    // them waits. Over the 58 MoE layers, 82.2 ms of the reading's 87.32 ms for all 61.
    EXPECT_NEAR(theirs, 1418e-6, 1e-9);
    EXPECT_NEAR(58 * theirs / 87.32e-3, 0.94, 0.01);
    const Deployment dep =
        buildDeployment(deepseektest::project(128, settings(128, "operations")), 4096);
    const auto& t = dynamic_cast<const ColocatedTiming&>(*dep.pools[0].timing);
    const LayerStages g = t.layerStages(deepseektest::decodeShape(128, 256, 4096));
    const struct {
        const char* name;
        double ours, theirs;
    } rows[] = {{"shared experts", g.shared, s},
                {"attention in", g.attentionIn, aIn},
                {"dispatch", g.dispatch, d},
                {"routed experts", g.routed, r},
                {"attention core, router", g.attentionCore, aCore},
                {"combine", g.combine, c},
                {"the layer, both micro-batches", g.period, theirs}};
    std::printf("one MoE layer at the profile's shape, per micro-batch:\n");
    for (const auto& row : rows)
        std::printf("  %-30s ours %7.1f us  profile %7.1f us  %+6.1f us\n", row.name,
                    row.ours * 1e6, row.theirs * 1e6, (row.ours - row.theirs) * 1e6);
    // Ours is shorter in the routed experts' stage (the profile's GEMMs ran 1.40 and 1.19 times
    // DeepGEMM's published row) and in the combine's (DeepEP's kernel took 394 us in place, its
    // README 369, ours 367); in the dispatch's ours is longer (187 in place, 192 published, ours
    // 192: at this shape, 128 tokens per GPU, ours is DeepEP's published row).
    const double dispatchStage = 2 * (d - std::max(g.shared + g.attentionIn, g.dispatch));
    const double routedStage = 2 * (r - g.routed);
    const double combineStage = 2 * (c - std::max(g.attentionCore, g.combine));
    const double gap = theirs - g.period;
    std::printf("  the layer is %.0f us shorter: dispatch stage %.0f us, routed experts %.0f us, "
                "combine stage %.0f us; x 58 layers: %.1f ms\n",
                gap * 1e6, dispatchStage * 1e6, routedStage * 1e6, combineStage * 1e6,
                58 * gap * 1e3);
    EXPECT_NEAR(dispatchStage + routedStage + combineStage, gap, 1e-12);
    EXPECT_GT(routedStage, 0.5 * gap); // the routed GEMMs in place: 61 of 107 us
    EXPECT_LT(dispatchStage, 0);
    EXPECT_GT(combineStage, 0.4 * gap);
    EXPECT_NEAR(g.dispatch / 192e-6, 1, 0.05);
    EXPECT_NEAR(g.combine / 369e-6, 1, 0.05);
}
