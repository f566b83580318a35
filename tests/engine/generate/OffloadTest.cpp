// ZeRO-Infinity-style offload (GeneratorSpec::offload): with offload off the traces are exactly
// those generated before offload existed (golden hashes); parameter, gradient and optimizer
// offload add MEM_LOAD / MEM_STORE nodes of the hand-computed shard sizes, prefetched layers
// ahead; the figures move the offloaded bytes out of HBM.
#include "MiniExecutor.h"
#include "TraceChecks.h"
#include "core/Error.h"
#include "generate/GeneratorValues.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/WorkloadGenerator.h"
#include "support/SmallGpt.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>

namespace astrolabe::generate {
namespace {

// FNV-1a over every field of every node of every trace, and the groups.
class Hash {
public:
    void add(uint64_t value) {
        for (int i = 0; i < 8; ++i) {
            m_value ^= (value >> (8 * i)) & 0xff;
            m_value *= 1099511628211ull;
        }
    }
    void add(const std::string& text) {
        add(text.size());
        for (char c : text) {
            m_value ^= uint8_t(c);
            m_value *= 1099511628211ull;
        }
    }
    uint64_t value() const { return m_value; }

private:
    uint64_t m_value = 14695981039346656037ull;
};

uint64_t workloadHash(const GeneratedWorkload& w) {
    Hash h;
    for (const WorkloadTrace& t : w.traces) {
        h.add(t.schemaVersion);
        h.add(t.nodes.size());
        for (const WorkloadNode& n : t.nodes) {
            h.add(n.id);
            h.add(n.name);
            h.add(uint64_t(n.type));
            h.add(n.dataDeps.size());
            for (uint64_t d : n.dataDeps)
                h.add(d);
            h.add(n.ctrlDeps.size());
            for (uint64_t d : n.ctrlDeps)
                h.add(d);
            h.add(n.durationMicros);
            h.add(uint64_t(n.hasNumOps) | uint64_t(n.hasTensorSize) << 1 |
                  uint64_t(n.hasCommType) << 2 | uint64_t(n.hasCommSize) << 3 |
                  uint64_t(n.hasCommSrc) << 4 | uint64_t(n.hasCommDst) << 5 |
                  uint64_t(n.hasCommTag) << 6);
            h.add(n.numOps);
            h.add(n.tensorSize);
            h.add(uint64_t(n.commType));
            h.add(n.commSize);
            h.add(n.commSrc);
            h.add(n.commDst);
            h.add(n.commTag);
            h.add(n.pgName);
        }
    }
    for (const auto& [id, ranks] : w.groups) {
        h.add(uint64_t(id));
        for (int r : ranks)
            h.add(uint64_t(r));
    }
    return h.value();
}

// GPT-style: 2 layers, h 64, 4 heads, ffn 256, V 128, s 16, micro-batch 1, fp16;
// TP2 PP2 DP2 (8 NPUs), 4 micro-batches, 1F1B, ZeRO 0, one large bucket (TraceGeneratorTest's).
GeneratorSpec small() {
    GeneratorSpec s = astrolabe::test::smallGpt();
    return s;
}

struct Golden {
    const char* name;
    GeneratorSpec spec;
    uint64_t hash;
};

std::vector<Golden> goldens() {
    std::vector<Golden> out;
    out.push_back({"small", small(), 0x9519203e9a38ec12ull});
    GeneratorSpec s = small();
    s.parallel.zeroStage = 1;
    out.push_back({"small zero 1", s, 0x53f4219da1256d7aull});
    s.parallel.zeroStage = 3;
    s.parallel.recompute = true;
    // ZeRO-3's prefetched gathers start with the layer before and its reduce-scatters queue
    // behind them (ZeroPrefetchTest.cpp).
    out.push_back({"small zero 3 recompute", s, 0xcda599a789276afaull});
    s = small();
    s.parallel.sequenceParallel = true;
    s.parallel.schedule = PipelineSchedule::Interleaved;
    s.parallel.virtualStages = 2;
    s.model.layers = 4;
    s.parallel.bucketBytes = 4096;
    out.push_back({"small sp interleaved buckets", s, 0x68dbc8beadba03e6ull});
    s = presetSpec("mixtral-8x7b");
    s.model.layers = 4;
    s.parallel = {};
    s.parallel.pp = 2;
    s.parallel.dp = 4;
    s.parallel.ep = 2;
    s.parallel.zeroStage = 2;
    s.training.microBatch = 1;
    s.training.globalBatch = 8;
    out.push_back({"mixtral small", s, 0xf647182126da1032ull});
    s = presetSpec("resnet50");
    s.parallel.dp = 4;
    s.training.globalBatch = 4 * s.training.microBatch;
    out.push_back({"resnet50 dp 4", s, 0x6de29a2ce6517d84ull});
    return out;
}

// Offload off (the default): the traces are byte for byte those generated before offload
// existed (hashes taken from that generator).
TEST(Offload, OffTracesAreUnchanged) {
    for (const Golden& g : goldens()) {
        const GeneratedWorkload w = generateWorkload(g.spec);
        EXPECT_TRUE(test::wellFormednessProblems(w).empty()) << g.name;
        const uint64_t hash = workloadHash(w);
        char text[32];
        std::snprintf(text, sizeof text, "0x%016llxull", static_cast<unsigned long long>(hash));
        EXPECT_EQ(hash, g.hash) << g.name << ": " << text;
    }
}

const WorkloadNode& node(const WorkloadTrace& t, const std::string& name) {
    return test::nodeNamed(t, name);
}

bool dependsOn(const WorkloadNode& n, uint64_t id) {
    return std::find(n.dataDeps.begin(), n.dataDeps.end(), id) != n.dataDeps.end();
}

/// tensor_size -> count of the trace's nodes of `type`.
std::map<uint64_t, int> sizes(const WorkloadTrace& t, NodeType type) {
    std::map<uint64_t, int> out;
    for (const WorkloadNode& n : t.nodes)
        if (n.type == type)
            ++out[n.tensorSize];
    return out;
}

// Parameters per rank (TraceGeneratorTest's hand count, elements): stage 0 embed 5120 and L0
// 8608 + 16576 = 25184; stage 1 L1 25184 and head 4096 + 128 = 4224. 2 bytes each; ZeRO 3
// halves them over dp 2. Every layer is loaded before each of its 4 forward and 4 backward
// passes: 2 layers x (4 + 4) = 16 loads per rank; after the optimizer step each layer's
// parameters are written back once (OffloadWriteBackTest.cpp): 2 stores of the same sizes.
TEST(Offload, ParameterLoadsMatchTheHandCount) {
    GeneratorSpec s = small();
    s.offload.parameters = OffloadTier::Nvme;
    for (int zero : {0, 3}) {
        s.parallel.zeroStage = zero;
        const GeneratedWorkload w = generateWorkload(s);
        EXPECT_TRUE(test::wellFormednessProblems(w).empty()) << zero;
        const uint64_t divisor = zero == 3 ? 2 : 1;
        for (int r = 0; r < 8; ++r) {
            const bool first = r < 4;
            const std::map<uint64_t, int> loads = sizes(w.traces[size_t(r)], NodeType::MemLoad);
            const std::map<uint64_t, int> expected =
                first ? std::map<uint64_t, int>{{5120 * 2 / divisor, 8}, {25184 * 2 / divisor, 8}}
                      : std::map<uint64_t, int>{{4224 * 2 / divisor, 8}, {25184 * 2 / divisor, 8}};
            EXPECT_EQ(loads, expected) << "zero " << zero << " rank " << r;
            std::map<uint64_t, int> stores;
            for (const auto& [bytes, count] : expected)
                stores[bytes] = count / 8;
            EXPECT_EQ(sizes(w.traces[size_t(r)], NodeType::MemStore), stores)
                << "zero " << zero << " rank " << r;
            // Every other node is the offload-free trace's: 55 (stage 0) or 59 (stage 1).
            const GeneratorSpec plain = [&] {
                GeneratorSpec p = s;
                p.offload = {};
                return p;
            }();
            EXPECT_EQ(test::countNodes(w.traces[size_t(r)]).total(),
                      test::countNodes(generateWorkload(plain).traces[size_t(r)]).total());
        }
    }
}

// Prefetch 1: the pass's first layer is loaded when the pass starts; layer i + 1's load is
// issued when layer i starts (depends on its first node), and each layer's first node depends
// on its own load. Prefetch 0: a layer's load follows the previous layer.
TEST(Offload, PrefetchIssuesTheNextLayersLoadWhenALayerStarts) {
    GeneratorSpec s = small();
    s.offload.parameters = OffloadTier::Pool;
    ASSERT_EQ(s.offload.prefetch, 1);
    GeneratedWorkload w = generateWorkload(s);
    const WorkloadTrace& t = w.traces[0]; // stage 0: embed, L0
    const WorkloadNode& embedLoad = node(t, "F0.embed.param.load.pool");
    EXPECT_EQ(embedLoad.type, NodeType::MemLoad);
    EXPECT_TRUE(embedLoad.dataDeps.empty()); // the first pass starts the iteration
    const WorkloadNode& embedStart = node(t, "F0.embed.lookup");
    const WorkloadNode& l0Load = node(t, "F0.L0.param.load.pool");
    const WorkloadNode& l0Start = node(t, "F0.L0.attn");
    EXPECT_TRUE(dependsOn(embedStart, embedLoad.id));
    EXPECT_EQ(l0Load.dataDeps, std::vector<uint64_t>{embedStart.id});
    EXPECT_TRUE(dependsOn(l0Start, l0Load.id));
    // Backward: L0 first, then embed.
    const WorkloadNode& bwdL0Start = node(t, "B0.L0.mlp.bwd");
    const WorkloadNode& bwdEmbedLoad = node(t, "B0.embed.param.load.pool");
    EXPECT_TRUE(dependsOn(bwdL0Start, node(t, "B0.L0.param.load.pool").id));
    EXPECT_EQ(bwdEmbedLoad.dataDeps, std::vector<uint64_t>{bwdL0Start.id});
    EXPECT_TRUE(dependsOn(node(t, "B0.embed.lookup.bwd"), bwdEmbedLoad.id));

    s.offload.prefetch = 0;
    w = generateWorkload(s);
    const WorkloadTrace& u = w.traces[0];
    // L0's load waits for the embedding's last node (its tp all-reduce).
    const WorkloadNode& load = node(u, "F0.L0.param.load.pool");
    EXPECT_EQ(load.dataDeps, std::vector<uint64_t>{node(u, "F0.embed.lookup.tp.ar").id});
    EXPECT_TRUE(dependsOn(node(u, "F0.L0.attn"), load.id));

    s.offload.prefetch = 2; // both layers of the stage load when the pass starts
    w = generateWorkload(s);
    EXPECT_TRUE(node(w.traces[0], "F0.L0.param.load.pool").dataDeps.empty());
}

// Gradients: each layer's gradients are stored once per iteration, after the bucket all-reduce
// (ZeRO 0: full size) or its reduce-scatter (ZeRO 3: the 1/dp shard); the optimizer waits.
// Optimizer states: per layer, load 12 B per parameter, step, store.
TEST(Offload, GradientAndOptimizerOffload) {
    GeneratorSpec s = small();
    s.offload.gradients = OffloadTier::Nvme;
    GeneratedWorkload w = generateWorkload(s);
    EXPECT_TRUE(test::wellFormednessProblems(w).empty());
    const WorkloadTrace& t = w.traces[0];
    EXPECT_EQ(sizes(t, NodeType::MemStore), (std::map<uint64_t, int>{{10240, 1}, {50368, 1}}));
    EXPECT_TRUE(sizes(t, NodeType::MemLoad).empty());
    uint64_t bucket = 0;
    for (const WorkloadNode& n : t.nodes)
        if (n.type == NodeType::CommColl && n.commSize == 60608)
            bucket = n.id;
    const WorkloadNode& store = node(t, "B3.L0.grad.store.nvme");
    EXPECT_TRUE(dependsOn(store, bucket));
    // Tied embeddings over 2 stages: the embedding all-reduce, then the step, wait for it.
    EXPECT_TRUE(dependsOn(node(t, "grad.embedding"), store.id));

    s.parallel.zeroStage = 3;
    w = generateWorkload(s);
    EXPECT_TRUE(test::wellFormednessProblems(w).empty());
    EXPECT_EQ(sizes(w.traces[0], NodeType::MemStore),
              (std::map<uint64_t, int>{{5120, 1}, {25184, 1}}));

    s = small();
    s.offload.optimizer = OffloadTier::Pool;
    w = generateWorkload(s);
    EXPECT_TRUE(test::wellFormednessProblems(w).empty());
    const std::map<uint64_t, int> states{{5120 * 12, 1}, {25184 * 12, 1}};
    EXPECT_EQ(sizes(w.traces[0], NodeType::MemLoad), states);
    EXPECT_EQ(sizes(w.traces[0], NodeType::MemStore), states);
    const WorkloadTrace& o = w.traces[0];
    const WorkloadNode& step = node(o, "optimizer.L0.step");
    EXPECT_TRUE(dependsOn(step, node(o, "optimizer.L0.load.pool").id));
    EXPECT_TRUE(dependsOn(step, node(o, "optimizer.embed.step").id));
    EXPECT_EQ(node(o, "optimizer.L0.store.pool").dataDeps, std::vector<uint64_t>{step.id});
}

// The figures' HBM total drops by exactly the offloaded bytes, listed per tier with the traffic.
TEST(Offload, FiguresMoveTheOffloadedStatesOutOfHbm) {
    GeneratorSpec s = presetSpec("llama3.2-1b"); // pp 1: one stage
    const ModelFigures base = computeFigures(s);
    s.offload.parameters = OffloadTier::Nvme;
    s.offload.gradients = OffloadTier::Pool;
    s.offload.optimizer = OffloadTier::Nvme;
    const ModelFigures f = computeFigures(s);
    EXPECT_EQ(f.memory.weights + f.memory.gradients + f.memory.optimizer, 0);
    EXPECT_EQ(f.memory.offloadedWeights, base.memory.weights);
    EXPECT_EQ(f.memory.offloadedGradients, base.memory.gradients);
    EXPECT_EQ(f.memory.offloadedOptimizer, base.memory.optimizer);
    EXPECT_NEAR(f.memory.total(), base.memory.total() - f.memory.offloaded(),
                1e-9 * base.memory.total());
    EXPECT_EQ(f.offloadedTo(OffloadTier::Nvme), base.memory.weights + base.memory.optimizer);
    EXPECT_EQ(f.offloadedTo(OffloadTier::Pool), base.memory.gradients);
    EXPECT_DOUBLE_EQ(f.memory.offloadLoadBytes,
                     2 * f.microBatches * base.memory.weights + base.memory.optimizer);
    EXPECT_DOUBLE_EQ(f.memory.offloadStoreBytes,
                     base.memory.weights + base.memory.gradients + base.memory.optimizer);
    const std::string text = formatFigures(f);
    EXPECT_NE(text.find("offloaded per NPU"), std::string::npos) << text;
    EXPECT_NE(text.find("offload traffic"), std::string::npos) << text;
    EXPECT_EQ(formatFigures(base).find("offload"), std::string::npos);

    // The trace's loads and stores carry the same bytes (rank 0, one iteration).
    const GeneratedWorkload w = generateWorkload(s);
    double loaded = 0, stored = 0;
    for (const WorkloadNode& n : w.traces[0].nodes) {
        loaded += n.type == NodeType::MemLoad ? double(n.tensorSize) : 0;
        stored += n.type == NodeType::MemStore ? double(n.tensorSize) : 0;
    }
    EXPECT_NEAR(loaded, f.memory.offloadLoadBytes, 1e-6 * loaded);
    EXPECT_NEAR(stored, f.memory.offloadStoreBytes, 1e-6 * stored);
}

// Settings: offload-* names (CLI flags, sweep axes) set the spec; a bad tier names the flag and
// the valid values.
TEST(Offload, SettingsParseAndRejectUnknownTiers) {
    const GeneratorSpec s = generatorSpecFrom("gpt2-124m", {{"offload-parameters", "nvme"},
                                                            {"offload-gradients", "pool"},
                                                            {"offload-optimizer", "none"},
                                                            {"offload-prefetch", "3"}});
    EXPECT_EQ(s.offload.parameters, OffloadTier::Nvme);
    EXPECT_EQ(s.offload.gradients, OffloadTier::Pool);
    EXPECT_EQ(s.offload.optimizer, OffloadTier::None);
    EXPECT_EQ(s.offload.prefetch, 3);
    try {
        generatorSpecFrom("gpt2-124m", {{"offload-parameters", "disk"}});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "offload-parameters");
        EXPECT_EQ(e.message(), "expected none, nvme or pool, found \"disk\"");
    }
    GeneratorSpec bad = presetSpec("gpt2-124m");
    bad.offload.prefetch = -1;
    EXPECT_THROW(validate(bad), Error);
}

// Offloaded traces still run to completion when ranks drift apart (MEM nodes hold the
// communication slot).
TEST(Offload, OffloadedTracesNeverDeadlock) {
    for (int zero : {0, 1, 3})
        for (int prefetch : {0, 1, 2})
            for (unsigned salt : {0u, 1u, 2u}) {
                GeneratorSpec s = small();
                s.model.layers = 4;
                s.parallel.zeroStage = zero;
                s.parallel.bucketBytes = 20000;
                s.offload = {OffloadTier::Nvme, OffloadTier::Pool, OffloadTier::Nvme, prefetch};
                const GeneratedWorkload w = generateWorkload(s);
                EXPECT_TRUE(test::wellFormednessProblems(w).empty());
                const test::MiniRun run = test::runMiniExecutor(w, 0.5 * salt * salt, salt);
                EXPECT_TRUE(run.completed) << "zero " << zero << " prefetch " << prefetch
                                           << " salt " << salt << ": " << run.deadlock;
            }
}

} // namespace
} // namespace astrolabe::generate
