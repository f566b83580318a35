// The planner's space (engine/plan/PlanSpace.h): its size on small cases counted by hand from
// the rules, every candidate a spec the generator accepts, and requests nobody can satisfy
// refused with the constraint named.
#include "plan/PlanSpace.h"

#include "generate/ModelPresets.h"
#include "plan/MegatronArgs.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::plan;

namespace {

generate::GeneratorSpec tiny(int layers, int heads, int hidden, int ffn, int sequence, int batch) {
    generate::GeneratorSpec s;
    generate::ModelSpec& m = s.model;
    m.name = "tiny";
    m.layers = layers;
    m.heads = heads;
    m.hidden = hidden;
    m.ffn = ffn;
    m.sequence = sequence;
    m.vocabulary = 128;
    s.training.globalBatch = batch;
    return s;
}

uint64_t count(const Space& space) {
    uint64_t n = 0;
    for (const Shape& s : space.shapes)
        n += uint64_t(zeroStagesOf(s)) * placementsOf(s).size();
    return n;
}

} // namespace

TEST(PlanSpace, TwoGpusTwoLayersCountByHand) {
    // N 2, B 2, 2 layers, 2 heads, s 4, unfused attention (no cp; recompute none, full or
    // selective):
    //   t1 p1 d2: b 1 (m 1), recompute 3 -> 3 shapes x ZeRO 4 x 1 order (dp) = 12
    //   t1 p2 d1: b 1 (m 2 >= p; v 2 needs 4 layers), b 2 (m 1 < p: no) -> 3 shapes x 1 x 1 = 3
    //   t2 p1 d1: b 1, 2; sp 2; recompute 3 -> 12 shapes x 1 x 1 = 12
    const Space space = enumerateSpace({tiny(2, 2, 8, 16, 4, 2), 2});
    ASSERT_TRUE(space.unsatisfiable.empty()) << space.unsatisfiable;
    EXPECT_EQ(space.candidates, 27u);
    EXPECT_EQ(count(space), 27u);
}

TEST(PlanSpace, FourGpusFourLayersCountByHand) {
    // N 4, B 8, 4 layers, 4 heads, s 64, unfused (k! orders for k axes of size > 1; rc: none,
    // full, selective):
    //   t1 p1 d4: b 1, 2; rc 3 -> 6 x ZeRO 4 x 1                              = 24
    //   t1 p2 d2: b 1 (m 4), 2 (m 2); v 1, 2; rc 3 -> 12 x ZeRO 4 x 2 orders  = 96
    //   t1 p4 d1: b 1 (m 8), 2 (m 4); v 1; rc 3 -> 6 x 1 x 1                  = 6
    //   t2 p1 d2: b 1, 2, 4; sp 2; rc 3 -> 18 x ZeRO 4 x 2 orders            = 144
    //   t2 p2 d1: b 1, 2, 4 (m 8, 4, 2); v 1, 2; sp 2; rc 3 -> 36 x 1 x 2     = 72
    //   t4 p1 d1: b 1, 2, 4, 8; sp 2; rc 3 -> 24 x 1 x 1                      = 24
    const Space space = enumerateSpace({tiny(4, 4, 64, 256, 64, 8), 4});
    ASSERT_TRUE(space.unsatisfiable.empty()) << space.unsatisfiable;
    EXPECT_EQ(space.candidates, 366u);
    EXPECT_EQ(count(space), 366u);
}

TEST(PlanSpace, EveryCandidateIsASpecTheGeneratorAccepts) {
    for (const char* preset : {"gpt2-350m", "mixtral-8x7b"}) {
        PlanRequest request{generate::presetSpec(preset), 16};
        request.base.training.globalBatch = 64;
        const Space space = enumerateSpace(request);
        ASSERT_FALSE(space.shapes.empty()) << preset << ": " << space.unsatisfiable;
        for (const Shape& s : space.shapes)
            for (int zero = 0; zero < zeroStagesOf(s); ++zero)
                for (uint8_t placement : placementsOf(s)) {
                    Candidate c = candidateOf(s, zero, placement);
                    const generate::GeneratorSpec spec = candidateSpec(request, c);
                    EXPECT_NO_THROW(generate::validate(spec)) << preset << " " << candidateLabel(c);
                    EXPECT_EQ(spec.parallel.npus(), 16);
                    EXPECT_EQ(spec.microBatches(), s.microBatches);
                }
    }
}

TEST(PlanSpace, MixtureOfExpertsTriesEveryExpertSplit) {
    // Mixtral: 8 experts; on 16 GPUs with tp 1 pp 1 (dp 16), ep divides gcd(16, 8) = 8.
    PlanRequest request{generate::presetSpec("mixtral-8x7b"), 16};
    request.base.training.globalBatch = 64;
    std::vector<int> eps;
    for (const Shape& s : enumerateSpace(request).shapes)
        if (s.tp == 1 && s.pp == 1 && s.microBatch == 1 && !s.recompute)
            eps.push_back(s.ep);
    EXPECT_EQ(eps, (std::vector<int>{1, 2, 4, 8}));
}

TEST(PlanSpace, UnsatisfiableRequestsNameTheConstraint) {
    // 3 GPUs: tp 1 (3 does not divide 4 heads), pp 1 (nor 4 layers), dp 3 does not divide 8.
    const Space odd = enumerateSpace({tiny(4, 4, 64, 256, 64, 8), 3});
    EXPECT_TRUE(odd.shapes.empty());
    EXPECT_NE(odd.unsatisfiable.find("GPUs not divisible"), std::string::npos) << odd.unsatisfiable;
    EXPECT_NE(odd.unsatisfiable.find("global batch 8"), std::string::npos) << odd.unsatisfiable;
    // One head (tp 1 only), 4 GPUs, B 2: dp 4 does not divide 2; p 2 and p 4 leave 1 and 2
    // micro-batches for 2 and 4 stages.
    const Space small = enumerateSpace({tiny(4, 1, 64, 256, 64, 2), 4});
    EXPECT_TRUE(small.shapes.empty());
    EXPECT_NE(small.unsatisfiable.find("too small for the pipeline"), std::string::npos)
        << small.unsatisfiable;
    EXPECT_NE(enumerateSpace({tiny(4, 4, 64, 256, 64, 8), 0}).unsatisfiable, "");
}

TEST(PlanSpace, PlacementsCountTheOrdersOfTheAxesLargerThanOne) {
    EXPECT_EQ(placementsOf(Shape{8, 8, 16}).size(), 6u);
    EXPECT_EQ(placementsOf(Shape{8, 1, 16}).size(), 2u);
    EXPECT_EQ(placementsOf(Shape{1, 1, 16}).size(), 1u);
    EXPECT_EQ(placementNames()[placementsOf(Shape{8, 8, 16}).front()], "tp,dp,pp");
}

TEST(MegatronArgs, InterleavedGpt3WithSequenceParallelism) {
    PlanRequest request{generate::presetSpec("gpt3-175b"), 1024};
    request.base.training.globalBatch = 1536;
    const Candidate c{8, 8, 16, 1, 2, 1, 96, 1, true, true, 0};
    const std::vector<std::string> args = megatronArguments(candidateSpec(request, c));
    auto has = [&](const std::string& a) {
        return std::find(args.begin(), args.end(), a) != args.end();
    };
    EXPECT_TRUE(has("--tensor-model-parallel-size 8"));
    EXPECT_TRUE(has("--pipeline-model-parallel-size 8"));
    EXPECT_TRUE(has("--num-layers-per-virtual-pipeline-stage 6")); // 96 / (8 x 2)
    EXPECT_TRUE(has("--micro-batch-size 1"));
    EXPECT_TRUE(has("--global-batch-size 1536"));
    EXPECT_TRUE(has("--sequence-parallel"));
    EXPECT_TRUE(has("--recompute-granularity full"));
    EXPECT_TRUE(has("--use-distributed-optimizer"));
    const std::vector<std::string> nemo = nemoOverrides(candidateSpec(request, c));
    EXPECT_NE(std::find(nemo.begin(), nemo.end(), "model.virtual_pipeline_model_parallel_size=2"),
              nemo.end());
}

// A Llama planned for Megatron described a GPT (LayerNorm, biases, learned positions, dropout:
// Megatron's defaults), and a ZeRO-3 plan for NeMo asked for the distributed optimizer, which keeps
// the weights whole on every GPU.
TEST(MegatronArgs, LlamaGetsItsNormPositionsAndBiasesAndZero3IsNemosFsdp) {
    PlanRequest request{generate::presetSpec("llama3-8b"), 16};
    request.base.training.globalBatch = 64;
    Candidate c{2, 1, 8, 1, 1, 4, 2, 3, true, false, 0};
    const generate::GeneratorSpec spec = candidateSpec(request, c);
    const std::vector<std::string> args = megatronArguments(spec);
    auto has = [](const std::vector<std::string>& list, const std::string& a) {
        return std::find(list.begin(), list.end(), a) != list.end();
    };
    EXPECT_TRUE(has(args, "--normalization RMSNorm"));
    EXPECT_TRUE(has(args, "--disable-bias-linear"));
    EXPECT_TRUE(has(args, "--position-embedding-type rope"));
    EXPECT_TRUE(has(args, "--swiglu"));
    EXPECT_TRUE(has(args, "--attention-dropout 0.0 --hidden-dropout 0.0"));
    // The gradients the memory and the traffic count: bf16 (Megatron's bf16 default is fp32).
    EXPECT_TRUE(has(args, "--bf16"));
    EXPECT_TRUE(has(args, "--grad-reduce-in-bf16"));
    generate::GeneratorSpec fp32 = spec; // fp32 gradients: Megatron's bf16 default
    fp32.training.fp32Gradients = true;
    EXPECT_TRUE(has(megatronArguments(fp32), "--bf16"));
    EXPECT_FALSE(has(megatronArguments(fp32), "--grad-reduce-in-bf16"));
    const std::vector<std::string> nemo = nemoOverrides(spec);
    EXPECT_TRUE(has(nemo, "model.fsdp=true"));
    EXPECT_TRUE(has(nemo, "model.fsdp_sharding_strategy=full"));
    EXPECT_FALSE(has(nemo, "model.optim.name=distributed_fused_adam"));
    EXPECT_TRUE(has(nemo, "model.normalization=rmsnorm"));
    EXPECT_TRUE(has(nemo, "model.position_embedding_type=rope"));
    EXPECT_TRUE(has(nemo, "model.hidden_dropout=0.0"));
    // GPT keeps Megatron's defaults: no such flags.
    PlanRequest gpt{generate::presetSpec("gpt3-175b"), 1024};
    gpt.base.training.globalBatch = 1536;
    const std::vector<std::string> gptArgs =
        megatronArguments(candidateSpec(gpt, Candidate{8, 8, 16, 1, 1, 1, 96, 1, true, true, 0}));
    EXPECT_FALSE(has(gptArgs, "--normalization RMSNorm"));
    EXPECT_FALSE(has(gptArgs, "--position-embedding-type rope"));
    EXPECT_FALSE(has(gptArgs, "--attention-dropout 0.0 --hidden-dropout 0.0"));
}
