// Local memory tracking (track-local-mem). The rule (execution/LocalMemoryTracker.h): a tensor is
// allocated when the node that outputs it starts (at 0 when no node outputs it) and released when
// its producer and every node that reads it have finished. Changes at one instant are netted.
// Each case states the live set over time first, then checks.
#include "core/Error.h"
#include "engine/golden/GoldenSpec.h"
#include "execution/LocalMemoryTracker.h"
#include "simulation/Simulation.h"

#include <gtest/gtest.h>

using namespace golden;

namespace {

SimulationSpec tracked(int npus = 2) {
    SimulationSpec s = spec({dim(BlockKind::Ring, npus)});
    s.system.trackLocalMemory = true;
    return s;
}

WorkloadNode op(uint64_t id, uint64_t micros, std::vector<uint64_t> deps,
                std::vector<TensorUse> inputs, std::vector<TensorUse> outputs) {
    WorkloadNode n = comp(id, micros, std::move(deps));
    n.detail.edit().inputs = std::move(inputs);
    n.detail.edit().outputs = std::move(outputs);
    return n;
}

std::vector<WorkloadTrace> both(const std::vector<WorkloadNode>& nodes) {
    std::vector<WorkloadTrace> t(2);
    t[0].nodes = t[1].nodes = nodes;
    return t;
}

SimTime us(int64_t v) {
    return SimTime::fromUs(v);
}

using Series = std::vector<std::pair<int64_t, uint64_t>>; ///< (us, bytes)

Series series(const RunResult& r, int npu) {
    Series out;
    for (const MemoryUsagePoint& p : r.memoryUsage.at(static_cast<size_t>(npu)))
        out.push_back({p.time.ps() / 1'000'000, p.bytes});
    return out;
}

std::string peakLine(const RunResult& r, int npu) {
    std::string prefix = "[workload] sys[";
    prefix += std::to_string(npu);
    prefix += "] peak memory usage: ";
    for (const std::string& line : r.reportLines)
        if (line.rfind(prefix, 0) == 0)
            return line.substr(prefix.size());
    return "(no peak line)";
}

} // namespace

TEST(LocalMemory, ChainHoldsAnInputAndAnOutputAtATime) {
    // A (1 us) -> B (1 us) -> C (1 us); A writes a = 100 B, B reads a and writes b = 200 B,
    // C reads b and writes c = 50 B, which nobody reads.
    //   [0, 1)  A runs:            {a}       100
    //   [1, 2)  B runs:            {a, b}    300   (a lives until its reader B finishes)
    //   [2, 3)  C runs:            {b, c}    250   (a released, c allocated, netted at t = 2)
    //   3       C finished:        {}          0   (c has no reader: released with C)
    // peak = 300 B.
    const auto r = runTraces(
        tracked(), both({op(1, 1, {}, {}, {{"a", 100}}), op(2, 1, {1}, {{"a", 100}}, {{"b", 200}}),
                         op(3, 1, {2}, {{"b", 200}}, {{"c", 50}})}));
    const Series expected{{0, 100}, {1, 300}, {2, 250}, {3, 0}};
    for (int npu = 0; npu < 2; ++npu) {
        EXPECT_EQ(r->npus[static_cast<size_t>(npu)].peakMemoryBytes, 300u);
        EXPECT_EQ(series(*r, npu), expected) << "NPU " << npu;
        EXPECT_EQ(peakLine(*r, npu), "300.00 B");
    }
    ASSERT_EQ(r->tensorLifetimes.size(), 6u); // 3 per NPU
    const TensorLifetime& a = r->tensorLifetimes[0];
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(a.allocated, us(0));
    EXPECT_EQ(a.released, us(2));
    EXPECT_EQ(a.producerNodeId, 1);
}

TEST(LocalMemory, DiamondKeepsTheSharedInputUntilItsLastReader) {
    // A (1 us) writes x = 1000; B (GPU, 2 us) reads x, writes y = 300; C (CPU slot, 3 us) reads
    // x, writes z = 500; D (1 us) after B and C reads y, z and writes o = 10.
    // B runs [1, 3), C runs [1, 4) beside it, D runs [4, 5).
    //   [0, 1)  {x}           1000
    //   [1, 4)  {x, y, z}     1800   (B finishing at 3 releases nothing: C still reads x)
    //   [4, 5)  {y, z, o}      810
    //   5       {}               0
    // peak = 1800 B = 1.76 KB.
    WorkloadNode c = op(3, 3, {1}, {{"x", 1000}}, {{"z", 500}});
    c.isCpuOp = true;
    const auto r =
        runTraces(tracked(),
                  both({op(1, 1, {}, {}, {{"x", 1000}}), op(2, 2, {1}, {{"x", 1000}}, {{"y", 300}}),
                        c, op(4, 1, {2, 3}, {{"y", 300}, {"z", 500}}, {{"o", 10}})}));
    EXPECT_EQ(r->npus[0].peakMemoryBytes, 1800u);
    EXPECT_EQ(series(*r, 0), (Series{{0, 1000}, {1, 1800}, {4, 810}, {5, 0}}));
    EXPECT_EQ(peakLine(*r, 1), "1.76 KB");
}

TEST(LocalMemory, WeightsAreLiveFromTheStartUntilTheirLastReader) {
    // w = 4096 B is read by A and B but written by no node: live from 0 until B finishes.
    //   [0, 1) A: {w, a}  4096 + 64;  [1, 2) B: {w, a}  (b = 0 B);  2: {}
    const auto r =
        runTraces(tracked(), both({op(1, 1, {}, {{"w", 4096}}, {{"a", 64}}),
                                   op(2, 1, {1}, {{"w", 4096}, {"a", 64}}, {{"b", 0}})}));
    EXPECT_EQ(series(*r, 0), (Series{{0, 4160}, {2, 0}}));
    EXPECT_EQ(r->npus[1].peakMemoryBytes, 4160u);
}

TEST(LocalMemory, PipelineKeepsEveryInFlightMicroBatchActivation) {
    // Two stages (NPU 0, NPU 1), two micro-batches, 1F1B order:
    //   stage 0: F1 F2 B1 B2 (one warm-up forward), stage 1: F1 B1 F2 B2.
    // F_k on stage s writes its activation act_k (stage 0: 1 MiB each, stage 1: 300 B each),
    // which only B_k reads. Boundary tensors travel by send/recv and carry no tensor lists.
    // Stage 0 runs F2 while act_1 waits for B1, which needs stage 1's gradient:
    //   live set during F2 = {act_1, act_2}   -> peak 2 MiB = "2.00 MB".
    // Stage 1 finishes B1 (releasing act_1) before F2 starts:
    //   live set is never more than one act   -> peak 300 B.
    // (Network times only order events here; they do not change either peak.)
    const uint64_t act0 = kMiB, act1 = 300;
    std::vector<WorkloadTrace> t(2);
    auto [sendF1, recvF1] = sendRecv(2, 0, 1, 1, 4096);
    auto [sendF2, recvF2] = sendRecv(4, 0, 1, 2, 4096);
    auto [sendG1, recvG1] = sendRecv(5, 1, 0, 3, 4096);
    auto [sendG2, recvG2] = sendRecv(7, 1, 0, 4, 4096);
    sendF1.dataDeps = {1};
    sendF2.dataDeps = {3};
    t[0].nodes = {op(1, 10, {}, {}, {{"act_1", act0}}),
                  sendF1,
                  op(3, 10, {1}, {}, {{"act_2", act0}}),
                  sendF2,
                  recvG1,
                  op(6, 20, {3, 5}, {{"act_1", act0}}, {}),
                  recvG2,
                  op(8, 20, {6, 7}, {{"act_2", act0}}, {})};
    // Stage 1 ids: recv f1 = 2, F1 = 10, B1 = 11, send g1 = 5, recv f2 = 4, F2 = 12, B2 = 13,
    // send g2 = 7.
    sendG1.dataDeps = {11};
    sendG2.dataDeps = {13};
    t[1].nodes = {recvF1,
                  op(10, 10, {2}, {}, {{"act_1", act1}}),
                  op(11, 20, {10}, {{"act_1", act1}}, {}),
                  sendG1,
                  recvF2,
                  op(12, 10, {4, 11}, {}, {{"act_2", act1}}),
                  op(13, 20, {12}, {{"act_2", act1}}, {}),
                  sendG2};
    const auto r = runTraces(tracked(), std::move(t));
    EXPECT_EQ(r->npus[0].peakMemoryBytes, 2 * act0);
    EXPECT_EQ(peakLine(*r, 0), "2.00 MB");
    EXPECT_EQ(r->npus[1].peakMemoryBytes, act1);
    EXPECT_EQ(peakLine(*r, 1), "300.00 B");
    // On stage 0 both activations are live from F2's start (10 us) until B1 finishes.
    const Series s0 = series(*r, 0);
    ASSERT_GE(s0.size(), 3u);
    EXPECT_EQ(s0[1], (std::pair<int64_t, uint64_t>{10, 2 * act0}));
}

TEST(LocalMemory, SymmetricRunMatchesTheFullRunAndDifferentTensorsRunInFull) {
    // One simulated NPU stands for all when their traces (tensors included) are the same.
    const std::vector<WorkloadNode> chain{op(1, 1, {}, {}, {{"a", 100}}),
                                          op(2, 1, {1}, {{"a", 100}}, {{"b", 200}})};
    SimulationSpec full = tracked(4);
    full.options.exploitSymmetry = false;
    std::vector<WorkloadTrace> traces(4);
    for (WorkloadTrace& t : traces)
        t.nodes = chain;
    const auto symmetric = runTraces(tracked(4), traces);
    const auto reference = runTraces(full, traces);
    for (int npu = 0; npu < 4; ++npu) {
        EXPECT_EQ(series(*symmetric, npu), series(*reference, npu)) << "NPU " << npu;
        EXPECT_EQ(symmetric->npus[static_cast<size_t>(npu)].peakMemoryBytes, 300u);
    }
    EXPECT_EQ(symmetric->tensorLifetimes.size(), reference->tensorLifetimes.size());
    EXPECT_EQ(symmetric->reportLines, reference->reportLines);

    // NPU 3's b is 4 KiB: same work, different tensors, so every NPU is simulated.
    traces[3].nodes[1].detail.edit().outputs = {{"b", 4096}};
    const auto mixed = runTraces(tracked(4), traces);
    EXPECT_EQ(mixed->npus[0].peakMemoryBytes, 300u);
    EXPECT_EQ(mixed->npus[3].peakMemoryBytes, 4196u);
    EXPECT_EQ(peakLine(*mixed, 3), "4.10 KB");
}

TEST(LocalMemory, TrackingOffLeavesNoTraceOfIt) {
    SimulationSpec s = tracked();
    s.system.trackLocalMemory = false;
    const auto r =
        runTraces(s, both({op(1, 1, {}, {}, {{"a", 100}}), op(2, 1, {1}, {{"a", 100}}, {})}));
    for (const NpuSummary& n : r->npus)
        EXPECT_EQ(n.peakMemoryBytes, 0u);
    EXPECT_TRUE(r->memoryUsage.empty());
    EXPECT_TRUE(r->tensorLifetimes.empty());
    for (const std::string& line : r->reportLines)
        EXPECT_EQ(line.find("peak memory"), std::string::npos) << line;
}

TEST(LocalMemory, ATensorWrittenTwiceIsAnError) {
    try {
        runTraces(tracked(), both({op(1, 1, {}, {}, {{"a", 100}}), op(2, 1, {1}, {}, {{"a", 8}})}));
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("tensor \"a\" is an output of node 1 and of node 2"),
                  std::string::npos)
            << e.what();
    }
}

TEST(LocalMemory, PeakLineFormatting) {
    // ASTRA-sim: the largest 1024-based unit not above the value, 2 decimals.
    EXPECT_EQ(formatMemorySize(0), "0.00 B");
    EXPECT_EQ(formatMemorySize(1023), "1023.00 B");
    EXPECT_EQ(formatMemorySize(1024), "1.00 KB");
    EXPECT_EQ(formatMemorySize(1536), "1.50 KB");
    EXPECT_EQ(formatMemorySize(1024 * 1024 - 1), "1024.00 KB"); // 1023.999 rounds up
    EXPECT_EQ(formatMemorySize(5 * 1024 * 1024 + 256 * 1024), "5.25 MB");
    EXPECT_EQ(formatMemorySize(3ull << 30), "3.00 GB");
    EXPECT_EQ(formatMemorySize((1ull << 30) + (1ull << 30) / 100), "1.01 GB");
    EXPECT_EQ(formatMemorySize(2ull << 40), "2.00 TB");
    EXPECT_EQ(formatMemorySize(5000ull << 40), "5000.00 TB");
}
