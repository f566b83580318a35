// Remote memory timing (spec §6.2), from the JSON types of spec §6.1:
//   A(x) = latency + floor(x / bw)  [ns], bw in bytes/ns (an integer, as upstream stores it);
//   PER_NPU_MEMORY_EXPANSION  every access completes at issue + A(x), independently;
//   MEMORY_POOL               one FIFO server for all NPUs: done = max(server free, issue) + A(x);
//   PER_NODE_MEMORY_EXPANSION one FIFO server per node of num-npus-per-node NPUs
//                             (node of rank r = floor(r / num-npus-per-node));
//   NO_MEMORY_EXPANSION       any access is an error.
#include "memory/RemoteMemory.h"

#include "astra/AstraMemoryConfig.h"
#include "core/Error.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace astrolabe;

namespace {

SimTime accessTime(uint64_t latencyNs, uint64_t bytes, uint64_t bw) {
    return SimTime::fromNs(
        static_cast<int64_t>(latencyNs) +
        static_cast<int64_t>(std::floor(static_cast<double>(bytes) / static_cast<double>(bw))));
}

RemoteMemoryConfig fromJson(const std::string& json) {
    return parseAstraRemoteMemoryJson(json, "memory.json");
}

/// Issues one access per (npu, bytes, issue time) and returns completion times by index.
struct MemoryRig {
    MemoryRig(const RemoteMemoryConfig& config, int npus, Timing timing = {})
        : memory(sim, config, npus, timing) {}
    void issue(SimTime at, int npu, uint64_t bytes, int index) {
        sim.scheduleAt(at, [this, npu, bytes, index] {
            memory.access(npu, static_cast<uint64_t>(index), bytes, false,
                          [this, index] { done[index] = sim.now(); });
        });
    }
    Simulator sim;
    RemoteMemory memory;
    std::map<int, SimTime> done;
};

} // namespace

TEST(RemoteMemory, AccessTimeIsLatencyPlusFlooredTransfer) {
    const RemoteMemoryConfig c = fromJson(
        R"({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": 500,
            "remote-mem-bw": 64})");
    MemoryRig rig(c, 1);
    for (uint64_t bytes : {0ull, 1ull, 63ull, 64ull, 1000ull, 1ull << 20, 3'000'000'007ull})
        EXPECT_EQ(rig.memory.accessTime(bytes), accessTime(500, bytes, 64)) << bytes;
    EXPECT_EQ(rig.memory.accessTime(1 << 20), SimTime::fromNs(500 + (1 << 14)));
}

TEST(RemoteMemory, FractionalJsonValuesAreTruncatedBeforeTiming) {
    // 10.9 B/ns is stored as 10 and 99.99 ns as 99: 1001 B take 99 + floor(100.1) = 199 ns.
    const RemoteMemoryConfig c = fromJson(
        R"({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": 99.99,
            "remote-mem-bw": 10.9})");
    MemoryRig rig(c, 1);
    EXPECT_EQ(rig.memory.accessTime(1001), accessTime(99, 1001, 10));
}

TEST(RemoteMemory, PerNpuAccessesAreIndependent) {
    const uint64_t latency = 1000, bw = 25, bytes = 200'000;
    const RemoteMemoryConfig c = fromJson(
        R"({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": 1000,
            "remote-mem-bw": 25})");
    MemoryRig rig(c, 4);
    for (int npu = 0; npu < 4; ++npu) {
        rig.issue(SimTime::zero(), npu, bytes, npu);
        rig.issue(SimTime::zero(), npu, bytes, 10 + npu); // a second access of the same NPU
    }
    rig.sim.run();
    const SimTime a = accessTime(latency, bytes, bw);
    for (const auto& [index, t] : rig.done)
        EXPECT_EQ(t, a) << "access " << index;
    EXPECT_EQ(rig.done.size(), 8u);
}

TEST(RemoteMemory, PoolServesAllNpusOneAtATime) {
    // Spec example: 4 NPUs issue at t = 0 with A = 15725 ns: 15725, 31450, 47175, 62900. Here
    // latency 500 and 1 MiB at 68 B/ns: A = 500 + floor(1048576 / 68) = 15920; rank k at (k+1) A.
    const uint64_t latency = 500, bw = 68, bytes = 1 << 20;
    const RemoteMemoryConfig c = fromJson(
        R"({"memory-type": "MEMORY_POOL", "remote-mem-latency": 500, "remote-mem-bw": 68})");
    MemoryRig rig(c, 4);
    for (int npu = 0; npu < 4; ++npu)
        rig.issue(SimTime::zero(), npu, bytes, npu);
    rig.sim.run();
    const SimTime a = accessTime(latency, bytes, bw);
    for (int npu = 0; npu < 4; ++npu)
        EXPECT_EQ(rig.done[npu], a * (npu + 1)) << "rank " << npu;
}

TEST(RemoteMemory, PoolStartsAnAccessAtIssueWhenTheServerIsIdle) {
    // Access 0 at t = 0 finishes at A; access 1 issued at 3A (idle server) finishes at 4A;
    // access 2 issued at 4A - 1 ns waits for access 1 and finishes at 5A.
    const RemoteMemoryConfig c =
        fromJson(R"({"memory-type": "MEMORY_POOL", "remote-mem-latency": 10, "remote-mem-bw": 2})");
    MemoryRig rig(c, 2);
    const uint64_t bytes = 101;
    const SimTime a = accessTime(10, bytes, 2);
    rig.issue(SimTime::zero(), 0, bytes, 0);
    rig.issue(a * 3, 1, bytes, 1);
    rig.issue(a * 4 - SimTime::fromNs(1), 0, bytes, 2);
    rig.sim.run();
    EXPECT_EQ(rig.done[0], a);
    EXPECT_EQ(rig.done[1], a * 4);
    EXPECT_EQ(rig.done[2], a * 5);
}

TEST(RemoteMemory, PoolQueueAddsTheAccessTimesOfDifferentSizes) {
    const uint64_t latency = 7, bw = 3;
    const RemoteMemoryConfig c =
        fromJson(R"({"memory-type": "MEMORY_POOL", "remote-mem-latency": 7, "remote-mem-bw": 3})");
    const std::vector<uint64_t> sizes{10, 3'000, 1, 65'536};
    MemoryRig rig(c, 4);
    for (size_t i = 0; i < sizes.size(); ++i)
        rig.issue(SimTime::zero(), static_cast<int>(i), sizes[i], static_cast<int>(i));
    rig.sim.run();
    SimTime sum;
    for (size_t i = 0; i < sizes.size(); ++i) {
        sum += accessTime(latency, sizes[i], bw);
        EXPECT_EQ(rig.done[static_cast<int>(i)], sum) << "access " << i;
    }
}

TEST(RemoteMemory, PerNodeServesEachNodeFifoAndNodesInParallel) {
    // 6 NPUs, 2 per node: nodes {0,1}, {2,3}, {4,5}. Every NPU issues at t = 0 in id order, so
    // the first NPU of each node finishes at A and the second at 2A.
    const uint64_t latency = 300, bw = 12, bytes = 120'000, perNode = 2;
    const RemoteMemoryConfig c = fromJson(
        R"({"memory-type": "PER_NODE_MEMORY_EXPANSION", "remote-mem-latency": 300,
            "remote-mem-bw": 12, "num-nodes": 3, "num-npus-per-node": 2})");
    MemoryRig rig(c, 6);
    for (int npu = 0; npu < 6; ++npu)
        rig.issue(SimTime::zero(), npu, bytes, npu);
    rig.sim.run();
    const SimTime a = accessTime(latency, bytes, bw);
    for (int npu = 0; npu < 6; ++npu)
        EXPECT_EQ(rig.done[npu], a * (npu % static_cast<int>(perNode) + 1)) << "NPU " << npu;
}

TEST(RemoteMemory, PerNodeWithAPartialLastNode) {
    // 5 NPUs, 3 per node: nodes {0,1,2} and {3,4}: completions A, 2A, 3A and A, 2A.
    const RemoteMemoryConfig c = fromJson(
        R"({"memory-type": "PER_NODE_MEMORY_EXPANSION", "remote-mem-latency": 1,
            "remote-mem-bw": 1, "num-nodes": 2, "num-npus-per-node": 3})");
    MemoryRig rig(c, 5);
    for (int npu = 0; npu < 5; ++npu)
        rig.issue(SimTime::zero(), npu, 9, npu);
    rig.sim.run();
    const SimTime a = accessTime(1, 9, 1);
    for (int npu = 0; npu < 5; ++npu)
        EXPECT_EQ(rig.done[npu], a * (npu % 3 + 1)) << "NPU " << npu;
}

TEST(RemoteMemory, NoMemoryExpansionRefusesEveryAccess) {
    const RemoteMemoryConfig c = fromJson(R"({"memory-type": "NO_MEMORY_EXPANSION"})");
    Simulator sim;
    RemoteMemory memory(sim, c, 2, {});
    try {
        memory.access(1, 42, 100, false, [] {});
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Validation);
        EXPECT_EQ(e.where().file, "memory.json");
        EXPECT_EQ(e.where().keyPath, "memory-type");
        EXPECT_NE(e.message().find("NPU 1 node 42"), std::string::npos) << e.message();
    }
    EXPECT_EQ(sim.eventsPending(), 0u);
}

TEST(RemoteMemory, ZeroBandwidthIsAnErrorNotADivisionByZero) {
    RemoteMemoryConfig c;
    c.type = RemoteMemoryType::PerNpuMemoryExpansion;
    c.latencyNs = 5;
    Simulator sim;
    RemoteMemory memory(sim, c, 1, {});
    EXPECT_THROW(memory.access(0, 0, 100, false, [] {}), Error);
}

TEST(RemoteMemory, PreciseTimingKeepsTheFractionOfTheTransfer) {
    // Precise mode rounds x / bw to the picosecond instead of flooring it; latency is whole ns.
    const RemoteMemoryConfig c = fromJson(
        R"({"memory-type": "PER_NPU_MEMORY_EXPANSION", "remote-mem-latency": 40,
            "remote-mem-bw": 3})");
    MemoryRig rig(c, 1, Timing{TimingMode::Precise});
    EXPECT_EQ(rig.memory.accessTime(100),
              SimTime::fromNs(40) + SimTime::fromPsRounded(100.0 / 3.0 * 1000.0));
}

// Pooled memory (HierMem, docs/memory-tiers.md): each NPU's fabric port (F) and its memory
// group (NPU r uses group r mod G, bandwidth B each) stream one access together; the latency
// comes after both.
namespace {
RemoteMemoryConfig pooledMemory(uint64_t fabric, int groups, uint64_t groupBw, uint64_t latency) {
    RemoteMemoryConfig c;
    c.type = RemoteMemoryType::Pooled;
    c.fabricBytesPerNs = fabric;
    c.groups = groups;
    c.bandwidthBytesPerNs = groupBw;
    c.latencyNs = latency;
    return c;
}
} // namespace

TEST(RemoteMemory, PooledAloneRunsAtTheSlowerOfPortAndGroup) {
    const uint64_t x = 1ull << 30;
    // Port-bound: F = 256 < B = 500.
    MemoryRig port(pooledMemory(256, 4, 500, 700), 1);
    port.issue(SimTime::zero(), 0, x, 0);
    port.sim.run();
    EXPECT_EQ(port.done[0], SimTime::fromNs(700 + static_cast<int64_t>(x / 256)));
    // Group-bound: F = 512 > B = 100.
    MemoryRig group(pooledMemory(512, 2, 100, 700), 1);
    group.issue(SimTime::zero(), 0, x, 0);
    group.sim.run();
    EXPECT_EQ(group.done[0], SimTime::fromNs(700 + static_cast<int64_t>(x / 100)));
}

// The slides' HierMem baseline (256 groups of 100 GB/s, 256 GB/s ports) gives each of 256 NPUs
// its own 100 GB/s group: exactly a per-NPU 100 GB/s memory (ZeRO-Infinity's NVMe) whatever the
// others do, while each NPU has one access at a time (ASTRA-sim's per-NPU memory serves an
// NPU's concurrent accesses in parallel; a group queues them).
TEST(RemoteMemory, PooledBaselineEqualsPerNpuMemoryOfTheGroupBandwidth) {
    RemoteMemoryConfig perNpu;
    perNpu.type = RemoteMemoryType::PerNpuMemoryExpansion;
    perNpu.bandwidthBytesPerNs = 100;
    MemoryRig pooled(pooledMemory(256, 256, 100, 0), 256);
    MemoryRig nvme(perNpu, 256);
    int index = 0;
    for (int npu = 0; npu < 256; ++npu) {
        const uint64_t bytes = (1ull << 20) * static_cast<uint64_t>(1 + npu % 7);
        pooled.issue(SimTime::fromNs(npu * 1000), npu, bytes, index);
        nvme.issue(SimTime::fromNs(npu * 1000), npu, bytes, index++);
    }
    pooled.sim.run();
    nvme.sim.run();
    EXPECT_EQ(pooled.done, nvme.done);
}

// Fewer groups than NPUs: NPUs 0 and 2 share group 0 and queue there; NPU 1 has group 1.
TEST(RemoteMemory, PooledNpusSharingAGroupQueue) {
    const uint64_t x = 100ull << 20;
    MemoryRig rig(pooledMemory(512, 2, 100, 0), 3);
    for (int npu = 0; npu < 3; ++npu)
        rig.issue(SimTime::zero(), npu, x, npu);
    rig.sim.run();
    const int64_t one = static_cast<int64_t>(x / 100);
    EXPECT_EQ(rig.done[0], SimTime::fromNs(one));
    EXPECT_EQ(rig.done[1], SimTime::fromNs(one));
    EXPECT_EQ(rig.done[2], SimTime::fromNs(2 * one));
}

TEST(RemoteMemory, PooledIsAProjectOnlyTypeAstraSimJsonCannotName) {
    EXPECT_THROW(fromJson(R"({"memory-type": "POOLED_MEMORY", "remote-mem-bw": 1})"), Error);
}
