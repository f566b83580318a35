// The executor where ASTRA-sim misbehaves (spec §2.2, §2.7): we do the sensible thing.
#include "core/Error.h"
#include "engine/golden/GoldenSpec.h"
#include "network/Timing.h"
#include "simulation/Simulation.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;

namespace {
SimulationSpec ring2() {
    return spec({dim(BlockKind::Ring, 2)});
}

WorkloadNode node(uint64_t id, NodeType type, std::vector<uint64_t> deps = {}) {
    WorkloadNode n;
    n.id = id;
    n.type = type;
    n.dataDeps = std::move(deps);
    return n;
}

std::vector<WorkloadTrace> both(std::vector<WorkloadNode> nodes) {
    std::vector<WorkloadTrace> t(2);
    t[0].nodes = t[1].nodes = std::move(nodes);
    return t;
}

/// The message of the error of `kind` the run stops with.
std::string runError(ErrorKind kind, const SimulationSpec& s, std::vector<WorkloadTrace> traces) {
    try {
        runTraces(s, std::move(traces));
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kind) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "the run finished";
    return {};
}

std::string deadlockMessage(const SimulationSpec& s, std::vector<WorkloadTrace> traces) {
    return runError(ErrorKind::Deadlock, s, std::move(traces));
}
} // namespace

TEST(Executor, ChildrenOfInstantNodesRunInTheSameReaction) {
    // Upstream, INVALID -> COMP alone never finishes: the child is only looked at on the next
    // completion, and there is none. Here the chain runs to the end.
    const auto r = runTraces(ring2(), both({node(1, NodeType::Invalid), comp(2, 5, {1})}));
    EXPECT_EQ(maxCycles(*r), 5000);
}

TEST(Executor, MetadataNodesCompleteInsteadOfAborting) {
    const auto r = runTraces(ring2(), both({node(1, NodeType::Metadata), comp(2, 3, {1})}));
    EXPECT_EQ(maxCycles(*r), 3000);
    bool invalidLine = false;
    for (const std::string& line : r->reportLines)
        invalidLine |= line.find("Invalid time") != std::string::npos;
    EXPECT_TRUE(invalidLine) << "METADATA is accounted as class INVALID";
}

TEST(Executor, OverlapIgnoresCpuAndRemoteMemoryInsteadOfThrowing) {
    WorkloadNode cpu = comp(1, 4);
    cpu.isCpuOp = true;
    const auto r = runTraces(ring2(), both({cpu, comp(2, 5), coll(3, CT::AllReduce, kMiB)}));
    EXPECT_EQ(r->npus[0].cpuTime.nsFloor(), 4000);
    EXPECT_EQ(r->npus[0].overlap.nsFloor(), 5000);
}

TEST(Executor, CpuComputeAndCollectiveOccupyDifferentSlots) {
    WorkloadNode cpu = comp(1, 100);
    cpu.isCpuOp = true;
    const auto r = runTraces(ring2(), both({cpu, comp(2, 100)}));
    EXPECT_EQ(maxCycles(*r), 100000) << "CPU and GPU compute run side by side";
}

// A trace of the PyTorch profiler import (schema kineto-import) runs GPU compute nodes on no
// shared lane: its streams are dependency chains. Two chains of 10 + 5 us and 20 us overlap: 20
// us. Any other trace keeps ASTRA-sim's one compute lane: 10 + 20 + 5 = 35 us.
TEST(Executor, ProfilerImportsRunEachStreamOnItsOwnLane) {
    const std::vector<WorkloadNode> nodes = {comp(1, 10), comp(2, 20), comp(3, 5)};
    std::vector<WorkloadTrace> traces = both(nodes);
    traces[0].nodes[2].ctrlDeps = {1}; // stream order: 3 after 1
    traces[1].nodes[2].ctrlDeps = {1};
    EXPECT_EQ(maxCycles(*runTraces(ring2(), traces)), 35000);
    for (WorkloadTrace& t : traces)
        t.schemaVersion = "kineto-import";
    const auto r = runTraces(ring2(), traces);
    EXPECT_EQ(maxCycles(*r), 20000) << "stream 1: 10 + 5 us beside stream 2's 20 us";
    EXPECT_EQ(r->npus[0].gpuTime.nsFloor(), 35000);
}

TEST(Executor, UnmatchedReceiveStopsWithAWaitForReport) {
    std::vector<WorkloadTrace> t(2);
    WorkloadNode recv = node(7, NodeType::CommRecv);
    recv.name = "grad_recv";
    recv.hasCommSrc = recv.hasCommTag = recv.hasCommSize = true;
    recv.commSrc = 0;
    recv.commTag = 42;
    recv.commSize = 4096;
    t[1].nodes.push_back(recv);
    const std::string msg = deadlockMessage(ring2(), t);
    EXPECT_NE(msg.find("NPU 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("COMM_RECV_NODE 7 (\"grad_recv\") waits for a message from NPU 0 with tag "
                       "42 and 4096 bytes"),
              std::string::npos)
        << msg;
}

TEST(Executor, CollectiveOnOneRankOnlyIsReportedNotHung) {
    std::vector<WorkloadTrace> t(2);
    t[0].nodes.push_back(coll(1, CT::AllReduce, kMiB));
    const std::string msg = deadlockMessage(ring2(), t);
    EXPECT_NE(msg.find("NPU 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("ALL_REDUCE (node 1"), std::string::npos) << msg;
}

TEST(Executor, DependencyCycleIsReported) {
    const std::string msg =
        deadlockMessage(ring2(), both({comp(1, 1), comp(2, 1, {3}), comp(3, 1, {2})}));
    EXPECT_NE(msg.find("2 more nodes wait for parents that never finished"), std::string::npos)
        << msg;
}

TEST(Executor, MissingSplitsIsAClearErrorNotADivisionByZero) {
    auto s = ring2();
    s.system.preferredDatasetSplits = 0;
    try {
        runCollective(s, CT::AllReduce, kMiB);
        FAIL() << "ran";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().keyPath, "preferred-dataset-splits");
    }
}

TEST(Executor, UnsupportedCollectiveAndMissingImplementationAreRefused) {
    EXPECT_THROW(runTraces(ring2(), both({coll(1, CT::Gather, kMiB)})), Error);
    auto s = ring2();
    s.system.allToAll.clear();
    try {
        runCollective(s, CT::AllToAll, kMiB);
        FAIL() << "ran";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("all-to-all-implementation"), std::string::npos);
    }
}

TEST(Executor, CollectiveOverNoDimensionIsRefused) {
    std::vector<WorkloadTrace> t = both({coll(1, CT::AllReduce, kMiB)});
    for (auto& trace : t)
        trace.nodes[0].detail.edit().involvedDim = {false};
    try {
        runTraces(ring2(), t);
        FAIL() << "ran";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("involves no dimension"), std::string::npos);
    }
}

TEST(Executor, CollectiveOverAGroupOfOneNpuNamesTheGroup) {
    auto s = ring2();
    s.commGroups[1] = {1};
    std::vector<WorkloadTrace> t(2);
    t[1].nodes.push_back(coll(1, CT::AllReduce, kMiB));
    t[1].nodes.back().pgName = "1";
    try {
        runTraces(s, t);
        FAIL() << "ran";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("runs over communicator group 1, which has one NPU"),
                  std::string::npos)
            << e.what();
    }
}

// A collective naming a group nothing defines is refused before anything runs, naming the trace
// file, the node and the key.
TEST(Executor, ACollectiveOverAnUndefinedGroupNamesTheFileAndNode) {
    std::vector<WorkloadTrace> t = both({coll(1, CT::AllReduce, kMiB)});
    t[0].file = "w.0.et";
    t[1].file = "w.1.et";
    for (auto& trace : t)
        trace.nodes[0].pgName = "7";
    try {
        runTraces(ring2(), t);
        FAIL() << "ran";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().file, "w.0.et");
        EXPECT_EQ(e.where().keyPath, "pg_name");
        EXPECT_NE(std::string(e.what()).find("node 1 (coll1): its collective names communicator "
                                             "group 7, which no comm-group file"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Executor, RemoteMemoryWithoutExpansionIsRefused) {
    WorkloadNode load = node(1, NodeType::MemLoad);
    load.hasTensorSize = true;
    load.tensorSize = 100;
    EXPECT_THROW(runTraces(ring2(), both({load})), Error);
}

TEST(Executor, PerNodeMemoryServesEachNodeInOrder) {
    // Intended semantics of PER_NODE_MEMORY_EXPANSION (upstream crashes): one FIFO server per
    // node of 2 NPUs; A = 100 + 1e6 / 64 = 15725 ns.
    auto s = spec({dim(BlockKind::Ring, 4)});
    s.memory.type = RemoteMemoryType::PerNodeMemoryExpansion;
    s.memory.latencyNs = 100;
    s.memory.bandwidthBytesPerNs = 64;
    s.memory.numNodes = 2;
    s.memory.numNpusPerNode = 2;
    WorkloadNode load = node(1, NodeType::MemLoad);
    load.hasTensorSize = true;
    load.tensorSize = 1000000;
    std::vector<WorkloadTrace> t(4);
    for (auto& trace : t)
        trace.nodes.push_back(load);
    const auto r = runTraces(s, t);
    EXPECT_EQ(cycles(*r, 0), 15725);
    EXPECT_EQ(cycles(*r, 1), 31450);
    EXPECT_EQ(cycles(*r, 2), 15725);
    EXPECT_EQ(cycles(*r, 3), 31450);
}

TEST(Executor, CommunicatorSubGroupRunsALocalRing) {
    // Group {0, 2} of a Ring 4: a 2-member ring whose endpoint hop is the fixed 10 ns, messages
    // over the physical ring (2 hops between NPUs 0 and 2). All-reduce, 1 chunk of 1 MiB:
    // E + (n - 1) * (2 D + 2 E + R) with n = 2, D = floor(2 * 500 + (1 MiB / 2) / beta).
    auto s = spec({dim(BlockKind::Ring, 4)});
    s.system.endpointDelayNs = 50; // not used by a local ring
    s.commGroups[1] = {0, 2};
    std::vector<WorkloadTrace> t(4);
    for (int npu : {0, 2}) {
        t[static_cast<size_t>(npu)].nodes.push_back(coll(1, CT::AllReduce, kMiB));
        t[static_cast<size_t>(npu)].nodes.back().pgName = "1";
    }
    const auto r = runTraces(s, t);
    const double beta = 50 * 1073741824.0 / 1e9;
    const int64_t D = static_cast<int64_t>(1000 + (kMiB / 2) / beta);
    const int64_t R = 3 * static_cast<int64_t>((kMiB / 2) / 50.0);
    EXPECT_EQ(cycles(*r, 0), 10 + (2 * D + 20 + R));
    EXPECT_EQ(cycles(*r, 2), 10 + (2 * D + 20 + R));
}

TEST(Executor, CancelStopsTheRun) {
    CancelToken token;
    token.cancel();
    auto s = ring2();
    s.workload.kind = WorkloadSource::Kind::Microbenchmark;
    s.workload.microbenchmark.sizeBytes = kMiB;
    try {
        runSimulation(s, nullptr, &token);
        FAIL() << "ran";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Cancelled);
    }
}

TEST(Executor, MetadataNodesDeclareProcessGroups) {
    // A PyTorch trace declares group "1" = {0, 2} in a METADATA node; the all-reduce selects it
    // by pg_name and runs the same local ring as a comm-group file would give (see
    // CommunicatorSubGroupRunsALocalRing).
    auto s = spec({dim(BlockKind::Ring, 4)});
    std::vector<WorkloadTrace> t(4);
    for (int npu = 0; npu < 4; ++npu) {
        WorkloadNode meta = node(1, NodeType::Metadata);
        meta.detail.edit().inputsValues = "['[{\"pg_name\": \"1\", \"ranks\": [0, 2]}]']";
        t[static_cast<size_t>(npu)].nodes.push_back(meta);
        if (npu % 2 == 0) {
            t[static_cast<size_t>(npu)].nodes.push_back(coll(2, CT::AllReduce, kMiB, {1}));
            t[static_cast<size_t>(npu)].nodes.back().pgName = "1";
        }
    }
    const auto r = runTraces(s, t);
    const double beta = 50 * 1073741824.0 / 1e9;
    const int64_t D = static_cast<int64_t>(1000 + (kMiB / 2) / beta);
    const int64_t R = 3 * static_cast<int64_t>((kMiB / 2) / 50.0);
    EXPECT_EQ(cycles(*r, 0), 10 + (2 * D + 20 + R));
    t[0].nodes[0].detail.edit().inputsValues = "['not json']";
    EXPECT_THROW(runTraces(s, t), Error);
}

TEST(Executor, GroupNamesThatAreNotIdsAreRefusedNamingThem) {
    // Every NPU names the same bad group: before, the symmetry check read it with std::stoi and
    // the run ended in "internal error: stoi"; "1a" and 2^32 + 1 were read as groups 1 and 1.
    auto s = spec({dim(BlockKind::Ring, 4)});
    s.commGroups[1] = {0, 1, 2, 3};
    for (const std::string name : {"abc", "1a", "4294967297", "-1", " 1"}) {
        SCOPED_TRACE(name);
        std::vector<WorkloadTrace> t(4);
        for (auto& trace : t) {
            trace.nodes.push_back(coll(1, CT::AllReduce, kMiB));
            trace.nodes.back().pgName = name;
        }
        try {
            runTraces(s, t);
            ADD_FAILURE() << "ran";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("\"" + name + "\""), std::string::npos)
                << e.what();
        }
        // Declared by a METADATA node instead: the declaration is refused the same way.
        for (auto& trace : t) {
            WorkloadNode meta = node(2, NodeType::Metadata);
            meta.detail.edit().inputsValues =
                "['[{\"pg_name\": \"" + name + "\", \"ranks\": [0, 2]}]']";
            trace.nodes = {meta};
        }
        try {
            runTraces(s, t);
            ADD_FAILURE() << "ran";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("not a decimal group id"), std::string::npos)
                << e.what();
        }
    }
}

// A duration past the clock's 106 days is said in terms of the inputs (#16 class 3): what was in
// flight and the slowest link, never a bare "simulated time overflow in multiplication".
TEST(Executor, TimeOverflowNamesTheNodeInFlightAndTheSlowestLink) {
    // 1 TiB over 2^30 B/s * 1e-6 (about 1 KB/s): 10^9 s, a hundred times the clock's range.
    SimulationSpec slow = spec({dim(BlockKind::Switch, 4, 100), dim(BlockKind::Ring, 2, 1e-6)});
    std::vector<WorkloadTrace> t(8);
    for (auto& trace : t) {
        trace.nodes.push_back(coll(5, CT::AllReduce, kMiB << 20));
        trace.nodes.back().name = "grad";
    }
    std::string msg = runError(ErrorKind::Validation, slow, t);
    EXPECT_NE(msg.find("passes the limit of the simulated clock"), std::string::npos) << msg;
    EXPECT_NE(msg.find("NPU 0: COMM_COLL_NODE 5 (\"grad\") ALL_REDUCE of 1 TiB"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("the slowest link of the platform: dimension 1 (Ring of 2 NPUs) at"),
              std::string::npos)
        << msg;
    EXPECT_EQ(msg.find("internal"), std::string::npos) << msg;

    // A compute node of 2^62 us: the same report, naming the node.
    msg = runError(ErrorKind::Validation, ring2(),
                   both({comp(1, 1), comp(9, uint64_t{1} << 62, {1})}));
    EXPECT_NE(msg.find("COMP_NODE 9 (\"comp9\") of 4611686018427387904 us"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("dimension 0 (Ring of 2 NPUs) at 50 GiB/s"), std::string::npos) << msg;
}

// Converting a duration of 1e300 ns to the clock used to be undefined (a double outside int64 cast
// to int64) before the multiplication's check; both timings refuse it as an overflow.
TEST(Executor, HugeDurationsAreAnOverflowNotUndefinedBehaviour) {
    for (TimingMode mode : {TimingMode::AstraCompatible, TimingMode::Precise})
        for (double ns : {1e300, -1e300, 9.3e15, std::nan("")})
            EXPECT_THROW(Timing{mode}.fromNs(ns), TimeOverflow) << ns;
    EXPECT_EQ(Timing{TimingMode::AstraCompatible}.fromNs(9.1e15).ps(), 9'100'000'000'000'000'000);
}
