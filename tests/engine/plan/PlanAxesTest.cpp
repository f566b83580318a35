// The planner's context-parallel and selective-recomputation axes (PlanSpace.h): the space's
// size counted by hand, cp only where the generator takes it (contextParallelProblems), the
// activations over cp and without the attention core, the key/value ring's exposed time as a
// closed form of the collectives and the core it runs beside, and Megatron's arguments.
#include "engine/golden/GoldenSpec.h"
#include "generate/ModelPresets.h"
#include "generate/StageMemory.h"
#include "generate/WorkloadGenerator.h"
#include "plan/MegatronArgs.h"
#include "plan/PlanSimulation.h"
#include "plan/Planner.h"
#include "support/SmallGpt.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::plan;

namespace {

generate::GeneratorSpec tiny(bool flash) {
    generate::GeneratorSpec s;
    generate::ModelSpec& m = s.model;
    m.name = "tiny";
    m.layers = 2;
    m.heads = 2;
    m.hidden = 8;
    m.ffn = 16;
    m.sequence = 4;
    m.vocabulary = 128;
    s.training.globalBatch = 2;
    s.training.flashAttention = flash;
    return s;
}

bool has(const std::vector<std::string>& args, const std::string& a) {
    return std::find(args.begin(), args.end(), a) != args.end();
}

} // namespace

TEST(PlanAxes, TwoGpusWithContextParallelismCountByHand) {
    // N 2, B 2, 2 layers, 2 heads, s 4, fused attention (recompute: none or full; cp 2 needs
    // s % 4 == 0):
    //   t1 c1 p1 d2: b 1; rc 2 -> 2 shapes x ZeRO 4 x 1 order                    = 8
    //   t1 c1 p2 d1: b 1 (m 2); rc 2 -> 2 x 1 x 1                                 = 2
    //   t1 c2 p1 d1: b 1, 2; rc 2 -> 4 x ZeRO 4 (gradients over dp cp = 2) x 1    = 16
    //   t2 c1 p1 d1: b 1, 2; sp 2; rc 2 -> 8 x 1 x 1                              = 8
    const Space space = enumerateSpace({tiny(true), 2});
    ASSERT_TRUE(space.unsatisfiable.empty()) << space.unsatisfiable;
    EXPECT_EQ(space.candidates, 34u);
    int cp2 = 0;
    for (const Shape& s : space.shapes) {
        EXPECT_FALSE(s.selectiveRecompute); // fused attention: selective saves nothing
        cp2 += s.cp == 2;
    }
    EXPECT_EQ(cp2, 4);
    // Unfused: no cp (the generator needs fused attention), and selective recomputation is a
    // third choice: t1 p1 d2 3 x ZeRO 4 + t1 p2 d1 3 + t2 p1 d1 12 = 27.
    const Space unfused = enumerateSpace({tiny(false), 2});
    EXPECT_EQ(unfused.candidates, 27u);
    for (const Shape& s : unfused.shapes)
        EXPECT_EQ(s.cp, 1);
}

TEST(PlanAxes, ContextParallelismOnlyWhereTheGeneratorTakesIt) {
    // Llama 3 8B (fused attention, s 8192) on 16 GPUs takes cp up to 16; Mixtral (MoE) none.
    for (const char* preset : {"llama3-8b", "mixtral-8x7b"}) {
        PlanRequest request{generate::presetSpec(preset), 16};
        request.base.training.globalBatch = 32;
        request.base.training.flashAttention = true;
        const Space space = enumerateSpace(request);
        ASSERT_FALSE(space.shapes.empty()) << space.unsatisfiable;
        int largest = 1;
        for (const Shape& s : space.shapes) {
            largest = std::max(largest, s.cp);
            for (int zero = 0; zero < zeroStagesOf(s); ++zero) {
                const generate::GeneratorSpec spec =
                    candidateSpec(request, candidateOf(s, zero, 0));
                ASSERT_NO_THROW(generate::validate(spec)) << preset << " " << s.cp;
                EXPECT_EQ(spec.parallel.npus(), 16);
            }
        }
        EXPECT_EQ(largest, std::string(preset) == "llama3-8b" ? 16 : 1) << preset;
    }
}

TEST(PlanAxes, ActivationsShrinkOverCpAndWithoutTheAttentionCore) {
    PlanRequest request{test::smallGpt(1, 1, 2), 2};
    request.base.training.globalBatch = 2;
    request.base.training.flashAttention = true;
    Candidate c; // t1 p1 d1 and t1 c2 p1 d1: 2 micro-batches each
    const auto activations = [&](const Candidate& candidate) {
        const generate::GeneratorSpec spec = candidateSpec(request, candidate);
        return generate::stageMemory(spec, generate::buildProgram(spec), 0).activations;
    };
    Candidate cp = c;
    cp.cp = 2;
    EXPECT_DOUBLE_EQ(activations(cp), activations(c) / 2);
    // Unfused attention, tp 1: 34 sbh + 5 a s^2 b per layer, 34 sbh with selective recompute.
    request.base.training.flashAttention = false;
    Candidate sel = c;
    sel.selectiveRecompute = true;
    const double s = 16, a = 4, layers = 2;
    EXPECT_NEAR(activations(c) - activations(sel), layers * 5 * a * s * s, 1e-6);
}

TEST(PlanAxes, TheKeyValueRingCostsWhatTheAttentionCoreDoesNotHide) {
    // t1 c2 p1 d1 on 2 NPUs: no tensor-parallel collective and no pipeline, so the estimate's
    // communication is only the ring's exposure, per micro-batch and layer:
    //   max(0, AG(kv) - core) forward + max(0, AG(kv) + RS(2 kv) - core backward).
    PlanRequest request{test::smallGpt(1, 1, 1), 2};
    request.base.training.globalBatch = 4;
    request.base.training.flashAttention = true;
    Candidate c;
    c.cp = 2;
    const generate::GeneratorSpec spec = candidateSpec(request, c);
    ASSERT_NO_THROW(generate::validate(spec));
    const generate::ModelProgram program = generate::buildProgram(spec);
    const generate::LayerProgram& layer = program.layers[1];
    auto step = [&](const std::vector<generate::Step>& steps, const std::string& name) {
        const auto it = std::find_if(steps.begin(), steps.end(),
                                     [&](const generate::Step& s) { return s.name == name; });
        EXPECT_NE(it, steps.end()) << name;
        return *it;
    };
    const double kv = double(step(layer.forward, "attn.cp.kv").commBytes);
    // K and V of this rank's 8 tokens, 4 heads of 16, 16-bit.
    EXPECT_DOUBLE_EQ(kv, 2 * 8 * 64 * 2);
    const double core =
        generate::stepComputeSeconds(step(layer.forward, "attn.core"), spec.compute);
    const double coreBack =
        generate::stepComputeSeconds(step(layer.backward, "attn.core.bwd"), spec.compute);
    for (double gbps : {1e-4, 1e4}) { // the ring exposed, then partly hidden
        const SimulationSpec s = golden::spec({golden::dim(BlockKind::Switch, 2, gbps, 0)});
        const NetworkCosts net(s.platform, s.system);
        const double ag = net.collectiveSeconds(CollectiveType::AllGather, 2, kv, 1);
        const double rs = net.collectiveSeconds(CollectiveType::ReduceScatter, 2, 2 * kv, 1);
        const double exposed = std::max(0.0, ag - core) + std::max(0.0, ag + rs - coreBack);
        const Estimate e = estimateIteration(spec, profileShape(spec, program), net);
        EXPECT_NEAR(e.communication, 4 * 2 * exposed, 1e-12 + 1e-9 * exposed) << gbps;
        // Slow: the core hides almost nothing; fast: part of the ring (the endpoint delays of
        // the steps stay) hides behind it.
        if (gbps > 1) {
            EXPECT_LT(exposed, 2 * ag + rs - 0.5 * std::min(core, coreBack));
        } else {
            EXPECT_GT(exposed, 0.99 * (2 * ag + rs));
        }
    }
}

TEST(PlanAxes, MegatronArgumentsCarryCpAndSelectiveRecomputation) {
    PlanRequest request{generate::presetSpec("gpt3-175b"), 1024};
    request.base.training.globalBatch = 1536;
    Candidate c{8, 8, 8, 1, 1, 1, 192, 1, true, false, 0};
    c.cp = 2;
    c.selectiveRecompute = true;
    const generate::GeneratorSpec spec = candidateSpec(request, c);
    EXPECT_EQ(spec.parallel.npus(), 1024);
    const std::vector<std::string> args = megatronArguments(spec);
    EXPECT_TRUE(has(args, "--context-parallel-size 2"));
    EXPECT_TRUE(has(args, "--recompute-granularity selective"));
    EXPECT_FALSE(has(args, "--recompute-granularity full"));
    const std::vector<std::string> nemo = nemoOverrides(spec);
    EXPECT_TRUE(has(nemo, "model.context_parallel_size=2"));
    EXPECT_TRUE(has(nemo, "model.activations_checkpoint_granularity=selective"));
    EXPECT_EQ(candidateLabel(c), "t8 c2 p8 d8 b1 z1 sp sel [tp,dp,pp]");
}
