// Selective recomputation (ParallelSpec::selectiveRecompute, Megatron's --recompute-granularity
// selective): Korthikanti et al. 2022's activation bytes per layer without the attention core's
// 5as^2b (34 sbh instead of 34 sbh + 5as^2b with tp 1; 34 sbh / t with sequence parallelism;
// sbh (10 + 24 / t) without), and the core's forward run again before the attention's backward
// pass: hardware FLOPs grow by one core forward per layer, model FLOPs do not.
#include "core/Error.h"
#include "generate/ActivationMemory.h"
#include "generate/GeneratorValues.h"
#include "generate/ModelFigures.h"
#include "generate/TransformerProgram.h"
#include "generate/WorkloadGenerator.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

GeneratorSpec gpt3(int tp, bool sp, bool selective, bool flash = false) {
    GeneratorSpec s = generatorSpecFrom("gpt3-175b", {{"tp", std::to_string(tp)},
                                                      {"pp", "8"},
                                                      {"dp", "1"},
                                                      {"micro-batch", "1"},
                                                      {"global-batch", "8"},
                                                      {"flash-attention", flash ? "true" : "false"},
                                                      {"sp", sp ? "true" : "false"},
                                                      {"recompute", "false"}});
    s.parallel.selectiveRecompute = selective;
    return s;
}

size_t indexOf(const std::vector<Step>& steps, const std::string& name) {
    return size_t(
        std::find_if(steps.begin(), steps.end(), [&](const Step& s) { return s.name == name; }) -
        steps.begin());
}

} // namespace

TEST(SelectiveRecompute, ActivationsAreKorthikantisWithoutTheAttentionCore) {
    // GPT-3 175B: s 2048, b 1, h 12288, a 96; 16-bit, so the closed forms are in bytes.
    const double s = 2048, b = 1, h = 12288, a = 96, sbh = s * b * h;
    EXPECT_DOUBLE_EQ(layerActivationBytes(gpt3(1, false, false)), 34 * sbh + 5 * a * s * s * b);
    EXPECT_DOUBLE_EQ(layerActivationBytes(gpt3(1, false, true)), 34 * sbh);
    EXPECT_DOUBLE_EQ(layerActivationBytes(gpt3(8, true, true)), 34 * sbh / 8);
    EXPECT_DOUBLE_EQ(layerActivationBytes(gpt3(8, true, false)),
                     (34 * sbh + 5 * a * s * s * b) / 8);
    EXPECT_DOUBLE_EQ(layerActivationBytes(gpt3(8, false, true)), sbh * (10 + 24.0 / 8));
    // Fused attention stores no scores: selective recomputation saves nothing more.
    EXPECT_DOUBLE_EQ(layerActivationBytes(gpt3(8, true, true, true)),
                     layerActivationBytes(gpt3(8, true, false, true)));
}

TEST(SelectiveRecompute, TheCoresForwardRunsAgainBeforeTheAttentionsBackward) {
    const GeneratorSpec spec = gpt3(8, true, true);
    const ModelProgram program = buildProgram(spec);
    const double s = 2048, h = 12288;
    int layers = 0;
    for (const LayerProgram& layer : program.layers) {
        const size_t again = indexOf(layer.backward, "attn.core.recompute");
        if (layer.name == "embed" || layer.name == "head") {
            EXPECT_EQ(again, layer.backward.size()) << layer.name;
            continue;
        }
        ++layers;
        ASSERT_LT(again, layer.backward.size()) << layer.name;
        const Step& step = layer.backward[again];
        EXPECT_TRUE(step.recomputed);
        // Q K^T and A V: 4 s h FLOPs per token, b s tokens, split over tp 8.
        EXPECT_DOUBLE_EQ(step.flops, 4 * s * h * s / 8);
        EXPECT_GT(again, indexOf(layer.backward, "mlp.bwd"));
        EXPECT_LT(again, indexOf(layer.backward, "attn.bwd"));
    }
    EXPECT_EQ(layers, 96);
    // Off: no such step, and the programs differ by nothing else.
    for (const LayerProgram& layer : buildProgram(gpt3(8, true, false)).layers)
        EXPECT_EQ(indexOf(layer.backward, "attn.core.recompute"), layer.backward.size());
}

TEST(SelectiveRecompute, HardwareFlopsGrowByOneCoreForwardPerLayer) {
    const ModelFigures off = computeFigures(gpt3(8, true, false));
    const ModelFigures on = computeFigures(gpt3(8, true, true));
    // B 8 sequences x 96 layers x 4 s^2 h.
    const double s = 2048, h = 12288;
    EXPECT_NEAR(on.hardwareFlops - off.hardwareFlops, 8 * 96 * 4 * s * s * h,
                1e-9 * on.hardwareFlops);
    EXPECT_DOUBLE_EQ(on.modelFlops, off.modelFlops);
    EXPECT_LT(on.memory.activations, off.memory.activations);
}

TEST(SelectiveRecompute, FullAndSelectiveTogetherAreRefusedNamingTheKey) {
    GeneratorSpec spec = gpt3(8, true, true);
    spec.parallel.recompute = true;
    try {
        validate(spec);
        FAIL() << "validate accepted full and selective recomputation together";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("parallel.selectiveRecompute"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("found both"), std::string::npos) << e.what();
    }
    // The settings table reads the key from a project's generator section.
    EXPECT_TRUE(
        generatorSpecFrom("gpt3-175b", {{"selective-recompute", "true"}, {"recompute", "false"}})
            .parallel.selectiveRecompute);
}

} // namespace astrolabe::generate
