// Activation bytes per layer (generate/ActivationMemory.h): Korthikanti et al.'s count written
// term by term, checked in closed form on the layers it generalises to. Every case is 16-bit,
// micro-batch 1, so the figures are bytes; s is the sequence, h the hidden size, d the head size.
#include "generate/ActivationMemory.h"

#include "generate/GeneratorValues.h"
#include "generate/ModelPresets.h"

#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

GeneratorSpec withSplit(const std::string& preset, int tp, bool sp, bool flash) {
    GeneratorSpec s = presetSpec(preset);
    s.parallel.tp = tp;
    s.parallel.pp = 1;
    s.parallel.dp = 1;
    s.parallel.ep = 1;
    s.parallel.sequenceParallel = sp;
    s.parallel.recompute = false;
    s.parallel.selectiveRecompute = false;
    s.training.microBatch = 1;
    s.training.flashAttention = flash;
    return s;
}

} // namespace

// Llama-3 8B: GQA 32 / 8 heads of 128, SwiGLU 14,336, no dropout. Per token: the norms' and the
// blocks' inputs 4h elements, Q and the projection input 2h, K and V 2 x 8 x 128, the MLP 3F.
// At tp 1 that is 12h + 4 x 1,024 + 6F = 34h bytes, Korthikanti's GPT figure by coincidence.
TEST(ActivationMemory, LlamaThreeEightBIsThirtyFourSbhByItsOwnTerms) {
    const double s = 8192, h = 4096, d = 128, kv = 8, F = 14336;
    EXPECT_DOUBLE_EQ(layerActivationBytes(withSplit("llama3-8b", 1, false, true)),
                     s * (8 * h + 4 * h + 4 * kv * d + 6 * F));
    EXPECT_DOUBLE_EQ(layerActivationBytes(withSplit("llama3-8b", 1, false, true)), 34 * s * h);
    // tp 8 without sequence parallelism: the 8h of inputs stay whole on every rank, each rank
    // keeps one K and one V head.
    EXPECT_DOUBLE_EQ(layerActivationBytes(withSplit("llama3-8b", 8, false, true)),
                     s * (8 * h + (4 * h + 6 * F) / 8 + 4 * d));
    // tp 16 with sequence parallelism: still one KV head per rank (8 heads cannot split 16
    // ways), where a plain 1 / tp would give half of one.
    EXPECT_DOUBLE_EQ(layerActivationBytes(withSplit("llama3-8b", 16, true, true)),
                     s * ((8 * h + 4 * h + 6 * F) / 16 + 4 * d));
}

// Without fused attention the scores are stored: softmax output, and with dropout its one-byte
// mask and its output (Korthikanti's 5 a s^2 b); without dropout the softmax output alone. The
// dropout masks of the two blocks are one byte per element of h each.
TEST(ActivationMemory, DropoutAddsItsMasksAndTheScoresDropoutCopy) {
    const double s = 8192, h = 4096, a = 32, d = 128, kv = 8, F = 14336;
    GeneratorSpec without = withSplit("llama3-8b", 1, false, false);
    ASSERT_FALSE(without.model.dropout);
    const double common = s * (8 * h + 4 * h + 4 * kv * d + 6 * F);
    EXPECT_DOUBLE_EQ(layerActivationBytes(without), common + 2 * a * s * s);
    GeneratorSpec with = without;
    with.model.dropout = true;
    EXPECT_DOUBLE_EQ(layerActivationBytes(with), common + 2 * s * h + 5 * a * s * s);
    // The CLI's and project's --dropout reaches the same field.
    const GeneratorSpec fromFlag =
        generatorSpecFrom("llama3-8b", {{"dropout", "true"}, {"flash-attention", "true"}});
    EXPECT_TRUE(fromFlag.model.dropout);
    EXPECT_TRUE(presetSpec("gpt3-175b").model.dropout);
}

// Mixtral 8x7B: top-2 of 8 SwiGLU experts of 14,336. Each routed copy keeps the expert's input
// and output (h each) and its 3F inner activations; the experts are token-parallel over tp, so
// their part is split over tp with or without sequence parallelism.
TEST(ActivationMemory, MoeLayersKeepTopKCopiesOfTheExpertActivations) {
    const double s = 4096, h = 4096, d = 128, kv = 8, Fe = 14336, k = 2;
    const double attention = 8 * h + 4 * h + 4 * kv * d, experts = k * 2 * (2 * h + 3 * Fe);
    EXPECT_DOUBLE_EQ(layerActivationBytes(withSplit("mixtral-8x7b", 1, false, true), true),
                     s * (attention + experts));
    // 63 h against the 34 h of Korthikanti's GPT layer.
    EXPECT_DOUBLE_EQ(s * (attention + experts) / (s * h), 63);
    EXPECT_DOUBLE_EQ(layerActivationBytes(withSplit("mixtral-8x7b", 2, true, true), true),
                     s * (attention + experts) / 2);
    EXPECT_DOUBLE_EQ(layerActivationBytes(withSplit("mixtral-8x7b", 2, false, true), true),
                     s * (8 * h + (4 * h + 4 * kv * d + experts) / 2));
}

// DeepSeek-V3: latent attention (q_lora 1,536, kv_lora 512, rope 64, 128 heads of 128) and MoE
// (top-8 of 2,048-wide experts plus one shared). Q and K are decompressed to 128 heads of
// 128 + 64, V to 128 heads of 128; the latents and their norms' outputs are kept whole.
TEST(ActivationMemory, LatentAttentionKeepsTheDecompressedHeadsAndTheLatents) {
    const GeneratorSpec spec = withSplit("deepseek-v3", 1, false, true);
    const ModelSpec& m = spec.model;
    ASSERT_EQ(m.qLoraRank, 1536);
    ASSERT_EQ(m.kvLoraRank, 512);
    ASSERT_EQ(m.ropeHeadDim, 64);
    ASSERT_EQ(m.headSize(), 128);
    const double s = 4096, h = 7168, a = 128, dqk = 192, dv = 128;
    const double latents = 2 * (2 * 1536 + 2 * 512 + 64);
    const double attention = 8 * h + latents + 2 * a * (dqk + dv) + 2 * a * (dqk + dv);
    const double moe = 8 * 2 * (2 * h + 3 * 2048) + 1 * 2 * 3 * 2048;
    EXPECT_DOUBLE_EQ(layerActivationBytes(spec, true), s * (attention + moe));
    EXPECT_DOUBLE_EQ(layerActivationBytes(spec, false), s * (attention + 6 * 18432));
}

// Full recomputation keeps the layer's input only, whatever the layer is.
TEST(ActivationMemory, FullRecomputationKeepsTheInput) {
    GeneratorSpec spec = withSplit("mixtral-8x7b", 4, true, true);
    spec.parallel.recompute = true;
    EXPECT_DOUBLE_EQ(layerActivationBytes(spec, true), 4096.0 * 4096 * 2 / 4);
    EXPECT_DOUBLE_EQ(layerActivationBytes(spec, false), 4096.0 * 4096 * 2 / 4);
}

} // namespace astrolabe::generate
