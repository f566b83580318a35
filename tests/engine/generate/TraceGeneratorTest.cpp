// Generated traces: hand-counted collectives and send/recvs for a small configuration,
// structural well-formedness over many configurations, FLOPs in the trace against the closed
// forms, and the GPT-3 175B / 1,024 NPU generation time.
#include "TraceChecks.h"
#include "astra/AstraExport.h"
#include "astra/AstraMemoryConfig.h"
#include "core/Error.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "support/SmallGpt.h"
#include "support/TempDir.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>

namespace astrolabe::generate {
namespace {

using test::countCollectives;
using test::countNodes;
using test::wellFormednessProblems;

// GPT-style: 2 layers, h 64, 4 heads, ffn 256, V 128, s 16, micro-batch 1, fp16;
// TP2 PP2 DP2 (8 NPUs), 4 micro-batches (global batch 8), 1F1B, ZeRO 0, one large bucket.
GeneratorSpec small() {
    GeneratorSpec s = astrolabe::test::smallGpt();
    return s;
}

// Hand count, per rank per iteration (m = 4, b*s*h*e = 16*64*2 = 2048 bytes):
// stage 0 holds embed + L0; per micro-batch forward: embed AR, attn AR, mlp AR (3); backward:
//   mlp AR, attn AR (the embedding's backward has no tp collective) (2) -> 20 all-reduces of
//   2048 B. 4 SEND (forward activations) + 4 RECV (gradients), 2048 B each.
//   COMP: 3 forward + 3 backward per micro-batch + 1 optimizer = 25.
//   DP: one bucket all-reduce of this rank's gradients: embedding V*h/t + s*h = 4096 + 1024,
//   attention (4h^2 + 3h)/t + h + 4h = 8608, MLP (2hf + f)/t + h = 16576 -> 30304 elements,
//   60608 bytes.
// stage 1 holds L1 + head: forward attn AR, mlp AR, loss AR (3 fp32 per token = 192 B);
//   backward head AR, mlp AR, attn AR -> 20 x 2048 B + 4 x 192 B. 4 RECV + 4 SEND.
//   COMP 25. DP bucket: 8608 + 16576 + its copy of the tied table V*h/t = 4096 + final
//   LayerNorm 2h = 128 -> 29408 elements, 58816 bytes.
// Tied embeddings over 2 stages: both stages then all-reduce the table's gradient
//   (V*h/t*2 = 8192 B) over the embedding group {rank, rank +- 4} before the optimizer step.
// Totals: stage 0 22 collectives, 55 nodes; stage 1 26 collectives, 59 nodes.
TEST(TraceGenerator, SmallConfigurationMatchesTheHandCount) {
    const GeneratedWorkload w = generateWorkload(small());
    ASSERT_EQ(w.traces.size(), 8u);
    EXPECT_TRUE(wellFormednessProblems(w).empty());
    // Ranks: rank = tp + 2 (dp + 2 pp): stage 0 = ranks 0..3, stage 1 = ranks 4..7.
    for (int r = 0; r < 8; ++r) {
        const WorkloadTrace& t = w.traces[size_t(r)];
        const bool first = r < 4;
        const test::NodeCounts c = countNodes(t);
        EXPECT_EQ(c.comp, 25) << r;
        EXPECT_EQ(c.send, 4) << r;
        EXPECT_EQ(c.recv, 4) << r;
        EXPECT_EQ(countCollectives(t, CollectiveType::AllReduce, 2048), 20) << r;
        EXPECT_EQ(countCollectives(t, CollectiveType::AllReduce, 192), first ? 0 : 4) << r;
        EXPECT_EQ(countCollectives(t, CollectiveType::AllReduce, first ? 60608 : 58816), 1) << r;
        EXPECT_EQ(countCollectives(t, CollectiveType::AllReduce, 8192), 1) << r;
        EXPECT_EQ(c.coll, first ? 22 : 26) << r;
        EXPECT_EQ(c.total(), first ? 55 : 59) << r;
        for (const WorkloadNode& n : t.nodes)
            if (n.type == NodeType::CommSend || n.type == NodeType::CommRecv) {
                EXPECT_EQ(n.commSize, 2048u);
                // Peers are the same (tp, dp) on the other stage: 4 ranks apart.
                EXPECT_EQ(n.type == NodeType::CommSend ? n.commDst : n.commSrc,
                          uint32_t(first ? r + 4 : r - 4));
            }
    }
    // TP groups {0,1} {2,3} {4,5} {6,7} are ids 1-4; rank 5's tp collectives use group 3.
    EXPECT_EQ(w.groups.at(3), (std::vector<int>{4, 5}));
    for (const WorkloadNode& n : w.traces[5].nodes) {
        if (n.type == NodeType::CommColl && n.commSize == 2048) {
            EXPECT_EQ(n.pgName, "3");
        }
    }
}

// Sequence parallelism: per micro-batch on stage 0, forward embed RS, attn AG+RS, mlp AG+RS;
// backward mlp AG+RS, attn AG+RS, embed AG -> 5 AG of the 1024 B shard and 5 RS of 2048 B.
// Pipeline messages carry the 1024 B shard.
TEST(TraceGenerator, SequenceParallelUsesReduceScatterAndAllGather) {
    GeneratorSpec s = small();
    s.parallel.sequenceParallel = true;
    const GeneratedWorkload w = generateWorkload(s);
    EXPECT_TRUE(wellFormednessProblems(w).empty());
    const WorkloadTrace& t = w.traces[0];
    EXPECT_EQ(countCollectives(t, CollectiveType::AllGather, 1024), 20);
    EXPECT_EQ(countCollectives(t, CollectiveType::ReduceScatter, 2048), 20);
    EXPECT_EQ(countCollectives(t, CollectiveType::AllReduce, 2048), 0);
    for (const WorkloadNode& n : t.nodes) {
        if (n.type == NodeType::CommSend) {
            EXPECT_EQ(n.commSize, 1024u);
        }
    }
}

// ZeRO-1: the bucket reduce-scatters (60608 B) and, after the step, all-gathers its 1/dp shard.
// ZeRO-3: per layer and micro-batch on stage 0: all-gather weights before forward and backward,
// reduce-scatter gradients after backward (embed 5120 el, L0 8608 + 16576 = 25184 el).
TEST(TraceGenerator, ZeroStagesChangeTheDataParallelCollectives) {
    GeneratorSpec s = small();
    s.parallel.zeroStage = 1;
    GeneratedWorkload w = generateWorkload(s);
    EXPECT_TRUE(wellFormednessProblems(w).empty());
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::ReduceScatter, 60608), 1);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllGather, 30304), 1);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllReduce, 60608), 0);

    s.parallel.zeroStage = 3;
    w = generateWorkload(s);
    EXPECT_TRUE(wellFormednessProblems(w).empty());
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllGather, 5120), 8);  // embed
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllGather, 8608), 8);  // L0 attn
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllGather, 16576), 8); // L0 mlp
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::ReduceScatter, 10240), 4);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::ReduceScatter, 17216), 4);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::ReduceScatter, 33152), 4);
}

// Fp32 gradients (Megatron's --bf16 default): every gradient reduction carries 4-byte elements,
// twice the hand count's 16-bit bytes, the tied table's too (8192 -> 16384 B); the weights
// ZeRO gathers stay 16-bit; the optimizer step reads 2 bytes more per parameter.
TEST(TraceGenerator, Fp32GradientsDoubleTheReductionsAndNotTheGathers) {
    GeneratorSpec s = small();
    s.training.fp32Gradients = true;
    GeneratedWorkload w = generateWorkload(s);
    EXPECT_TRUE(wellFormednessProblems(w).empty());
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllReduce, 2 * 60608), 1);
    EXPECT_EQ(countCollectives(w.traces[4], CollectiveType::AllReduce, 2 * 58816), 1);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllReduce, 2 * 8192), 1);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllReduce, 2048), 20); // tp: as before
    auto stepBytes = [](const WorkloadTrace& t) {
        for (const WorkloadNode& n : t.nodes)
            if (n.name == "optimizer.step")
                return n.tensorSize;
        return uint64_t{0};
    };
    const uint64_t withFp32 = stepBytes(w.traces[0]);
    s.training.fp32Gradients = false;
    EXPECT_EQ(withFp32 - stepBytes(generateWorkload(s).traces[0]), 2u * 30304); // 2 B x params

    s.training.fp32Gradients = true;
    s.parallel.zeroStage = 1;
    w = generateWorkload(s);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::ReduceScatter, 2 * 60608), 1);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllGather, 30304), 1);

    s.parallel.zeroStage = 3;
    w = generateWorkload(s);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::AllGather, 8608), 8);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::ReduceScatter, 2 * 17216), 4);
    EXPECT_EQ(countCollectives(w.traces[0], CollectiveType::ReduceScatter, 2 * 33152), 4);
}

// MoE: 4 experts top-2 over ep 2 (dp 4 = 2 ep groups of 2). Tokens per tp rank: 16 / 2 = 8;
// dispatch and combine carry 8 * 2 * 64 * 2 = 2048 B, forward and backward: 4 all-to-alls per
// MoE layer per micro-batch. Without SP an all-gather of the 8-token shard (1024 B) restores the
// tp-replicated activations, forward and backward.
TEST(TraceGenerator, MoeAddsExpertAllToAlls) {
    GeneratorSpec s = small();
    s.model.experts = 4;
    s.model.topK = 2;
    s.model.expertFfn = 128;
    s.parallel.dp = 4;
    s.parallel.ep = 2;
    s.training.globalBatch = 16; // 4 micro-batches
    const GeneratedWorkload w = generateWorkload(s);
    const auto problems = wellFormednessProblems(w);
    EXPECT_TRUE(problems.empty()) << (problems.empty() ? "" : problems.front());
    const WorkloadTrace& t = w.traces[0];
    EXPECT_EQ(countCollectives(t, CollectiveType::AllToAll, 2048), 16);
    EXPECT_EQ(countCollectives(t, CollectiveType::AllGather, 1024), 8);
    // Rank 0 (tp 0, dp 0, pp 0): ep group {0, 2}; expert-dp group = same pp, dp even, any tp.
    bool sawEp = false;
    for (const WorkloadNode& n : t.nodes)
        if (n.type == NodeType::CommColl && n.commType == CollectiveType::AllToAll) {
            EXPECT_EQ(w.groups.at(std::stoi(n.pgName)), (std::vector<int>{0, 2}));
            sawEp = true;
        }
    EXPECT_TRUE(sawEp);
}

TEST(TraceGenerator, EveryScheduleAndOptionIsWellFormed) {
    for (PipelineSchedule schedule :
         {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
        for (int zero : {0, 1, 3})
            for (bool sp : {false, true})
                for (bool recompute : {false, true}) {
                    GeneratorSpec s = small();
                    s.model.layers = 4;
                    s.parallel.schedule = schedule;
                    s.parallel.virtualStages = schedule == PipelineSchedule::Interleaved ? 2 : 1;
                    s.parallel.zeroStage = zero;
                    s.parallel.sequenceParallel = sp;
                    s.parallel.recompute = recompute;
                    s.parallel.bucketBytes = 20000; // several buckets
                    const auto problems = wellFormednessProblems(generateWorkload(s));
                    EXPECT_TRUE(problems.empty())
                        << pipelineScheduleName(schedule) << " zero " << zero << " sp " << sp
                        << " recompute " << recompute << ": "
                        << (problems.empty() ? "" : problems.front());
                }
}

TEST(TraceGenerator, MoeVariantsAreWellFormed) {
    for (PipelineSchedule schedule : {PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
        for (int zero : {0, 1, 3})
            for (bool sp : {false, true}) {
                GeneratorSpec s = small();
                s.model.layers = 4;
                s.model.experts = 4;
                s.model.topK = 2;
                s.model.sharedExperts = 1;
                s.model.expertFfn = 128;
                s.model.firstDenseLayers = 1;
                s.parallel.dp = 4;
                s.parallel.ep = 2;
                s.training.globalBatch = 16;
                s.parallel.schedule = schedule;
                s.parallel.virtualStages = schedule == PipelineSchedule::Interleaved ? 2 : 1;
                s.parallel.zeroStage = zero;
                s.parallel.sequenceParallel = sp;
                s.parallel.recompute = zero == 1;
                s.parallel.bucketBytes = 20000;
                const auto problems = wellFormednessProblems(generateWorkload(s));
                EXPECT_TRUE(problems.empty())
                    << pipelineScheduleName(schedule) << " zero " << zero << " sp " << sp << ": "
                    << (problems.empty() ? "" : problems.front());
            }
}

// DLRM on 8 NPUs: per rank one forward and one backward all-to-all over every NPU (pg_name "")
// of micro-batch x tables x dim x 4 B = 8192 x 26 x 128 x 4 = 109,051,904 B, and the MLP
// gradients (bottom 13-512-256-128, top 479-1024-1024-512-256-1: 2,100,481 + 41,729 + ...)
// all-reduced in 25 MiB buckets over the data-parallel group. ResNet-50 on 64 NPUs: 25.56 M
// fp16 gradients = 51.1 MB. Buckets close at whole layers once they reach 25 MiB (as PyTorch DDP
// never splits a parameter): backward order fc 4.10 MB + layer4 29.93 MB = 34.03 MB >= 26.2 MB
// closes bucket 1; layer3..stem (17.08 MB) make the final bucket -> 2 all-reduces.
TEST(TraceGenerator, DataParallelPresetsAreWellFormed) {
    const GeneratedWorkload dlrm = generateWorkload(presetSpec("dlrm"));
    EXPECT_TRUE(wellFormednessProblems(dlrm).empty());
    ASSERT_EQ(dlrm.traces.size(), 8u);
    EXPECT_EQ(countCollectives(dlrm.traces[3], CollectiveType::AllToAll, 109051904), 2);
    for (const WorkloadNode& n : dlrm.traces[3].nodes) {
        if (n.type == NodeType::CommColl && n.commType == CollectiveType::AllToAll) {
            EXPECT_EQ(n.pgName, "");
        }
    }
    const GeneratedWorkload resnet = generateWorkload(presetSpec("resnet50"));
    EXPECT_TRUE(wellFormednessProblems(resnet).empty());
    uint64_t reduced = 0;
    int buckets = 0;
    for (const WorkloadNode& n : resnet.traces[17].nodes)
        if (n.type == NodeType::CommColl && n.commType == CollectiveType::AllReduce) {
            reduced += n.commSize;
            ++buckets;
        }
    EXPECT_EQ(reduced, 2u * 25556904);
    EXPECT_EQ(buckets, 2);
}

// The writer callback sees PREFIX.<rank>.et for every rank, in order, with the same traces the
// in-memory generation returns; the groups land in PREFIX.comm_groups.json.
TEST(TraceGenerator, WritingGoesThroughTheWriterCallback) {
    const astrolabe::test::TempDir dir("generator-test");
    const std::string prefix = dir.path("workload");
    std::vector<std::string> paths;
    uint64_t written = 0;
    const uint64_t nodes = generateAndWriteWorkload(
        prefix, small(), [&](const std::string& path, const WorkloadTrace& trace) {
            paths.push_back(path);
            written += trace.nodes.size();
        });
    ASSERT_EQ(paths.size(), 8u);
    EXPECT_EQ(paths[5], prefix + ".5.et");
    EXPECT_EQ(nodes, written);
    EXPECT_EQ(nodes, 4u * 55 + 4u * 59); // hand count above: 55 per stage-0 rank, 59 per stage-1
    std::ifstream json(prefix + ".comm_groups.json");
    const std::string text((std::istreambuf_iterator<char>(json)),
                           std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"1\":[0,1]"), std::string::npos) << text;
    EXPECT_EQ(parseCommGroupsJson(writeCommGroupsJson({{2, {4, 6}}}), "groups.json"),
              (CommGroups{{2, {4, 6}}}));
}

double traceFlops(const GeneratedWorkload& w, int* zeroFlopNodes) {
    double sum = 0;
    for (const WorkloadTrace& t : w.traces)
        for (const WorkloadNode& n : t.nodes)
            if (n.type == NodeType::Comp) {
                sum += double(n.numOps);
                *zeroFlopNodes += n.numOps == 1;
            }
    return sum;
}

// The FLOPs the trace asks the NPUs to do equal Narayanan et al.'s closed forms for GPT layers:
// 72 B s l h^2 (1 + s/6h + V/12lh) and, with full recomputation, 96 B s l h^2 (1 + s/6h + V/16lh).
// (Nodes without matrix FLOPs carry num_ops = 1; they are subtracted.)
TEST(TraceGenerator, TraceFlopsMatchMegatronClosedForms) {
    for (bool recompute : {false, true}) {
        GeneratorSpec s = small();
        s.parallel.recompute = recompute;
        const GeneratedWorkload w = generateWorkload(s);
        int ones = 0;
        const double flops = traceFlops(w, &ones) - ones;
        const double B = 8, sq = 16, l = 2, h = 64, V = 128;
        const double expected =
            recompute ? 96 * B * sq * l * h * h * (1 + sq / (6 * h) + V / (16 * l * h))
                      : 72 * B * sq * l * h * h * (1 + sq / (6 * h) + V / (12 * l * h));
        EXPECT_NEAR(flops / expected, 1.0, 1e-12) << "recompute " << recompute;
        const ModelFigures f = computeFigures(s);
        EXPECT_NEAR(f.hardwareFlops / expected, 1.0, 1e-12);
    }
}

// Acceptance: GPT-3 175B on 1,024 NPUs (t8 p8 d16, 1F1B, 8 micro-batches) in memory in < 10 s.
// Its speed is measured by tests/bench (packaging/bench.sh), not asserted here.
TEST(TraceGenerator, Gpt3On1024NpusGeneratesEveryRank) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    s.training.globalBatch = 8 * s.training.microBatch * s.parallel.dp;
    ASSERT_EQ(s.parallel.npus(), 1024);
    ASSERT_EQ(s.microBatches(), 8);
    const GeneratedWorkload w = generateWorkload(s);
    size_t nodes = 0, bytes = 0;
    for (const WorkloadTrace& t : w.traces) {
        nodes += t.nodes.size();
        bytes += t.nodes.capacity() * sizeof(WorkloadNode);
        for (const WorkloadNode& n : t.nodes)
            bytes += (n.dataDeps.capacity() + n.ctrlDeps.capacity()) *
                     sizeof(uint64_t); // names: interned, shared
    }
    std::printf("[ GPT-3 175B / 1024 NPUs ] %zu nodes, %zu groups, ~%.0f MiB in memory\n", nodes,
                w.groups.size(), double(bytes) / (1 << 20));
    EXPECT_EQ(w.traces.size(), 1024u);
    // 12 layers per stage x 8 micro-batches; GPT-3 preset recomputes activations.
    EXPECT_GT(nodes, 1024u * 12 * 8 * 8);
}

// The NPU count tp x pp x dp is a product of three settings: each may be valid on its own while
// the product passes the engine's limit or 32 bits. It is refused with the product spelled out,
// before anything is reserved for the ranks (it used to wrap or end in std::bad_alloc).
TEST(TraceGenerator, NpuCountsBeyondTheLimitAreRefusedWithTheProduct) {
    struct Case {
        int tp, pp, dp;
        const char* product;
    };
    const Case cases[] = {
        {8, 8, 100000000, "8 x 8 x 100000000 = 6400000000"}, // wraps to 2105032704 in int
        {65536, 65536, 65536, "65536 x 65536 x 65536 = 281474976710656"}, // wraps to 0
        {1024, 1024, 2, "1024 x 1024 x 2 = 2097152"}, // one past 2^20 by a factor 2
        {1, 1, 2147483647, "1 x 1 x 2147483647 = 2147483647"},
    };
    for (const Case& c : cases) {
        GeneratorSpec s = small();
        s.parallel.tp = c.tp;
        s.parallel.pp = c.pp;
        s.parallel.dp = c.dp;
        try {
            (void)generateWorkload(s);
            ADD_FAILURE() << c.product << " was accepted";
        } catch (const Error& e) {
            std::string expected = "expected at most 1048576 NPUs, found tp x pp x dp = ";
            expected += c.product;
            const auto* list = dynamic_cast<const ErrorList*>(&e);
            const std::vector<Error> errors = list ? list->errors() : std::vector<Error>{e};
            const auto npuError = std::find_if(errors.begin(), errors.end(), [](const Error& x) {
                return x.where().keyPath == "parallel";
            });
            ASSERT_NE(npuError, errors.end()) << e.what();
            EXPECT_EQ(npuError->message(), expected);
        }
    }
    // At the limit the count itself is not what is refused (the small model has too few layers
    // and heads for it, and says so).
    GeneratorSpec s = small();
    s.parallel.tp = 1;
    s.parallel.pp = 1;
    s.parallel.dp = 1 << 20;
    s.training.globalBatch = s.training.microBatch << 20;
    try {
        validate(s);
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).find("at most 1048576 NPUs"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace astrolabe::generate
