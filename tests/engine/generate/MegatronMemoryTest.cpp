// The memory count against Megatron-LM's own measurements. Its functional tests (NVIDIA/
// Megatron-LM at d98e8a64: tests/functional_tests/test_cases/gpt/<test>/model_config.yaml and
// golden_values_dev_dgx_h100.json, each on one 8-GPU DGX H100 per tests/test_utils/recipes/h100/
// gpt.yaml) log PyTorch's peak and current allocated bytes after every step on rank 7, the last
// pipeline stage. From the second step on, the current figure is what stays allocated: the
// model states and the runtime's own buffers (GEMM workspaces, the batch). The peak less it is
// what an iteration adds: the activations and the loss's logits, which the generator counts
// (ModelFigures.h). docs/validation.md's preamble gives the same table.
#include "generate/ModelPresets.h"
#include "generate/StageMemory.h"
#include "generate/TransformerProgram.h"

#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

struct Measured {
    const char* test;
    GeneratorSpec spec;
    double peakBytes, allocatedBytes; // the last step's
    double bound;                     // largest |counted / measured - 1| above the states
};

/// The 0.06 B GPT of the small functional tests: 12 layers, h 512, 8 heads, s 1024,
/// micro-batch 4, global batch 32, the GPT-2 vocabulary (50,257) padded to 128 x tp, tied
/// embeddings, learned positions, biases, GELU, dropout 0.1, bf16 with fp32 gradients (no
/// --grad-reduce-in-bf16), TE's fused attention, no recomputation.
GeneratorSpec megatronSmallGpt(int tp, int pp, int dp) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    ModelSpec& m = s.model;
    m.layers = 12;
    m.hidden = 512;
    m.heads = m.kvHeads = 8;
    m.ffn = 2048;
    m.sequence = 1024;
    m.vocabulary = tp == 1 ? 50304 : tp == 2 ? 50432 : 50688;
    m.swiglu = false;
    m.dropout = m.biases = m.tiedEmbeddings = m.learnedPositions = true;
    s.training.microBatch = 4;
    s.training.globalBatch = 32;
    s.training.flashAttention = true;
    s.training.fp32Gradients = true;
    s.parallel = ParallelSpec{};
    s.parallel.tp = tp;
    s.parallel.pp = pp;
    s.parallel.dp = dp;
    return s;
}

/// The 6.75 B GPT of gpt3_7b_tp4_pp1_memory_speed and gpt3_7b_tp1_pp4_memory_speed: 32 layers,
/// h 4096, 32 heads in 8 query groups, s 8192, vocabulary 131,073 padded, untied, ZeRO 1.
GeneratorSpec gpt7b(int tp, int pp) {
    GeneratorSpec s = megatronSmallGpt(1, 1, 1);
    ModelSpec& m = s.model;
    m.layers = 32;
    m.hidden = 4096;
    m.heads = 32;
    m.kvHeads = 8;
    m.ffn = 16384;
    m.sequence = 8192;
    m.vocabulary = tp == 4 ? 131584 : 131200;
    m.tiedEmbeddings = false;
    s.training.microBatch = tp == 4 ? 2 : 1;
    s.training.globalBatch = 8;
    s.parallel.tp = tp;
    s.parallel.pp = pp;
    s.parallel.dp = 2;
    s.parallel.zeroStage = 1;
    if (pp > 1) {
        s.parallel.schedule = PipelineSchedule::Interleaved;
        s.parallel.virtualStages = 8;
    }
    return s;
}

std::vector<Measured> measurements() {
    std::vector<Measured> out;
    auto add = [&](const char* test, GeneratorSpec s, double peak, double allocated, double bound) {
        out.push_back({test, std::move(s), peak, allocated, bound});
    };
    GeneratorSpec s = megatronSmallGpt(1, 1, 8);
    s.parallel.zeroStage = 1;
    add("tp1_pp1_resume_torch_dist_dist_optimizer", s, 2691792384, 581489664, 0.015);
    s.training.flashAttention = false; // --attention-backend unfused
    add("tp1_pp1_dist_optimizer_no_mmap_bin_files", s, 4702430720, 581489664, 0.015);
    s = megatronSmallGpt(1, 1, 8);
    s.parallel.recompute = true; // full, uniform, one layer at a time
    add("tp1_pp1_resume_torch_dist_uniform_full_recompute", s, 2561334272, 1259751936, 0.015);
    s = megatronSmallGpt(1, 2, 4);
    s.model.learnedPositions = false; // RoPE
    add("tp1_pp2_resume_torch_dist_rope_embeddings", s, 2598238208, 919557120, 0.015);
    s = megatronSmallGpt(1, 4, 2);
    s.model.swiglu = true;
    s.model.ffn = 1344;
    add("tp1_pp4_resume_torch_dist_swiglu", s, 2211485184, 745732608, 0.015);
    s = megatronSmallGpt(1, 4, 2);
    s.model.tiedEmbeddings = false;
    add("tp1_pp4_resume_torch_dist_untie_embeddings_and_outputs", s, 2210100224, 745395712, 0.015);
    s = megatronSmallGpt(1, 4, 2);
    s.parallel.schedule = PipelineSchedule::Interleaved;
    s.parallel.virtualStages = 3;
    s.training.flashAttention = false;
    add("tp1_pp4_vp1", s, 4161191424, 776656384, 0.015);
    s.training.flashAttention = true;
    s.parallel.zeroStage = 1;
    add("tp1_pp4_vp1_resume_torch_dist_dist_optimizer_overlap_grad_reduce", s, 2432144384,
        551148032, 0.015);
    s = megatronSmallGpt(2, 1, 2);
    s.parallel.cp = 2;
    s.parallel.sequenceParallel = true;
    s.model.dropout = false;
    add("tp2_pp1_resume_torch_dist_cp2_nondeterministic", s, 1233807360, 691715584, 0.06);
    add("tp2_pp2_resume_torch_dist", megatronSmallGpt(2, 2, 2), 1428171264, 517243392, 0.06);
    s = megatronSmallGpt(2, 2, 1);
    s.parallel.cp = 2;
    s.parallel.sequenceParallel = true;
    s.model.dropout = false;
    add("tp2_pp2_cp2", s, 935253504, 510689792, 0.06);
    s = megatronSmallGpt(4, 1, 2);
    s.parallel.zeroStage = 1;
    add("tp4_pp1_resume_torch_dist_dist_optimizer_overlap_grad_reduce", s, 1042465280, 299204096,
        0.06);
    s = megatronSmallGpt(4, 2, 1);
    s.parallel.zeroStage = 1;
    add("tp4_pp2_resume_torch_dist_reshard_8x1xNone", s, 844288512, 311828992, 0.06);
    add("gpt3_7b_tp4_pp1_memory_speed", gpt7b(4, 1), 57143791616, 20663519232, 0.025);
    add("gpt3_7b_tp1_pp4_memory_speed", gpt7b(1, 4), 60720852992, 24808996864, 0.025);
    return out;
}

/// Rank 7's memory as counted: the last pipeline stage's.
MemoryBreakdown lastStage(const GeneratorSpec& spec) {
    return stageMemory(spec, buildTransformerProgram(spec), spec.parallel.pp - 1);
}

// What an iteration adds to what stays allocated, counted on the last stage, is the measured
// peak less the measured allocated to 1.5 % at tp 1, 2.5 % on the 7 B model and 6 % at tp 2 and
// 4 (without the 16-bit logits beside their fp32 copy the first case would read 20 % low).
TEST(MegatronMemory, TheIterationsActivationsAndLogitsAreMegatronsPeakLessItsStates) {
    for (const Measured& m : measurements()) {
        SCOPED_TRACE(m.test);
        const MemoryBreakdown mem = lastStage(m.spec);
        const double measured = m.peakBytes - m.allocatedBytes;
        EXPECT_NEAR(mem.activations / measured, 1.0, m.bound)
            << mem.activations / kGiB << " GiB counted, " << measured / kGiB << " GiB measured";
    }
}

// What stays allocated is the counted model states and 0.09 - 0.13 GiB more in every small test
// and the 7 B tp 4 one: the runtime's buffers, not counted. (The 7 B pp 4 run's last stage holds
// 1.35 GiB more, not explained: docs/validation.md.)
TEST(MegatronMemory, WhatStaysAllocatedIsTheStatesAndATenthOfAGibibyte) {
    for (const Measured& m : measurements()) {
        if (std::string(m.test) == "gpt3_7b_tp1_pp4_memory_speed")
            continue;
        SCOPED_TRACE(m.test);
        const MemoryBreakdown mem = lastStage(m.spec);
        const double beyond =
            (m.allocatedBytes - mem.weights - mem.gradients - mem.optimizer) / kGiB;
        EXPECT_GT(beyond, 0.09);
        EXPECT_LT(beyond, 0.135);
    }
}

} // namespace
} // namespace astrolabe::generate
