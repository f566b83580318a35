// Live figures against closed forms and published parameter counts.
#include "core/Error.h"
#include "generate/ActivationMemory.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/StageMemory.h"
#include "generate/TransformerCounts.h"
#include "generate/TransformerProgram.h"

#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

// Narayanan et al. (2021): P = 12 l h^2 (1 + 13/(12h) + (V + s)/(12 l h)) for GPT with tied
// embeddings and learned positions; our count also holds the final LayerNorm (2h).
TEST(Figures, Gpt3ParametersMatchNarayanan) {
    const GeneratorSpec s = presetSpec("gpt3-175b");
    const double l = 96, h = 12288, V = 51200, sq = 2048;
    const double closed = 12 * l * h * h * (1 + 13 / (12 * h) + (V + sq) / (12 * l * h)) + 2 * h;
    const ModelFigures f = computeFigures(s);
    EXPECT_NEAR(f.parameters / closed, 1.0, 1e-12);
    EXPECT_NEAR(f.parameters / 1e9, 174.6, 0.1);
}

// Published exact counts (Hugging Face checkpoints): Llama-2-70B 68,976,648,192;
// Mixtral-8x7B 46,702,792,704 (every weight counted once, no biases, untied head).
TEST(Figures, LlamaAndMixtralParametersMatchPublishedCounts) {
    EXPECT_DOUBLE_EQ(transformerParameters(presetSpec("llama2-70b").model).total, 68976648192.0);
    const ParameterCounts mixtral = transformerParameters(presetSpec("mixtral-8x7b").model);
    EXPECT_DOUBLE_EQ(mixtral.total, 46702792704.0);
    // Two of eight experts active: published "12.9 B active".
    EXPECT_NEAR(mixtral.active / 1e9, 12.9, 0.1);
}

// DeepSeek-V3 report: 671 B total, 37 B activated per token.
TEST(Figures, DeepSeekV3ParametersMatchTheReport) {
    const ParameterCounts p = transformerParameters(presetSpec("deepseek-v3").model);
    EXPECT_NEAR(p.total / 671e9, 1.0, 0.01);
    EXPECT_NEAR(p.active / 37e9, 1.0, 0.03);
}

// Model FLOPs = 72 B s l h^2 (1 + s/6h + V/12lh) exactly for GPT layers; 6NT agrees within the
// attention term s/6h (2.8 % for GPT-3).
TEST(Figures, FlopsMatchClosedForms) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    s.parallel.recompute = false;
    const ModelFigures f = computeFigures(s);
    const double B = 1536, sq = 2048, l = 96, h = 12288, V = 51200;
    const double megatron = 72 * B * sq * l * h * h * (1 + sq / (6 * h) + V / (12 * l * h));
    EXPECT_NEAR(f.modelFlops / megatron, 1.0, 1e-12);
    EXPECT_NEAR(f.megatronFlops / megatron, 1.0, 1e-15);
    EXPECT_NEAR(f.modelFlops / f.sixNT, 1 + sq / (6 * h), 0.01);
    EXPECT_NEAR(f.modelFlops, 3 * B * transformerForwardFlopsPerSequence(s.model), 1e-9 * megatron);

    s.parallel.recompute = true;
    const ModelFigures r = computeFigures(s);
    const double withRecompute = 96 * B * sq * l * h * h * (1 + sq / (6 * h) + V / (16 * l * h));
    EXPECT_NEAR(r.hardwareFlops / withRecompute, 1.0, 1e-12);
    EXPECT_DOUBLE_EQ(r.modelFlops, f.modelFlops);
}

// Korthikanti et al. (2022), 16-bit, per layer per micro-batch.
TEST(Figures, ActivationMemoryFollowsKorthikanti) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    s.parallel.recompute = false;
    const double sbh = 2048.0 * 1 * 12288, as_h = 96.0 * 2048 / 12288;
    EXPECT_DOUBLE_EQ(layerActivationBytes(s), sbh * (10 + 24.0 / 8 + 5 * as_h / 8));
    s.parallel.sequenceParallel = true;
    EXPECT_DOUBLE_EQ(layerActivationBytes(s), sbh / 8 * (34 + 5 * as_h));
    s.parallel.recompute = true;
    EXPECT_DOUBLE_EQ(layerActivationBytes(s), 2 * sbh / 8);
    s.parallel.tp = 1;
    s.parallel.sequenceParallel = false;
    s.parallel.recompute = false;
    EXPECT_DOUBLE_EQ(layerActivationBytes(s), sbh * (34 + 5 * as_h));
}

// 1F1B stage 0 holds p micro-batches of its l/p layers: activation memory = l x per-layer.
TEST(Figures, StageZeroHoldsOneModelsWorthOfActivations) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    const ModelFigures f = computeFigures(s);
    EXPECT_EQ(f.worstStage, 0);
    EXPECT_DOUBLE_EQ(f.memory.activations, 96 * layerActivationBytes(s));
}

// ZeRO divides optimizer states (1), gradients (2) and weights (3) by dp for a dense model.
TEST(Figures, ZeroStagesDivideMemoryByDp) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    const ModelFigures z0 = computeFigures(s);
    EXPECT_DOUBLE_EQ(z0.memory.optimizer, 6 * z0.memory.weights); // 12 B vs 2 B per parameter
    s.parallel.zeroStage = 1;
    const ModelFigures z1 = computeFigures(s);
    EXPECT_NEAR(z1.memory.optimizer * 16 / z0.memory.optimizer, 1.0, 1e-12);
    EXPECT_DOUBLE_EQ(z1.memory.gradients, z0.memory.gradients);
    s.parallel.zeroStage = 3;
    const ModelFigures z3 = computeFigures(s);
    EXPECT_NEAR(z3.memory.weights * 16 / z0.memory.weights, 1.0, 1e-12);
    EXPECT_NEAR(z3.memory.gradients * 16 / z0.memory.gradients, 1.0, 1e-12);
}

// Gradients in fp32 (Megatron-LM's --bf16 default): Megatron-Core's distributed-optimizer table,
// bytes per parameter with d data-parallel ranks: bf16 weights and fp32 gradients 18, or 6 + 12/d
// with the states sharded (ZeRO 1); fp32 weights and gradients 16, or 8 + 8/d. ZeRO 2 shards the
// gradients too: 2 + (4 + 12)/d.
TEST(Figures, Fp32GradientsFollowMegatronsDistributedOptimizerTable) {
    GeneratorSpec s = presetSpec("llama3-8b");
    s.parallel = ParallelSpec{};
    s.parallel.dp = 8;
    s.training.globalBatch = 8;
    s.training.fp32Gradients = true;
    auto perParameter = [&] {
        const MemoryBreakdown& m = computeFigures(s).memory;
        return (m.weights + m.gradients + m.optimizer) / (m.weights / s.training.bytesPerElement);
    };
    EXPECT_NEAR(perParameter(), 18, 1e-9);
    s.parallel.zeroStage = 1;
    EXPECT_NEAR(perParameter(), 6 + 12.0 / 8, 1e-9);
    s.parallel.zeroStage = 2;
    EXPECT_NEAR(perParameter(), 2 + 16.0 / 8, 1e-9);
    s.training.fp32Gradients = false; // ZeRO's 2 + 2 + 12
    EXPECT_NEAR(perParameter(), 2 + 14.0 / 8, 1e-9);
    s.parallel.zeroStage = 1;
    EXPECT_NEAR(perParameter(), 4 + 12.0 / 8, 1e-9);
    s.training.bytesPerElement = 4; // fp32 training: the setting changes nothing
    for (const bool fp32 : {false, true}) {
        s.training.fp32Gradients = fp32;
        s.parallel.zeroStage = 0;
        EXPECT_NEAR(perParameter(), 16, 1e-9);
        s.parallel.zeroStage = 1;
        EXPECT_NEAR(perParameter(), 8 + 8.0 / 8, 1e-9);
    }
}

// Megatron's cross-entropy keeps an fp32 copy of the logits for the backward (the softmax, then
// its gradient) and, while the loss runs, the 16-bit logits beside it: per logit (tokens x V /
// tp) the last stage holds 4 bytes per micro-batch in flight through the loss and 2 more for the
// one whose loss runs. In fp32 training the copy is the tensor itself. Only the logits depend on
// the vocabulary among the activations, so the difference between two vocabularies isolates them.
TEST(Figures, TheLossHoldsTheLogitsTwiceWhileItRuns) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    s.parallel.tp = 8;
    s.parallel.pp = 2;
    s.parallel.dp = 1;
    s.parallel.recompute = false;
    s.training.globalBatch = 8; // 8 micro-batches of one sequence
    auto lastStage = [&](int vocabulary) {
        s.model.vocabulary = vocabulary;
        return stageMemory(s, buildTransformerProgram(s), 1).activations;
    };
    auto bytesPerLogit = [&] {
        return (lastStage(102400) - lastStage(51200)) / (2048.0 * 51200 / 8);
    };
    EXPECT_NEAR(bytesPerLogit(), 4 + 2, 1e-9); // 1F1B: one micro-batch through the loss
    s.parallel.schedule = PipelineSchedule::GPipe;
    EXPECT_NEAR(bytesPerLogit(), 4 * 8 + 2, 1e-9); // every micro-batch's fp32 copy
    s.training.bytesPerElement = 4;
    EXPECT_NEAR(bytesPerLogit(), 4 * 8, 1e-9);
    // The breakdown names them, and model-info prints them beside the activations.
    s.model.vocabulary = 102400;
    const MemoryBreakdown last = stageMemory(s, buildTransformerProgram(s), 1);
    EXPECT_NEAR(last.logits, 2048.0 * 102400 / 8 * 4 * 8, 1e-3);
    EXPECT_EQ(stageMemory(s, buildTransformerProgram(s), 0).logits, 0);
    const std::string text = formatFigures(computeFigures(s));
    EXPECT_NE(text.find("(the loss's logits 800.00 MiB)"), std::string::npos) << text;
}

TEST(Figures, OutOfMemoryWarning) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    EXPECT_FALSE(computeFigures(s).outOfMemory);
    s.parallel.recompute = false; // 23 x sbh per layer, 96 layers in flight on stage 0
    const ModelFigures f = computeFigures(s);
    EXPECT_TRUE(f.outOfMemory);
    EXPECT_NE(formatFigures(f).find("WARNING: out of memory"), std::string::npos);
}

TEST(Figures, BubbleFraction) {
    GeneratorSpec s = presetSpec("gpt3-175b"); // p 8, m 96
    EXPECT_DOUBLE_EQ(computeFigures(s).bubbleFraction, 7.0 / (96 + 7));
    s.parallel.schedule = PipelineSchedule::Interleaved;
    s.parallel.virtualStages = 3;
    s.model.layers = 96;
    EXPECT_DOUBLE_EQ(computeFigures(s).bubbleFraction, 7.0 / (3 * 96 + 7));
}

TEST(Figures, EveryPresetIsValidAndPrintable) {
    for (const ModelPreset& p : modelPresets()) {
        const ModelFigures f = computeFigures(p.spec);
        EXPECT_GT(f.parameters, 0) << p.name;
        EXPECT_GT(f.modelFlops, 0) << p.name;
        EXPECT_GT(f.memory.total(), 0) << p.name;
        EXPECT_FALSE(formatFigures(f).empty());
    }
    // ResNet-50: 25.6 M parameters; 3 x 2 x 4.1 G multiply-adds per image.
    const ModelFigures resnet = computeFigures(presetSpec("resnet50"));
    EXPECT_NEAR(resnet.parameters / 25.56e6, 1.0, 0.01);
    EXPECT_NEAR(resnet.modelFlops / (2048 * 6 * 4.11e9), 1.0, 0.02);
}

// Transformer-17B (Turing-NLG's dimensions): 12 L h^2 (attention and MLP weights) + V h
// (embeddings) + s h (positions) = 12 * 78 * 4256^2 + 50257 * 4256 + 1024 * 4256 = 17.17e9,
// the "17 B" of its name; the biases and norms add about 13 L h more.
TEST(Figures, Transformer17BHasSeventeenBillionParameters) {
    const GeneratorSpec s = presetSpec("transformer-17b");
    const double h = 4256, layers = 78;
    const double closedForm = 12 * layers * h * h + 50257 * h + 1024 * h;
    EXPECT_NEAR(computeFigures(s).parameters / closedForm, 1.0, 0.001);
    EXPECT_NEAR(closedForm / 17e9, 1.0, 0.02);
    EXPECT_EQ(s.parallel.tp * s.parallel.dp * s.parallel.pp, 256);
}

TEST(Figures, InvalidSpecsAreRejectedWithKeyPaths) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    s.parallel.tp = 7; // 96 heads do not split over 7
    try {
        computeFigures(s);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("model.heads"), std::string::npos) << e.what();
    }
    EXPECT_THROW(presetSpec("gpt-3"), Error);
}

} // namespace
} // namespace astrolabe::generate
