// Context parallelism in the generator (GeneratorSpec.h ParallelSpec::cp): the rank layout and
// its groups, the per-rank closed forms (tokens, attention FLOPs and activation memory over cp;
// the keys and values exchanged round the ring) and the trace's overlap of the exchange with
// the attention core.
#include "core/Error.h"
#include "generate/ActivationMemory.h"
#include "generate/GeneratorValues.h"
#include "generate/LayerProgram.h"
#include "generate/RankLayout.h"
#include "generate/TransformerKernels.h"
#include "generate/TransformerProgram.h"
#include "generate/WorkloadGenerator.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace astrolabe::generate {
namespace {

GeneratorSpec llama8b(int cp, int tp = 1) {
    return generatorSpecFrom("llama3-8b", {{"gpu", "h100"},
                                           {"compute-model", "operations"},
                                           {"tp", std::to_string(tp)},
                                           {"cp", std::to_string(cp)},
                                           {"pp", "1"},
                                           {"dp", "1"},
                                           {"micro-batch", "1"},
                                           {"global-batch", "2"}});
}

const Step* findStep(const std::vector<Step>& steps, const std::string& name) {
    for (const Step& s : steps)
        if (s.name == name)
            return &s;
    return nullptr;
}

TEST(ContextParallel, SitsRightAfterTpAndJoinsTheDataParallelGroup) {
    ParallelSpec p;
    p.tp = 2;
    p.cp = 2;
    p.dp = 2;
    p.pp = 2;
    const RankLayout layout(p);
    ASSERT_EQ(layout.npus(), 16);
    // rank = tp + 2 cp + 4 dp + 8 pp (Megatron's tp-cp-dp-pp order).
    const RankCoordinates c = layout.coordinates(7);
    EXPECT_EQ(c.tp, 1);
    EXPECT_EQ(c.cp, 1);
    EXPECT_EQ(c.dp, 1);
    EXPECT_EQ(c.pp, 0);
    EXPECT_EQ(layout.rank({1, 1, 0, 1}), 7);
    const auto members = [&](GroupKind kind, int rank) {
        return layout.groups().at(layout.groupId(kind, rank));
    };
    EXPECT_EQ(members(GroupKind::Cp, 5), (std::vector<int>{5, 7}));
    EXPECT_EQ(members(GroupKind::Tp, 5), (std::vector<int>{4, 5}));
    // Gradients are reduced over dp x cp, as Megatron does.
    EXPECT_EQ(members(GroupKind::Dp, 5), (std::vector<int>{1, 3, 5, 7}));
    EXPECT_EQ(layout.groupSize(GroupKind::Dp), 4);
    EXPECT_EQ(layout.groupSize(GroupKind::Cp), 2);
    EXPECT_EQ(members(GroupKind::Pp, 5), (std::vector<int>{5, 13}));
    EXPECT_EQ(placementSummary(p, {8, 2}), "tp 2: dim 0; cp 2: dim 0; dp 2: dim 0; pp 2: dim 1");
}

TEST(ContextParallel, EachRankHoldsOneCpThOfTheSequence) {
    const GeneratorSpec one = llama8b(1), four = llama8b(4);
    ASSERT_EQ(four.parallel.npus(), 4);
    // Activation memory (Korthikanti's 34 s b h per layer with fused attention) over cp.
    EXPECT_DOUBLE_EQ(layerActivationBytes(four), layerActivationBytes(one) / 4);
    EXPECT_DOUBLE_EQ(layerActivationBytes(one), 34.0 * 8192 * 4096);
    // Attention FLOPs over cp: the FlashAttention core of 2048 of the 8192 queries against all
    // 8192 keys, the causal half skipped: 4 s^2 h / 2 / cp.
    auto core = [](const GeneratorSpec& s) {
        for (const Kernel& g : attentionKernels(s.model, kernelShape(s)))
            if (g.kind == Kernel::Kind::Flash)
                return g.flops;
        return 0.0;
    };
    EXPECT_DOUBLE_EQ(core(one), 4.0 * 8192 * 8192 * 4096 / 2);
    EXPECT_DOUBLE_EQ(core(four), core(one) / 4);
    // Every GEMM has a quarter of the rows.
    EXPECT_DOUBLE_EQ(attentionKernels(four.model, kernelShape(four))[1].m, 2048);
}

TEST(ContextParallel, TheRingMovesEachRanksKeysAndValues) {
    const GeneratorSpec spec = llama8b(4, 2);
    const ModelProgram program = buildTransformerProgram(spec);
    const LayerProgram& layer = program.layers[1];
    // K and V of 8192 / 4 tokens, 8 KV heads over tp 2 of 128, BF16: 2 x 2048 x 4 x 128 x 2.
    const uint64_t shard = 2ull * 2048 * 4 * 128 * 2;
    const Step* kv = findStep(layer.forward, "attn.cp.kv");
    ASSERT_NE(kv, nullptr);
    EXPECT_EQ(kv->collective, CollectiveType::AllGather); // cp - 1 shards sent round the ring
    EXPECT_EQ(kv->commBytes, shard);
    EXPECT_EQ(kv->group, GroupKind::Cp);
    EXPECT_TRUE(kv->overlapsNext);
    const Step* grads = findStep(layer.backward, "attn.cp.dkv");
    ASSERT_NE(grads, nullptr);
    EXPECT_EQ(grads->collective, CollectiveType::ReduceScatter);
    EXPECT_EQ(grads->commBytes, 4 * shard);
    ASSERT_NE(findStep(layer.backward, "attn.cp.kv.bwd"), nullptr);
    // The block's kernels are the same as one block's, split around the core.
    double split = 0, whole = 0;
    for (const char* name : {"attn.qkv", "attn.core", "attn.out"})
        split += findStep(layer.forward, name)->kernels.size();
    whole = double(attentionKernels(spec.model, kernelShape(spec)).size());
    EXPECT_DOUBLE_EQ(split, whole);
    // cp 1 keeps the single attention block.
    const ModelProgram plain = buildTransformerProgram(llama8b(1, 2));
    EXPECT_NE(findStep(plain.layers[1].forward, "attn"), nullptr);
    EXPECT_EQ(findStep(plain.layers[1].forward, "attn.cp.kv"), nullptr);
}

TEST(ContextParallel, TheExchangeRunsBesideTheAttentionCore) {
    const GeneratedWorkload w = generateWorkload(llama8b(2));
    ASSERT_EQ(w.traces.size(), 2u);
    const WorkloadTrace& t = w.traces[0];
    auto find = [&](const std::string& name) -> const WorkloadNode* {
        for (const WorkloadNode& n : t.nodes)
            if (n.name.str() == name)
                return &n;
        return nullptr;
    };
    const WorkloadNode* qkv = find("F0.L0.attn.qkv");
    const WorkloadNode* kv = find("F0.L0.attn.cp.kv");
    const WorkloadNode* core = find("F0.L0.attn.core");
    const WorkloadNode* out = find("F0.L0.attn.out");
    ASSERT_TRUE(qkv && kv && core && out);
    auto dependsOn = [](const WorkloadNode& n, const WorkloadNode& on) {
        return std::find(n.dataDeps.begin(), n.dataDeps.end(), on.id) != n.dataDeps.end() ||
               std::find(n.ctrlDeps.begin(), n.ctrlDeps.end(), on.id) != n.ctrlDeps.end();
    };
    EXPECT_TRUE(dependsOn(*kv, *qkv));
    EXPECT_TRUE(dependsOn(*core, *qkv));
    EXPECT_FALSE(dependsOn(*core, *kv)); // beside it
    EXPECT_TRUE(dependsOn(*out, *core));
    EXPECT_TRUE(dependsOn(*out, *kv)); // the projection waits for both
    EXPECT_EQ(kv->commSize, 2ull * 4096 * 8 * 128 * 2);
}

TEST(ContextParallel, BadSettingsNameTheKey) {
    GeneratorSpec spec = llama8b(3);
    try {
        validate(spec);
        FAIL() << "8192 does not split into 6 chunks";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("parallel.cp"), std::string::npos) << e.what();
    }
    spec = llama8b(2);
    spec.training.flashAttention = false;
    EXPECT_THROW(validate(spec), Error);
}

} // namespace
} // namespace astrolabe::generate
