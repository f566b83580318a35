// ZeRO-Infinity write-back (TraceBuilder.h, "Offload"): with offloaded parameters, each layer's
// updated parameters are stored back to their tier after the optimizer step, once per iteration,
// in the bytes the loads read (ModelStates.h: e bytes per parameter, divided over the
// data-parallel group by ZeRO-3 only). The sizes below are hand counts of the presets' parameters,
// not what the generator prints.
#include "MiniExecutor.h"
#include "TraceChecks.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/WorkloadGenerator.h"
#include "simulation/Simulation.h"
#include "spec/SimulationSpec.h"
#include "support/SmallGpt.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>

namespace astrolabe::generate {
namespace {

const WorkloadNode& node(const WorkloadTrace& t, const std::string& name) {
    return test::nodeNamed(t, name);
}

bool isParameterStore(const WorkloadNode& n) {
    return n.type == NodeType::MemStore && n.name.find(".param.store.") != std::string::npos;
}

/// name -> tensor_size of the trace's parameter write-backs.
std::map<std::string, uint64_t> parameterStores(const WorkloadTrace& t) {
    std::map<std::string, uint64_t> out;
    for (const WorkloadNode& n : t.nodes)
        if (isParameterStore(n))
            out[n.name] = n.tensorSize;
    return out;
}

struct PresetCase {
    const char* preset;
    int zero;
    uint64_t embed, layer, head; ///< bytes of one write-back per NPU
    int layers;
};

// Hand counts (elements), tp = pp = 1, dp 8, 2-byte parameters:
// * gpt2-124m (h 768, 12 layers, ffn 4h, biases, LayerNorm, learned positions, tied):
//   layer 12 h^2 + 13 h = 7,087,872; embedding V h + s h = 50,257 x 768 + 1,024 x 768 =
//   39,383,808; head: the tied table is the embedding's (pp = 1), only the final LayerNorm 2h =
//   1,536. Sum 124,439,808, GPT-2 small's published count.
// * llama3.2-1b (h 2,048, 32 / 8 heads of 64, SwiGLU 8,192, RMSNorm, tied): layer q, o 2 h^2 +
//   k, v 2 h 512 + 3 h 8,192 + 2 norms h = 60,821,504; embedding 128,256 x 2,048 =
//   262,668,288; head the final norm 2,048. Sum 1,235,814,400 (Llama 3.2 1B's 1.24 B).
// ZeRO 0 and 1 keep (and so load and store) all of a layer's parameters; ZeRO 3 one eighth.
std::vector<PresetCase> presetCases() {
    return {
        {"gpt2-124m", 0, 39383808 * 2, 7087872 * 2, 1536 * 2, 12},
        {"gpt2-124m", 3, 39383808 * 2 / 8, 7087872 * 2 / 8, 1536 * 2 / 8, 12},
        {"llama3.2-1b", 1, 262668288ull * 2, 60821504 * 2, 2048 * 2, 16},
        {"llama3.2-1b", 3, 262668288ull * 2 / 8, 60821504 * 2 / 8, 2048 * 2 / 8, 16},
    };
}

// One write-back per layer with parameters per iteration, named after its layer and tier, of the
// hand-counted shard; the figures' store traffic adds exactly those bytes.
TEST(OffloadWriteBack, StoresEachLayersParametersOnceInClosedForm) {
    for (const PresetCase& c : presetCases()) {
        GeneratorSpec s = presetSpec(c.preset);
        ASSERT_EQ(s.parallel.dp, 8) << c.preset;
        ASSERT_EQ(s.parallel.pp * s.parallel.tp, 1) << c.preset;
        s.parallel.zeroStage = c.zero;
        s.offload.parameters = OffloadTier::Nvme;
        const GeneratedWorkload w = generateWorkload(s);
        EXPECT_TRUE(test::wellFormednessProblems(w).empty()) << c.preset;
        std::map<std::string, uint64_t> expected{{"optimizer.embed.param.store.nvme", c.embed},
                                                 {"optimizer.head.param.store.nvme", c.head}};
        for (int i = 0; i < c.layers; ++i)
            expected["optimizer.L" + std::to_string(i) + ".param.store.nvme"] = c.layer;
        ASSERT_EQ(w.traces.size(), 8u);
        for (size_t r = 0; r < w.traces.size(); ++r) {
            EXPECT_EQ(parameterStores(w.traces[r]), expected)
                << c.preset << " zero " << c.zero << " rank " << r;
            int stores = 0;
            for (const WorkloadNode& n : w.traces[r].nodes)
                stores += n.type == NodeType::MemStore ? 1 : 0;
            EXPECT_EQ(stores, c.layers + 2) << "only the write-backs are stores";
        }
        const double weights = double(c.embed) + double(c.head) + double(c.layer) * c.layers;
        const ModelFigures f = computeFigures(s);
        EXPECT_DOUBLE_EQ(f.memory.offloadStoreBytes, weights) << c.preset << " zero " << c.zero;
        EXPECT_DOUBLE_EQ(f.memory.offloadLoadBytes, 2 * f.microBatches * weights);

        // Everything offloaded: stores = parameters + gradients (e bytes, ZeRO >= 2 divides) +
        // optimizer states (12 bytes, ZeRO >= 1 divides).
        s.offload.gradients = OffloadTier::Pool;
        s.offload.optimizer = OffloadTier::Nvme;
        const double parameters = weights / 2 * (c.zero == 3 ? 8 : 1);
        const double gradients = parameters * 2 / (c.zero >= 2 ? 8 : 1);
        const double optimizer = parameters * 12 / (c.zero >= 1 ? 8 : 1);
        EXPECT_DOUBLE_EQ(computeFigures(s).memory.offloadStoreBytes,
                         weights + gradients + optimizer)
            << c.preset << " zero " << c.zero;
        double stored = 0;
        for (const WorkloadNode& n : generateWorkload(s).traces[0].nodes)
            stored += n.type == NodeType::MemStore ? double(n.tensorSize) : 0;
        EXPECT_NEAR(stored, weights + gradients + optimizer, 1e-9 * stored);
    }
}

// small(): OffloadTest's GPT-style model, 2 layers, h 64, t2 p2 d2, 4 micro-batches; buckets of
// 20,000 B. Per NPU (elements): stage 0 embed 5,120 and L0 25,184; stage 1 L1 25,184 and head
// 4,224.
GeneratorSpec small() {
    GeneratorSpec s = astrolabe::test::smallGpt();
    s.parallel.bucketBytes = 20000;
    s.offload.parameters = OffloadTier::Nvme;
    return s;
}

// Each write-back depends on its layer's step (the one optimizer step, or with offloaded
// optimizer states the layer's own) and, under ZeRO-1, on the all-gathers of the buckets that hold
// the layer, which bring the other ranks' updated shards. Buckets fill share by share in backward
// order, 2 bytes per element, and close at 20,000 B: stage 0 L0's attention (17,216 B) and MLP
// (33,152 B) close bucket 0, then embed (10,240 B) is flushed at the end of the pass as bucket 1;
// stage 1 the head (8,448 B) and L1's attention close bucket 0 (25,664 B), L1's MLP alone
// bucket 1, so L1 waits for both all-gathers. No node depends on a write-back.
TEST(OffloadWriteBack, StoreFollowsItsStepAndNothingWaitsForIt) {
    for (int zero : {0, 1, 3})
        for (bool offloadOptimizer : {false, true}) {
            GeneratorSpec s = small();
            s.parallel.zeroStage = zero;
            if (offloadOptimizer)
                s.offload.optimizer = OffloadTier::Pool;
            const GeneratedWorkload w = generateWorkload(s);
            EXPECT_TRUE(test::wellFormednessProblems(w).empty());
            const std::string what =
                "zero " + std::to_string(zero) + (offloadOptimizer ? " optimizer offloaded" : "");
            for (int r : {0, 4}) { // stage 0 and stage 1
                const WorkloadTrace& t = w.traces[size_t(r)];
                const bool first = r < 4;
                std::map<std::string, std::vector<std::string>> gathers;
                if (zero == 1) {
                    if (first)
                        gathers = {{"L0", {"zero.ag.b0"}}, {"embed", {"zero.ag.b1"}}};
                    else
                        gathers = {{"L1", {"zero.ag.b0", "zero.ag.b1"}}, {"head", {"zero.ag.b0"}}};
                }
                std::set<uint64_t> storeIds;
                for (const std::string& layer : first ? std::vector<std::string>{"embed", "L0"}
                                                      : std::vector<std::string>{"L1", "head"}) {
                    const WorkloadNode& store = node(t, "optimizer." + layer + ".param.store.nvme");
                    EXPECT_EQ(store.type, NodeType::MemStore);
                    storeIds.insert(store.id);
                    std::vector<uint64_t> expected{node(t, offloadOptimizer
                                                               ? "optimizer." + layer + ".step"
                                                               : std::string("optimizer.step"))
                                                       .id};
                    for (const std::string& gather : gathers[layer])
                        expected.push_back(node(t, gather).id);
                    EXPECT_EQ(store.dataDeps, expected) << what << " rank " << r << " " << layer;
                    EXPECT_TRUE(store.ctrlDeps.empty());
                }
                EXPECT_EQ(storeIds.size(), 2u);
                for (const WorkloadNode& n : t.nodes)
                    for (uint64_t d : n.dataDeps)
                        EXPECT_EQ(storeIds.count(d), 0u) << n.name << " waits for a write-back";
            }
        }
}

// The engine runs the traces to completion against per-NPU memory (100 ns, 100 B/ns, free
// network): each write-back takes latency + bytes / bandwidth, starts after its step ended, and
// the NPU finishes with its last write-back at the latest.
TEST(OffloadWriteBack, RunsToCompletionOnTheEngine) {
    for (int zero : {0, 1, 3}) {
        GeneratorSpec s = small();
        s.parallel.zeroStage = zero;
        s.offload.gradients = OffloadTier::Nvme;
        s.offload.optimizer = OffloadTier::Nvme;
        GeneratedWorkload w = generateWorkload(s);
        const std::vector<WorkloadTrace> traces = w.traces;
        SimulationSpec spec = test::idealSwitchSpec(w);
        spec.memory.type = RemoteMemoryType::PerNpuMemoryExpansion;
        spec.memory.latencyNs = 100;
        spec.memory.bandwidthBytesPerNs = 100;
        const auto result = runSimulation(spec, std::move(w.traces));
        ASSERT_EQ(result->npus.size(), traces.size());
        for (size_t r = 0; r < traces.size(); ++r) {
            EXPECT_TRUE(result->npus[r].finished) << "zero " << zero << " NPU " << r;
            std::map<uint64_t, const ActivityInterval*> ran;
            for (const ActivityInterval& a : result->activities)
                if (size_t(a.npu) == r)
                    ran[a.nodeId] = &a;
            int stores = 0;
            for (const WorkloadNode& n : traces[r].nodes) {
                if (!isParameterStore(n))
                    continue;
                ++stores;
                ASSERT_TRUE(ran.count(n.id)) << n.name;
                const ActivityInterval& store = *ran[n.id];
                EXPECT_EQ(store.end - store.start,
                          SimTime::fromNs(100 + int64_t(n.tensorSize / 100)))
                    << n.name;
                for (uint64_t d : n.dataDeps) {
                    ASSERT_TRUE(ran.count(d)) << n.name;
                    EXPECT_GE(store.start, ran[d]->end) << n.name;
                }
                EXPECT_LE(store.end, result->npus[r].finish) << n.name;
            }
            EXPECT_EQ(stores, 2) << "zero " << zero << " NPU " << r;
        }
    }
}

// Ranks drifting apart (the mini executor's random delays) never deadlock with write-backs.
TEST(OffloadWriteBack, NeverDeadlocks) {
    for (int zero : {0, 1, 2, 3})
        for (unsigned salt : {0u, 1u, 2u}) {
            GeneratorSpec s = small();
            s.model.layers = 4;
            s.parallel.zeroStage = zero;
            s.offload.optimizer = OffloadTier::Pool;
            const test::MiniRun run =
                test::runMiniExecutor(generateWorkload(s), 0.5 * salt * salt, salt);
            EXPECT_TRUE(run.completed)
                << "zero " << zero << " salt " << salt << ": " << run.deadlock;
        }
}

} // namespace
} // namespace astrolabe::generate
