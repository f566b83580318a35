// ZeRO-3's weight gathers as FSDP and DeepSpeed issue them (docs/planner.md): the gathers of
// the layer a pass runs next are issued when this layer may start (they depend on exactly what
// this layer's first node depends on, no compute of this layer), and each of this layer's
// gradient reduce-scatters is enqueued behind the prefetched gather of its group (it depends on
// it), as one NCCL communicator runs its collectives in the order they were enqueued. Without
// that order a last-in-first-out collective queue let the reduce-scatter overtake the gather
// the next layer waits for, and the gathers were never hidden behind compute.
#include "TraceChecks.h"
#include "generate/WorkloadGenerator.h"
#include "support/SmallGpt.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>

namespace astrolabe::generate {
namespace {

struct Named {
    std::string pass, layer, rest; ///< "B0", "L1", "zero.rs.dp"
};

Named split(const std::string& name) {
    const size_t a = name.find('.');
    const size_t b = name.find('.', a + 1);
    if (a == std::string::npos || b == std::string::npos)
        return {};
    return {name.substr(0, a), name.substr(a + 1, b - a - 1), name.substr(b + 1)};
}

std::set<uint64_t> depsOf(const WorkloadNode& n) {
    std::set<uint64_t> deps(n.dataDeps.begin(), n.dataDeps.end());
    deps.insert(n.ctrlDeps.begin(), n.ctrlDeps.end());
    return deps;
}

} // namespace

TEST(ZeroPrefetch, NextLayersGathersStartWithThisLayerAndPrecedeItsReduceScatters) {
    GeneratorSpec s = astrolabe::test::smallGpt(1, 1, 4);
    s.model.layers = 4;
    s.parallel.zeroStage = 3;
    s.training.globalBatch = 8; // 2 micro-batches of 1 per data-parallel rank
    const GeneratedWorkload w = generateWorkload(s);
    ASSERT_TRUE(test::wellFormednessProblems(w).empty());
    const WorkloadTrace& t = w.traces[0];

    // Per pass: its layers in the order it runs them, each layer's first non-gather node, and
    // the ids of every gather and reduce-scatter by (pass, layer, group).
    std::map<std::string, std::vector<std::string>> layersOf;
    std::map<std::pair<std::string, std::string>, const WorkloadNode*> firstNode;
    std::map<std::string, const WorkloadNode*> byName;
    for (const WorkloadNode& n : t.nodes) {
        const Named named = split(n.name);
        byName[n.name] = &n;
        if (named.pass.empty() || named.rest.rfind("zero.", 0) == 0)
            continue;
        std::vector<std::string>& order = layersOf[named.pass];
        if (std::find(order.begin(), order.end(), named.layer) == order.end())
            order.push_back(named.layer);
        firstNode.emplace(std::make_pair(named.pass, named.layer), &n);
    }
    ASSERT_EQ(layersOf["F0"], (std::vector<std::string>{"embed", "L0", "L1", "L2", "L3", "head"}));
    ASSERT_EQ(layersOf["B0"], (std::vector<std::string>{"head", "L3", "L2", "L1", "L0", "embed"}));

    int prefetches = 0, ordered = 0;
    for (const auto& [pass, layers] : layersOf)
        for (size_t i = 0; i + 1 < layers.size(); ++i) {
            const WorkloadNode* first = firstNode.at({pass, layers[i]});
            for (const char* group : {"dp"}) {
                const auto gather = byName.find(pass + "." + layers[i + 1] + ".zero.ag." + group);
                ASSERT_NE(gather, byName.end()) << pass << " " << layers[i + 1];
                // Issued when layer i may start: on what its first node waits for, and before it.
                EXPECT_EQ(depsOf(*gather->second), depsOf(*first)) << gather->first;
                EXPECT_LT(gather->second->id, first->id) << gather->first;
                ++prefetches;
                const auto scatter = byName.find(pass + "." + layers[i] + ".zero.rs." + group);
                if (scatter == byName.end())
                    continue; // a forward pass reduces nothing
                EXPECT_TRUE(depsOf(*scatter->second).count(gather->second->id))
                    << scatter->first << " is enqueued behind " << gather->first;
                ++ordered;
            }
        }
    EXPECT_EQ(prefetches, 4 * 5) << "two micro-batches, forward and backward, 5 per pass";
    EXPECT_EQ(ordered, 2 * 5) << "every backward layer but the last";
}

} // namespace astrolabe::generate

namespace astrolabe::generate {

// A layer whose pass starts with a blocking collective (an MoE layer's backward starts with
// its expert all-to-all) prefetches after that collective: queued ahead of it, the gathers of
// the next layer would delay it (one collective at a time runs on a dimension).
TEST(ZeroPrefetch, ALayerStartingWithACollectivePrefetchesAfterIt) {
    GeneratorSpec s = astrolabe::test::smallGpt(1, 1, 4);
    s.model.layers = 2;
    s.model.experts = 4;
    s.model.topK = 2;
    s.model.expertFfn = 128;
    s.parallel.ep = 2;
    s.parallel.zeroStage = 3;
    const GeneratedWorkload w = generateWorkload(s);
    ASSERT_TRUE(test::wellFormednessProblems(w).empty());
    std::map<std::string, const WorkloadNode*> byName;
    const WorkloadNode* leading = nullptr; // B0.L1's first node
    for (const WorkloadNode& n : w.traces[0].nodes) {
        byName[n.name] = &n;
        const std::string name = n.name;
        if (!leading && name.rfind("B0.L1.", 0) == 0 && name.find(".zero.") == std::string::npos)
            leading = &n;
    }
    ASSERT_NE(leading, nullptr);
    ASSERT_NE(leading->type, NodeType::Comp) << leading->name << " is the all-to-all";
    const auto gather = byName.find("B0.L0.zero.ag.dp");
    ASSERT_NE(gather, byName.end());
    EXPECT_EQ(depsOf(*gather->second), std::set<uint64_t>{leading->id});
    EXPECT_GT(gather->second->id, leading->id);
}

} // namespace astrolabe::generate
