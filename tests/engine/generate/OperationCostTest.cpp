// The operation compute model (generate/OperationCost.h): each kernel against its closed form
// from the measured curves, the roofline kept as the fallback, and the generated transformer
// blocks carrying the kernels Megatron-LM launches.
#include "generate/OperationCost.h"

#include "generate/GeneratorValues.h"
#include "generate/TransformerKernels.h"
#include "generate/TransformerProgram.h"
#include "hardware/Accelerator.h"
#include "hardware/KernelCurves.h"

#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

ComputeSpec a100Operations() {
    ComputeSpec c = acceleratorCompute(hardware::findAccelerator("a100-80gb"), ComputeSpec());
    c.model = ComputeModel::Operations;
    return c;
}

TEST(OperationCost, KernelsFollowTheirClosedForms) {
    const ComputeSpec c = a100Operations();
    ASSERT_DOUBLE_EQ(c.gemmTflops, 271.2);
    ASSERT_DOUBLE_EQ(c.flashFraction, 0.6);
    const hardware::MonotoneCurve& curve = hardware::gemmShapeCurve();
    // A large GEMM: past the curve's last point, at its last fraction of the achieved rate.
    const double big = 2.0 * 8192 * 8192 * 8192;
    EXPECT_NEAR(kernelSeconds(Kernel::gemm(8192, 8192, 8192), c, 2),
                big / (271.2e12 * curve.ys().back()), 1e-12);
    // A small one: the fraction read at its ideal time.
    const double small = 2.0 * 512 * 512 * 512, ideal = small / 271.2e12;
    EXPECT_NEAR(kernelSeconds(Kernel::gemm(512, 512, 512), c, 2), ideal / curve.at(ideal * 1e6),
                1e-15);
    // A GEMM of k = 8 moves more than it computes: bound by its operands at the achieved HBM.
    const double operands = 2.0 * (8192 * 8 + 8 * 8192 + 8192.0 * 8192);
    EXPECT_NEAR(kernelSeconds(Kernel::gemm(8192, 8192, 8), c, 2), operands / (2039e9 * 0.8), 1e-15);
    EXPECT_NEAR(kernelSeconds(Kernel::memory(1e9), c, 2), 1e9 / (2039e9 * 0.8), 1e-15);
    EXPECT_NEAR(kernelSeconds(Kernel::flash(1e12), c, 2), 1e12 / (312e12 * 0.6), 1e-15);
}

TEST(OperationCost, ABlackwellComputesAtItsSustainedRate) {
    // B200 under a training step's sustained load keeps 0.853 of its short-benchmark rates
    // (resources/compute/gemm-rates.csv): the FP8 GEMMs run at 3432.5 x 0.853 TFLOP/s, the BF16
    // output layer at 1745.0 x 0.853, attention at 0.561 x 0.853 of the 2250 TFLOP/s BF16 peak.
    // HBM-bound kernels keep the datasheet bandwidth.
    ComputeSpec c = acceleratorCompute(hardware::findAccelerator("b200"), ComputeSpec(), "fp8");
    c.model = ComputeModel::Operations;
    EXPECT_NEAR(c.gemmTflops, 3432.5 * 0.853, 1e-9);
    EXPECT_NEAR(c.bf16GemmTflops, 1745.0 * 0.853, 1e-9);
    EXPECT_NEAR(kernelSeconds(Kernel::flash(1e12), c, 1), 1e12 / (2250e12 * 0.561 * 0.853), 1e-15);
    EXPECT_NEAR(kernelSeconds(Kernel::memory(1e9), c, 1), 1e9 / (8000e9 * 0.8), 1e-15);
    // H100 has no published sustained-load drop: its rates are the benchmark's.
    const ComputeSpec h =
        acceleratorCompute(hardware::findAccelerator("h100"), ComputeSpec(), "fp8");
    EXPECT_DOUBLE_EQ(h.gemmTflops, 1402.6);
    EXPECT_DOUBLE_EQ(h.flashFraction, 0.6);
}

TEST(OperationCost, TheRooflineStaysTheFallback) {
    ComputeSpec c = a100Operations();
    const std::vector<Kernel> kernels{Kernel::memory(1e9)};
    EXPECT_EQ(timedBy(1e9, kernels, c), TimedBy::Operations);
    EXPECT_EQ(timedBy(0, {}, c), TimedBy::Operations); // a FLOP-free step: its bytes
    EXPECT_EQ(timedBy(1e9, {}, c), TimedBy::Roofline); // FLOPs but no kernels listed
    const double roofline = std::max(1e12 / 312e12, 1e9 / 2039e9) / c.efficiency;
    EXPECT_DOUBLE_EQ(computeSeconds(1e12, 1e9, {}, c, 2), roofline);
    EXPECT_DOUBLE_EQ(computeSeconds(1e12, 1e9, kernels, c, 2), 1e9 / (2039e9 * 0.8));
    c.gemmTflops = 0; // an accelerator without a measured GEMM rate
    EXPECT_EQ(timedBy(1e12, kernels, c), TimedBy::Roofline);
    EXPECT_DOUBLE_EQ(computeSeconds(1e12, 1e9, kernels, c, 2), roofline);
    c = a100Operations();
    c.model = ComputeModel::Roofline;
    EXPECT_DOUBLE_EQ(computeSeconds(1e12, 1e9, kernels, c, 2), roofline);
    EXPECT_EQ(std::string(timedByName(TimedBy::Roofline)), "roofline");
}

GeneratorSpec megatron1p7b(bool flash) {
    GeneratorSpec spec = generatorSpecFrom("gpt3-175b", {{"gpu", "a100-80gb"},
                                                         {"compute-model", "operations"},
                                                         {"layers", "24"},
                                                         {"hidden", "2304"},
                                                         {"heads", "24"},
                                                         {"ffn", "9216"},
                                                         {"tp", "1"},
                                                         {"pp", "1"},
                                                         {"dp", "32"},
                                                         {"micro-batch", "1"},
                                                         {"global-batch", "512"}});
    spec.training.flashAttention = flash;
    return spec;
}

TEST(TransformerKernels, MegatronLayerLaunchesItsGemmsAndScoreTraffic) {
    const GeneratorSpec spec = megatron1p7b(false);
    const ModelSpec& m = spec.model;
    const KernelShape x = kernelShape(spec);
    const std::vector<Kernel> attn = attentionKernels(m, x);
    // norm, QKV, Q K^T, softmax, dropout, A V, projection, dropout + residual.
    ASSERT_EQ(attn.size(), 8u);
    EXPECT_EQ(attn[1].kind, Kernel::Kind::Gemm);
    EXPECT_DOUBLE_EQ(attn[1].m, 2048);
    EXPECT_DOUBLE_EQ(attn[1].n, 3 * 2304);
    EXPECT_DOUBLE_EQ(attn[1].k, 2304);
    EXPECT_DOUBLE_EQ(attn[2].batch, 24); // one s x s x 96 product per head
    EXPECT_DOUBLE_EQ(attn[2].k, 96);
    // Softmax reads and writes the 24 x 2048 x 2048 scores; dropout also writes a byte mask.
    const double scores = 24.0 * 2048 * 2048;
    EXPECT_DOUBLE_EQ(attn[3].bytes, 4 * scores);
    EXPECT_DOUBLE_EQ(attn[4].bytes, 5 * scores);
    // Every matrix FLOP of the block appears in its GEMMs: 24 s h^2 + 4 s^2 h per layer forward,
    // 8 h^2 + 4 s h per token of them in the attention block.
    double flops = 0;
    for (const Kernel& g : attn)
        if (g.kind == Kernel::Kind::Gemm)
            flops += 2 * g.batch * g.m * g.n * g.k;
    EXPECT_NEAR(flops, 2048.0 * (8.0 * 2304 * 2304 + 4.0 * 2048 * 2304), 1);
    // The backward pass: two GEMMs per forward GEMM, twice the memory traffic.
    const std::vector<Kernel> back = backwardKernels(attn);
    EXPECT_EQ(back.size(), 12u);
    double backFlops = 0;
    for (const Kernel& g : back)
        if (g.kind == Kernel::Kind::Gemm)
            backFlops += 2 * g.batch * g.m * g.n * g.k;
    EXPECT_NEAR(backFlops, 2 * flops, 1);
}

TEST(TransformerKernels, FusedAttentionDropsTheScoreTraffic) {
    const GeneratorSpec unfused = megatron1p7b(false), fused = megatron1p7b(true);
    const std::vector<Kernel> flash = attentionKernels(fused.model, kernelShape(fused));
    ASSERT_EQ(flash.size(), 5u);
    EXPECT_EQ(flash[2].kind, Kernel::Kind::Flash);
    EXPECT_DOUBLE_EQ(flash[2].flops, 2048.0 * 4 * 2048 * 2304 / 2); // causal half
    const ModelProgram a = buildTransformerProgram(unfused), b = buildTransformerProgram(fused);
    const Step& slow = a.layers[1].forward[0];
    const Step& quick = b.layers[1].forward[0];
    ASSERT_EQ(slow.name, "attn");
    EXPECT_GT(computeSeconds(slow.flops, slow.bytes, slow.kernels, unfused.compute, 2),
              1.3 * computeSeconds(quick.flops, quick.bytes, quick.kernels, fused.compute, 2));
}

TEST(TransformerKernels, Fp8GemmsCastTheirActivationInputsFirst) {
    const GeneratorSpec bf16 = generatorSpecFrom(
        "llama3-8b", {{"gpu", "h100"}, {"compute-model", "operations"}, {"tp", "1"}, {"dp", "8"}});
    GeneratorSpec fp8 = generatorSpecFrom("llama3-8b", {{"gpu", "h100"},
                                                        {"precision", "fp8"},
                                                        {"compute-model", "operations"},
                                                        {"tp", "1"},
                                                        {"dp", "8"}});
    EXPECT_FALSE(bf16.compute.fp8Gemms);
    ASSERT_TRUE(fp8.compute.fp8Gemms);
    EXPECT_DOUBLE_EQ(fp8.compute.gemmTflops, 1402.6);
    EXPECT_DOUBLE_EQ(fp8.compute.attentionPeakTflops, 989.5); // attention stays at BF16
    const std::vector<Kernel> plain = mlpKernels(bf16.model, kernelShape(bf16));
    const std::vector<Kernel> cast = mlpKernels(fp8.model, kernelShape(fp8));
    ASSERT_EQ(cast.size(), plain.size() + 2); // one cast before each of the two GEMMs
    // Before the up/gate GEMM (T x 2f x h): its T x h input, 2e + 2 = 6 bytes per element.
    ASSERT_EQ(cast[2].kind, Kernel::Kind::Gemm);
    EXPECT_EQ(cast[1].kind, Kernel::Kind::Memory);
    EXPECT_DOUBLE_EQ(cast[1].bytes, 6.0 * 8192 * 4096);
    // Before the down GEMM: its T x f input.
    EXPECT_DOUBLE_EQ(cast[4].bytes, 6.0 * 8192 * 14336);
}

TEST(TransformerKernels, Fp8RecipesKeepTheOutputLayerInBf16AndCastWeightsOnce) {
    const GeneratorSpec fp8 = generatorSpecFrom("llama3-8b", {{"gpu", "b200"},
                                                              {"precision", "fp8"},
                                                              {"compute-model", "operations"},
                                                              {"tp", "1"},
                                                              {"dp", "8"}});
    // The MAMF table's FP8 and BF16 rates at B200's sustained share (gemm-rates.csv).
    const double sustained = 0.853;
    ASSERT_DOUBLE_EQ(fp8.compute.gemmTflops, 3432.5 * sustained);
    ASSERT_DOUBLE_EQ(fp8.compute.bf16GemmTflops, 1745.0 * sustained);
    const std::vector<Kernel> head = headKernels(fp8.model, kernelShape(fp8));
    // norm, logits GEMM, cross-entropy: no cast before the BF16 logits GEMM.
    ASSERT_EQ(head.size(), 3u);
    ASSERT_EQ(head[1].kind, Kernel::Kind::Gemm);
    EXPECT_TRUE(head[1].bf16);
    // 8192 x 128256 x 4096 is past the shape curve's last point: the BF16 rate times its last
    // fraction, not the FP8 one.
    const double flops = 2.0 * 8192 * 128256 * 4096;
    EXPECT_NEAR(kernelSeconds(head[1], fp8.compute, 2),
                flops / (1745.0e12 * sustained * hardware::gemmShapeCurve().ys().back()), 1e-12);
    for (const Kernel& g : backwardKernels(head))
        EXPECT_TRUE(g.kind != Kernel::Kind::Gemm || g.bf16);
    // A BF16 run ignores the flag: every GEMM at its one rate.
    const GeneratorSpec bf16 = generatorSpecFrom(
        "llama3-8b", {{"gpu", "b200"}, {"compute-model", "operations"}, {"dp", "8"}});
    EXPECT_DOUBLE_EQ(bf16.compute.bf16GemmTflops, 0);
    EXPECT_NEAR(kernelSeconds(headKernels(bf16.model, kernelShape(bf16))[1], bf16.compute, 2),
                flops / (1745.0e12 * sustained * hardware::gemmShapeCurve().ys().back()), 1e-12);

    // Weights: cast once an iteration, 2e + 2 = 6 bytes per weight of the transformer layers;
    // the embedding and the head stay in BF16.
    const ModelProgram program = buildTransformerProgram(fp8);
    double layerWeights = 0;
    for (const ParamShare& share : program.layers[1].params)
        layerWeights += double(share.elements);
    EXPECT_DOUBLE_EQ(fp8WeightCastBytes(fp8, program.layers[1]), 6 * layerWeights);
    EXPECT_DOUBLE_EQ(fp8WeightCastBytes(fp8, program.layers.front()), 0); // embedding
    EXPECT_DOUBLE_EQ(fp8WeightCastBytes(fp8, program.layers.back()), 0);  // head
    EXPECT_DOUBLE_EQ(fp8WeightCastBytes(bf16, program.layers[1]), 0);
}

} // namespace
} // namespace astrolabe::generate
