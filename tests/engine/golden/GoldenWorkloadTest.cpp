// Spec §9.5 golden vectors 29-33, 36, 37: compute, dependencies, send/recv, remote memory.
#include "TestPaths.h"
#include "engine/golden/GoldenSpec.h"

#include <fstream>
#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;

namespace {
SimulationSpec ring2() {
    return spec({dim(BlockKind::Ring, 2)});
}

std::vector<WorkloadTrace> same(int npus, std::vector<WorkloadNode> nodes) {
    std::vector<WorkloadTrace> t(static_cast<size_t>(npus));
    for (auto& trace : t)
        trace.nodes = nodes;
    return t;
}
} // namespace

TEST(Golden, V29_ComputeOverlapsCollective) {
    const auto r = runTraces(ring2(), same(2, {comp(1, 5), coll(2, CT::AllReduce, kMiB)}));
    for (const NpuSummary& n : r->npus) {
        EXPECT_EQ(n.finish.nsFloor(), 52015);
        EXPECT_EQ(n.exposedComm.nsFloor(), 47015);
        EXPECT_EQ(n.computeUnion.nsFloor(), 5000);
        EXPECT_EQ(n.commUnion.nsFloor(), 52015);
        EXPECT_EQ(n.overlap.nsFloor(), 5000);
    }
    bool sawOverlapLine = false;
    for (const std::string& line : r->reportLines)
        sawOverlapLine |= line == "[statistics] sys[0], Total compute-communication overlap: 5000";
    EXPECT_TRUE(sawOverlapLine);
}

TEST(Golden, V30_ComputeThenCollective) {
    const auto r = runTraces(ring2(), same(2, {comp(1, 5), coll(2, CT::AllReduce, kMiB, {1})}));
    EXPECT_EQ(cycles(*r, 0), 57015);
    EXPECT_EQ(r->npus[0].exposedComm.nsFloor(), 52015);
}

TEST(Golden, V31_IndependentCollectivesSerialize) {
    const auto r =
        runTraces(ring2(), same(2, {coll(1, CT::AllReduce, kMiB), coll(2, CT::AllReduce, kMiB)}));
    EXPECT_EQ(maxCycles(*r), 104030);
}

TEST(Golden, V32_IndependentComputeSerializes) {
    const auto r = runTraces(ring2(), same(2, {comp(1, 5), comp(2, 3)}));
    EXPECT_EQ(maxCycles(*r), 8000);
}

TEST(Golden, V33_SendRecv) {
    std::vector<WorkloadTrace> t(2);
    auto [send, recv] = sendRecv(1, 0, 1, 7, kMiB);
    t[0].nodes.push_back(send);
    t[1].nodes.push_back(recv);
    const auto r = runTraces(ring2(), t);
    EXPECT_EQ(cycles(*r, 0), 20031);
    EXPECT_EQ(cycles(*r, 1), 20031);
}

TEST(Golden, V36_Roofline) {
    auto s = ring2();
    s.system.rooflineEnabled = true;
    s.system.peakPerfTFlops = 100;
    s.system.localMemBandwidthGBps = 1000;
    for (auto [ops, bytes, expected] :
         {std::tuple<uint64_t, uint64_t, int64_t>{1000000000, 1000000, 10000},
          {1000000, 10000000, 10000},
          {123456789, 98765, 1234}}) {
        WorkloadNode n = comp(1, 0);
        n.hasNumOps = n.hasTensorSize = true;
        n.numOps = ops;
        n.tensorSize = bytes;
        EXPECT_EQ(maxCycles(*runTraces(s, same(2, {n}))), expected) << ops << " ops";
    }
}

TEST(Golden, V37_RemoteMemory) {
    auto s = spec({dim(BlockKind::Ring, 4)});
    s.memory.latencyNs = 100;
    s.memory.bandwidthBytesPerNs = 64;
    WorkloadNode load;
    load.id = 1;
    load.type = NodeType::MemLoad;
    load.hasTensorSize = true;
    load.tensorSize = 1000000;
    s.memory.type = RemoteMemoryType::PerNpuMemoryExpansion;
    auto r = runTraces(s, same(4, {load}));
    for (int npu = 0; npu < 4; ++npu)
        EXPECT_EQ(cycles(*r, npu), 15725);
    s.memory.type = RemoteMemoryType::MemoryPool;
    r = runTraces(s, same(4, {load}));
    for (int npu = 0; npu < 4; ++npu)
        EXPECT_EQ(cycles(*r, npu), 15725 * (npu + 1)) << npu;
}

TEST(Golden, V28_CustomRingAllReduceFromMscclXml) {
    // The bundled custom ring all-reduce (8 ranks, 1 MiB) on Ring 8 under the congestion-aware
    // model: 7 x (2941 + 7000) + 7 x 2941 = 90,174. Read from its MSCCL-IR source here; the
    // Chakra ET form of the same algorithm is checked in the trace reader's tests.
    const std::string xml = std::string(ASTROLABE_SHARED_DIR) +
                            "/reference/astra-sim/examples/system/custom_collectives/"
                            "custom_ring_allreduce_8npus_1MB/custom_allreduce.xml";
    if (!std::ifstream(xml))
        GTEST_SKIP() << "../shared is absent: skipped the bundled custom collective";
    auto s = spec({dim(BlockKind::Ring, 8)}, "ring", NetworkBackend::CongestionAware);
    s.system.customAllReduce = xml;
    s.system.schedulingPolicy = SchedulingPolicy::FIFO;
    const auto r = runCollective(s, CT::AllReduce, kMiB);
    for (int npu = 0; npu < 8; ++npu)
        EXPECT_EQ(cycles(*r, npu), 90174) << npu;
}

TEST(Golden, V28_CustomRingAllReduceFromChakraTraces) {
    // The same algorithm as ASTRA-sim ships it: one Chakra ET per rank, read by the trace reader.
    const std::string prefix = std::string(ASTROLABE_SHARED_DIR) +
                               "/reference/astra-sim/examples/system/custom_collectives/"
                               "custom_ring_allreduce_8npus_1MB/custom_allreduce";
    if (!std::ifstream(prefix + ".0.et"))
        GTEST_SKIP() << "../shared is absent: skipped the bundled custom collective";
    auto s = spec({dim(BlockKind::Ring, 8)}, "ring", NetworkBackend::CongestionAware);
    s.system.customAllReduce = prefix;
    s.system.schedulingPolicy = SchedulingPolicy::FIFO;
    const auto r = runCollective(s, CT::AllReduce, kMiB);
    for (int npu = 0; npu < 8; ++npu)
        EXPECT_EQ(cycles(*r, npu), 90174) << npu;
}
