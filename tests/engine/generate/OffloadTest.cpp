// ZeRO-Infinity-style offload (GeneratorSpec::offload): with offload off the traces are exactly
// those generated before offload existed (golden hashes); parameter, gradient and optimizer
// offload add MEM_LOAD / MEM_STORE nodes of the hand-computed shard sizes, prefetched layers
// ahead; the figures move the offloaded bytes out of HBM.
#include "TraceChecks.h"
#include "generate/ModelPresets.h"
#include "generate/WorkloadGenerator.h"

#include <cstdio>
#include <gtest/gtest.h>

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
    GeneratorSpec s;
    ModelSpec& m = s.model;
    m.name = "small";
    m.layers = 2;
    m.hidden = 64;
    m.heads = 4;
    m.ffn = 256;
    m.vocabulary = 128;
    m.sequence = 16;
    m.biases = true;
    m.tiedEmbeddings = true;
    m.learnedPositions = true;
    s.training = {1, 8, 2};
    s.parallel.tp = 2;
    s.parallel.pp = 2;
    s.parallel.dp = 2;
    s.parallel.bucketBytes = 1ull << 30;
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
    out.push_back({"small zero 3 recompute", s, 0x5b7f90a0ff16f032ull});
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

} // namespace
} // namespace astrolabe::generate
