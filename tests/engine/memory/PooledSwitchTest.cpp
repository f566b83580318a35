// Pooled memory through out-of-node switches (memory.switch-dimension, docs/memory-tiers.md):
// every access also crosses the NPU's link to its switch in that Switch dimension (a load down,
// a store up), as a message of x bytes in the network model. One NPU alone:
//   done = max(latency + x / min(F, B), link latency + x / L)
// and under the congestion-aware model the access and the platform's other messages queue
// behind each other on that link.
#include "core/Error.h"
#include "engine/golden/GoldenSpec.h"
#include "simulation/Simulation.h"
#include "spec/SpecValidation.h"

#include <gtest/gtest.h>

using namespace golden;

namespace {

constexpr uint64_t kBytes = 1'000'000;

// A Switch of 4 NPUs at `linkBytesPerNs` (decimal: 50 = 50 GB/s) and 500 ns; pooled memory of
// 4 groups at 100 GB/s behind 256 GB/s ports, 1,000 ns, through dimension 0's switches.
SimulationSpec switchedPool(double linkBytesPerNs, NetworkBackend backend) {
    SimulationSpec s = spec({dim(BlockKind::Switch, 4)}, "ring", backend);
    s.platform.dimensions[0].bandwidthBytesPerSecond = linkBytesPerNs * 1e9;
    s.platform.dimensions[0].latencyNs = 500;
    s.memory.type = RemoteMemoryType::Pooled;
    s.memory.groups = 4;
    s.memory.bandwidthBytesPerNs = 100;
    s.memory.fabricBytesPerNs = 256;
    s.memory.latencyNs = 1000;
    s.memory.switchDimension = 0;
    return s;
}

WorkloadNode memoryNode(uint64_t id, NodeType type, uint64_t bytes,
                        std::vector<uint64_t> deps = {}) {
    WorkloadNode n;
    n.id = id;
    n.type = type;
    n.hasTensorSize = true;
    n.tensorSize = bytes;
    n.dataDeps = std::move(deps);
    return n;
}

/// Every NPU does one access of kBytes; all in parallel, each on its own group, port and link.
int64_t oneAccessEach(const SimulationSpec& s, NodeType type) {
    std::vector<WorkloadTrace> traces(4);
    for (WorkloadTrace& t : traces)
        t.nodes.push_back(memoryNode(1, type, kBytes));
    const auto r = runTraces(s, traces);
    for (int npu = 1; npu < 4; ++npu)
        EXPECT_EQ(cycles(*r, npu), cycles(*r, 0)) << "NPU " << npu;
    return cycles(*r, 0);
}

} // namespace

TEST(PooledSwitch, AnAccessTakesTheSlowerOfThePoolAndTheLinkInBothModels) {
    for (NetworkBackend backend :
         {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware})
        for (NodeType type : {NodeType::MemLoad, NodeType::MemStore}) {
            SCOPED_TRACE(
                std::string(backend == NetworkBackend::CongestionAware ? "aware" : "unaware") +
                (type == NodeType::MemLoad ? " load" : " store"));
            // Link 50 GB/s: 500 + 1e6 / 50 = 20,500 ns > pool 1,000 + 1e6 / 100 = 11,000 ns.
            EXPECT_EQ(oneAccessEach(switchedPool(50, backend), type), 20'500);
            // Link 200 GB/s: the pool is the slower, 11,000 ns, as without the switches.
            EXPECT_EQ(oneAccessEach(switchedPool(200, backend), type), 11'000);
            SimulationSpec own = switchedPool(50, backend);
            own.memory.switchDimension = -1;
            EXPECT_EQ(oneAccessEach(own, type), 11'000);
        }
}

TEST(PooledSwitch, UnderCongestionAwareAMessageWaitsForTheLoadOnTheSameDownlink) {
    // NPU 0 computes 20 us, then loads 1 MB: down its 50 GB/s link from 20,000 to 40,000 ns.
    // NPU 1 sends 1 MB to NPU 0 at 0: its uplink to 20,000, at the switch at 20,500, where NPU 0's
    // downlink is busy with the load until 40,000; it arrives at 40,000 + 20,500 = 60,500.
    // Without the switches it would arrive at 2 x 20,500 = 41,000 and the load end at 31,000.
    auto run = [](int switchDimension) {
        SimulationSpec s = switchedPool(50, NetworkBackend::CongestionAware);
        s.memory.switchDimension = switchDimension;
        std::vector<WorkloadTrace> traces(4);
        const auto [send, recv] = sendRecv(2, 1, 0, 7, kBytes);
        traces[0].nodes = {comp(1, 20), memoryNode(3, NodeType::MemLoad, kBytes, {1}), recv};
        traces[1].nodes = {send};
        return runTraces(s, traces);
    };
    const auto own = run(-1);
    const auto shared = run(0);
    // The receive ends NPU 0 in both runs; the send ends NPU 1 when its message is delivered.
    for (int npu : {0, 1}) {
        EXPECT_EQ(cycles(*own, npu), 41'000) << "NPU " << npu << ", memory on paths of its own";
        EXPECT_EQ(cycles(*shared, npu), 60'500) << "NPU " << npu << ", memory through the switch";
    }
}

TEST(PooledSwitch, TheMemoryTrafficIsCountedOnTheSwitchLinks) {
    SimulationSpec s = switchedPool(50, NetworkBackend::CongestionAware);
    s.options.recordLinkIntervals = true;
    std::vector<WorkloadTrace> traces(4);
    for (WorkloadTrace& t : traces)
        t.nodes.push_back(memoryNode(1, NodeType::MemLoad, kBytes));
    const auto r = runTraces(s, traces);
    uint64_t bytes = 0;
    for (const LinkStats& l : r->linkStats)
        bytes += l.bytes;
    EXPECT_EQ(bytes, 4 * kBytes) << "one downlink crossing per load";
}

TEST(PooledSwitch, OnlyASwitchDimensionOfAStackCanCarryIt) {
    auto messageOf = [](const SimulationSpec& s) {
        const std::vector<Error> errors =
            crossCheckSpec(s, SpecKeyStyle::Project, TraceFileCheck::Skip);
        for (const Error& e : errors)
            if (e.where().keyPath == "memory.switch-dimension")
                return std::string(e.what());
        return std::string();
    };
    SimulationSpec s = switchedPool(50, NetworkBackend::CongestionAware);
    s.platform.dimensions.push_back(dim(BlockKind::Ring, 2));
    EXPECT_EQ(messageOf(s), "");
    s.memory.switchDimension = 1;
    EXPECT_NE(messageOf(s).find("found dimension 1, a Ring"), std::string::npos) << messageOf(s);
    s.memory.switchDimension = 2;
    EXPECT_NE(messageOf(s).find("found dimension 2, but the platform has 2 (0 to 1)"),
              std::string::npos)
        << messageOf(s);
    // A spec edited in the GUI is not read again: the run refuses it too, instead of indexing
    // past the dimensions.
    std::vector<WorkloadTrace> traces(8);
    for (WorkloadTrace& t : traces)
        t.nodes.push_back(memoryNode(1, NodeType::MemLoad, kBytes));
    try {
        runTraces(s, traces);
        ADD_FAILURE() << "ran";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "memory.switch-dimension") << e.what();
    }
    s.memory.type = RemoteMemoryType::PerNpuMemoryExpansion; // only pooled memory uses the key
    EXPECT_EQ(messageOf(s), "");
}
