// Fitting tp x pp x dp (x ep) to a platform's NPU count: the current split is kept while it
// still divides the count, otherwise the least model parallelism that fits in memory wins, and
// a count that nothing fits is explained.
#include "generate/ParallelismFit.h"

#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/TransformerCounts.h"

#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

void expectSplit(const ParallelFit& fit, int tp, int pp, int dp, int ep = 1) {
    ASSERT_TRUE(fit.fits) << fit.reason;
    EXPECT_EQ(fit.spec.parallel.tp, tp) << fit.reason;
    EXPECT_EQ(fit.spec.parallel.pp, pp) << fit.reason;
    EXPECT_EQ(fit.spec.parallel.dp, dp) << fit.reason;
    EXPECT_EQ(fit.spec.parallel.ep, ep) << fit.reason;
    EXPECT_NO_THROW(validate(fit.spec)) << fit.reason;
}

// GPT-2 124M on 8 NPUs from a split that cannot be kept (GPT-3's t8 p8 = 64 does not divide 8).
// Weights, gradients and Adam states are 2 + 2 + 12 bytes x 124 M = 1.9 GiB: one NPU holds the
// model, so no model parallelism is needed and all 8 NPUs are data parallel (tp 1 pp 1 dp 8),
// which communicates once per iteration instead of on every layer.
TEST(ParallelismFit, Gpt2SmallOnEightNpusIsDataParallel) {
    GeneratorSpec s = presetSpec("gpt2-124m");
    s.parallel.tp = 8;
    s.parallel.pp = 8;
    const ParallelFit fit = fitParallelism(s, 8, BatchRule::MicroBatchesFixed);
    expectSplit(fit, 1, 1, 8);
    EXPECT_FALSE(fit.kept);
    EXPECT_TRUE(fit.fitsMemory);
    EXPECT_NE(fit.reason.find("least model parallelism"), std::string::npos) << fit.reason;
    // Micro-batches per pipeline are kept, so the global batch follows dp.
    EXPECT_EQ(fit.spec.microBatches(), s.microBatches());
}

// The user's tp 2 still divides 8 NPUs and the 12 heads: it is kept, dp fills the rest.
TEST(ParallelismFit, KeepsTheCurrentSplitWhileItDividesTheCount) {
    GeneratorSpec s = presetSpec("gpt2-124m");
    s.parallel.tp = 2;
    const ParallelFit fit = fitParallelism(s, 8, BatchRule::MicroBatchesFixed);
    expectSplit(fit, 2, 1, 4);
    EXPECT_TRUE(fit.kept);
    EXPECT_NE(fit.reason.find("kept tp 2"), std::string::npos) << fit.reason;
    // 12 NPUs: tp 2 still divides, dp 6.
    expectSplit(fitParallelism(s, 12, BatchRule::MicroBatchesFixed), 2, 1, 6);
}

TEST(ParallelismFit, OneNpuIsOneByOneByOne) {
    GeneratorSpec s = presetSpec("gpt2-124m");
    s.parallel.tp = 4;
    s.parallel.pp = 2;
    expectSplit(fitParallelism(s, 1, BatchRule::MicroBatchesFixed), 1, 1, 1);
    // GPT-3 on one NPU: the only split, out of memory, and the reason says so.
    const ParallelFit gpt3 =
        fitParallelism(presetSpec("gpt3-175b"), 1, BatchRule::MicroBatchesFixed);
    expectSplit(gpt3, 1, 1, 1);
    EXPECT_FALSE(gpt3.fitsMemory);
    EXPECT_NE(gpt3.reason.find("fits in memory"), std::string::npos) << gpt3.reason;
}

// Llama-3.2 1B on 64 NPUs: 1.24 B parameters, ZeRO-1 states over dp; fits one NPU, so dp 64,
// whether the preset's d8 is kept or the fit starts from a split that does not divide 64.
TEST(ParallelismFit, Llama1BOnSixtyFourNpus) {
    const GeneratorSpec s = presetSpec("llama3.2-1b");
    const ParallelFit kept = fitParallelism(s, 64, BatchRule::MicroBatchesFixed);
    expectSplit(kept, 1, 1, 64);
    EXPECT_TRUE(kept.kept);
    GeneratorSpec wide = s;
    wide.parallel.tp = 8;
    wide.parallel.pp = 16; // 128 NPUs: does not divide 64
    const ParallelFit fresh = fitParallelism(wide, 64, BatchRule::MicroBatchesFixed);
    expectSplit(fresh, 1, 1, 64);
    EXPECT_TRUE(fresh.fitsMemory);
}

// 7 is prime: tp is a power of two, so 1; pp 7 does not split 12 layers; so dp 7. With the
// global batch fixed at 512 sequences, 512 is not a multiple of 7: nothing fits, and the reason
// names the count, the batch and the layers.
TEST(ParallelismFit, PrimeCountFallsBackToDataParallelOrExplains) {
    GeneratorSpec s = presetSpec("gpt2-124m");
    expectSplit(fitParallelism(s, 7, BatchRule::MicroBatchesFixed), 1, 1, 7);

    s.training.microBatch = 1;
    s.training.globalBatch = 512;
    const ParallelFit none = fitParallelism(s, 7, BatchRule::GlobalBatchFixed);
    EXPECT_FALSE(none.fits);
    EXPECT_EQ(none.spec.parallel.dp, s.parallel.dp); // unchanged
    EXPECT_NE(none.reason.find("7 NPUs"), std::string::npos) << none.reason;
    EXPECT_NE(none.reason.find("global batch 512"), std::string::npos) << none.reason;
    EXPECT_NE(none.reason.find("12 layers"), std::string::npos) << none.reason;
    // 8 divides 512: the global batch stays 512 and dp 8 divides it.
    const ParallelFit eight = fitParallelism(s, 8, BatchRule::GlobalBatchFixed);
    expectSplit(eight, 1, 1, 8);
    EXPECT_EQ(eight.spec.training.globalBatch, 512);
}

// Beyond the NPU limit no split is tried (trying every pp up to the count was seconds of work
// for a count that would be refused anyway); the reason names the limit and the count.
TEST(ParallelismFit, CountsBeyondTheNpuLimitAreRefusedBeforeSearching) {
    const GeneratorSpec s = presetSpec("gpt2-124m");
    for (int npus : {(1 << 20) + 1, 2000000, 2147483647}) {
        const ParallelFit fit = fitParallelism(s, npus, BatchRule::MicroBatchesFixed);
        EXPECT_FALSE(fit.fits) << npus;
        std::string expected = "expected at most 1048576 NPUs, found ";
        expected += std::to_string(npus);
        EXPECT_EQ(fit.reason.rfind(expected, 0), 0u) << fit.reason;
    }
    expectSplit(fitParallelism(s, 1 << 20, BatchRule::MicroBatchesFixed), 1, 1, 1 << 20);
}

// 12 heads: tp 8 does not divide them. A model that needs model parallelism of 8 on 8 NPUs
// therefore cannot use tp 8; with HBM too small for anything, the fit reports the split that
// needs the least memory, using all 8 NPUs for the model.
TEST(ParallelismFit, TensorParallelismMustSplitTheHeads) {
    GeneratorSpec s = presetSpec("gpt2-124m");
    s.parallel.tp = 16; // the current split does not divide 8: choose afresh
    s.compute.hbmCapacityGiB = 0.001;
    const ParallelFit fit = fitParallelism(s, 8, BatchRule::MicroBatchesFixed);
    ASSERT_TRUE(fit.fits) << fit.reason;
    EXPECT_FALSE(fit.fitsMemory);
    EXPECT_NE(fit.spec.parallel.tp, 8);
    EXPECT_EQ(fit.spec.parallel.npus(), 8);
    EXPECT_NE(fit.reason.find("no split of 8 NPUs fits in memory"), std::string::npos)
        << fit.reason;
}

// At equal model-parallel degree tensor parallelism comes first (no bubble, inside a node). With
// HBM between the memory of tp 1 and tp 2 (both pp 1), the fit is tp 2 pp 1, not tp 1 pp 2.
TEST(ParallelismFit, TensorBeforePipelineAtEqualDegree) {
    GeneratorSpec s = presetSpec("gpt2-350m");
    s.parallel.tp = 3; // not a valid current split: start from scratch
    auto memory = [&](int tp, int pp) {
        GeneratorSpec t = s;
        t.parallel.tp = tp;
        t.parallel.pp = pp;
        t.parallel.dp = 8 / (tp * pp);
        t.training.globalBatch = t.training.microBatch * t.parallel.dp * 8;
        return computeFigures(t).memory.total();
    };
    const double one = memory(1, 1), two = memory(2, 1);
    ASSERT_LT(two, one);
    s.compute.hbmCapacityGiB = (one + two) / 2 / double(1ull << 30);
    expectSplit(fitParallelism(s, 8, BatchRule::MicroBatchesFixed), 2, 1, 4);
}

// OLMoE: ep is carved out of dp and divides the 64 experts. The preset's ep 8 is kept on 16
// NPUs (dp 16); on 4 NPUs ep 8 no longer divides dp 4 and becomes gcd(4, 64) = 4.
TEST(ParallelismFit, ExpertParallelismFollowsDataParallelism) {
    const GeneratorSpec s = presetSpec("olmoe-1b-7b");
    expectSplit(fitParallelism(s, 8, BatchRule::MicroBatchesFixed), 1, 1, 8, 8);
    expectSplit(fitParallelism(s, 16, BatchRule::MicroBatchesFixed), 1, 1, 16, 8);
    expectSplit(fitParallelism(s, 4, BatchRule::MicroBatchesFixed), 1, 1, 4, 4);
}

TEST(ParallelismFit, DataParallelOnlyModelsTakeEveryNpuAsDp) {
    expectSplit(fitParallelism(presetSpec("resnet50"), 24, BatchRule::MicroBatchesFixed), 1, 1, 24);
    const ParallelFit none =
        fitParallelism(presetSpec("resnet50"), 0, BatchRule::MicroBatchesFixed);
    EXPECT_FALSE(none.fits);
    EXPECT_FALSE(none.reason.empty());
}

// Published parameter counts of the released checkpoints (Hugging Face): GPT-2 124,439,808;
// GPT-2 medium 354,823,168; Llama-3.2-1B 1,235,814,400. OLMoE-1B-7B: "6.9 B total, 1.3 B
// active" (its QK-norm, 2 x 16 x 2,048 = 65,536 parameters, is not modelled).
double transformerParameterCount(const char* preset) {
    return transformerParameters(presetSpec(preset).model).total;
}

TEST(DemonstrationPresets, ParametersMatchTheReleasedCheckpoints) {
    EXPECT_DOUBLE_EQ(transformerParameterCount("gpt2-124m"), 124439808.0);
    EXPECT_DOUBLE_EQ(transformerParameterCount("gpt2-350m"), 354823168.0);
    EXPECT_DOUBLE_EQ(transformerParameterCount("llama3.2-1b"), 1235814400.0);
    const ModelFigures olmoe = computeFigures(presetSpec("olmoe-1b-7b"));
    EXPECT_NEAR(olmoe.parameters / 6.92e9, 1.0, 0.005);
    EXPECT_NEAR(olmoe.activeParameters / 1.28e9, 1.0, 0.005);
}

TEST(DemonstrationPresets, FitEightNpusAndMemory) {
    for (const char* name : {"gpt2-124m", "gpt2-350m", "llama3.2-1b", "olmoe-1b-7b"}) {
        const ModelFigures f = computeFigures(presetSpec(name));
        EXPECT_EQ(f.npus, 8) << name;
        EXPECT_FALSE(f.outOfMemory) << name;
    }
}

TEST(BuiltModelName, SaysCustomOnceTheArchitectureDiffers) {
    const ModelSpec gpt2 = presetSpec("gpt2-124m").model;
    EXPECT_EQ(builtModelName(gpt2, gpt2), "GPT-2 124M");
    ModelSpec shorter = gpt2;
    shorter.sequence = 256; // a training choice: still GPT-2 124M
    EXPECT_EQ(builtModelName(shorter, gpt2), "GPT-2 124M");
    ModelSpec deeper = gpt2;
    deeper.layers = 24;
    EXPECT_EQ(builtModelName(deeper, gpt2), "custom (from GPT-2 124M)");
    deeper.name = builtModelName(deeper, gpt2);
    ModelSpec deeper2 = deeper;
    deeper2.hidden = 1024;
    EXPECT_EQ(builtModelName(deeper2, deeper), "custom (from GPT-2 124M)");
}

} // namespace
} // namespace astrolabe::generate
