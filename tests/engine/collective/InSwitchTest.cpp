// In-network (inSwitch) collectives on a Switch dimension: closed forms in both network models
// (docs/in-network-collectives.md), link traffic against a ring, symmetric runs equal to full
// ones, the same on a graph platform, and clear errors where a switch cannot combine. Expected
// values come from the formulas, computed here independently of the engine.
#include "core/Error.h"
#include "engine/golden/GoldenSpec.h"
#include "project/ProjectFile.h"
#include "topology/Topology.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;

namespace {

constexpr int64_t E = 10;
constexpr double kLatency = 500.0;
constexpr double kBeta = 50.0 * 1073741824.0 / 1e9; // bytes per ns (ASTRA-sim GB = 2^30 B)

int64_t floorNs(double ns) {
    return static_cast<int64_t>(std::floor(ns));
}

SimulationSpec switchSpec(int n, NetworkBackend backend, const char* algorithm = "inSwitch") {
    return spec({dim(BlockKind::Switch, n)}, algorithm, backend);
}

uint64_t dimensionBytes(const RunResult& r, int d) {
    for (const DimensionStats& s : r.dimensions)
        if (s.dimension == d)
            return s.bytes;
    return 0;
}

const int kSizes[] = {2, 8, 64, 512};

} // namespace

// Congestion-unaware: a switch crossing costs two latencies and serialises the bytes once; the
// switch streams the result while the inputs arrive: 2E + floor(L) + floor(L + max(up, down)/B).
TEST(InSwitch, ClosedFormsCongestionUnaware) {
    const uint64_t C = kMiB;
    for (int n : kSizes) {
        const SimulationSpec s = switchSpec(n, NetworkBackend::CongestionUnaware);
        auto t = [&](uint64_t streamed) {
            return 2 * E + floorNs(kLatency) + floorNs(kLatency + streamed / kBeta);
        };
        EXPECT_EQ(maxCycles(*runCollective(s, CT::AllReduce, C)), t(C)) << n;
        EXPECT_EQ(maxCycles(*runCollective(s, CT::ReduceScatter, C)), t(C)) << n;
        EXPECT_EQ(maxCycles(*runCollective(s, CT::AllGather, C)), t(C * n)) << n;
        EXPECT_EQ(minCycles(*runCollective(s, CT::AllReduce, C)), t(C)) << n;
    }
}

// Congestion-aware: store and forward on each link, 2E + D(up) + D(down), D(x) = floor(L + x/B).
TEST(InSwitch, ClosedFormsCongestionAware) {
    const uint64_t C = kMiB;
    auto D = [](uint64_t x) { return floorNs(kLatency + x / kBeta); };
    for (int n : kSizes) {
        const SimulationSpec s = switchSpec(n, NetworkBackend::CongestionAware);
        EXPECT_EQ(maxCycles(*runCollective(s, CT::AllReduce, C)), 2 * E + 2 * D(C)) << n;
        EXPECT_EQ(maxCycles(*runCollective(s, CT::ReduceScatter, C)), 2 * E + D(C) + D(C / n)) << n;
        EXPECT_EQ(maxCycles(*runCollective(s, CT::AllGather, C)), 2 * E + D(C) + D(C * n)) << n;
    }
}

// Switch-64, 1 GiB all-reduce at 100 GB/s, 1 us: time within 1% of size/bw + latency terms,
// and half the link traffic of a ring (2n link crossings of S against 4(n-1) S).
TEST(InSwitch, Switch64OneGiBAgainstRing) {
    const uint64_t S = 1ULL << 30;
    const int n = 64;
    auto make = [&](const char* algorithm) {
        SimulationSpec s = spec({dim(BlockKind::Switch, n, 100.0, 1000.0)}, algorithm);
        return runCollective(s, CT::AllReduce, S);
    };
    const auto inSwitch = make("inSwitch");
    const auto ring = make("ring");
    const double beta = 100.0 * 1073741824.0 / 1e9;
    const double closedForm = S / beta + 2 * 1000.0 + 2 * E;
    EXPECT_NEAR(static_cast<double>(maxCycles(*inSwitch)), closedForm, closedForm * 0.01);
    EXPECT_EQ(dimensionBytes(*inSwitch, 0), 2ULL * n * S);
    EXPECT_EQ(dimensionBytes(*ring, 0), 4ULL * (n - 1) * S);
    const double trafficRatio = static_cast<double>(dimensionBytes(*ring, 0)) /
                                static_cast<double>(dimensionBytes(*inSwitch, 0));
    EXPECT_NEAR(trafficRatio, 2.0 * (n - 1) / n, 1e-9);
    EXPECT_GT(static_cast<double>(maxCycles(*ring)) / static_cast<double>(maxCycles(*inSwitch)),
              1.9);
}

// Several chunks, two dimensions, both models: simulating one representative NPU gives the
// same times and the same per-dimension traffic as simulating all of them.
TEST(InSwitch, SymmetricRunEqualsFullRun) {
    for (NetworkBackend backend :
         {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware}) {
        SimulationSpec s =
            spec({dim(BlockKind::Switch, 8), dim(BlockKind::Ring, 4)}, "ring", backend);
        setAlgorithms(s, {"inSwitch", "ring"});
        s.system.preferredDatasetSplits = 4;
        s.system.activeChunksPerDimension = 2;
        for (CT type : {CT::AllReduce, CT::AllGather, CT::ReduceScatter}) {
            s.options.exploitSymmetry = true;
            const auto symmetric = runCollective(s, type, 64 * kMiB);
            s.options.exploitSymmetry = false;
            const auto full = runCollective(s, type, 64 * kMiB);
            EXPECT_EQ(maxCycles(*symmetric), maxCycles(*full));
            EXPECT_EQ(minCycles(*symmetric), minCycles(*full));
            EXPECT_EQ(dimensionBytes(*symmetric, 0), dimensionBytes(*full, 0));
            EXPECT_EQ(dimensionBytes(*symmetric, 1), dimensionBytes(*full, 1));
        }
    }
}

TEST(InSwitch, RefusesWhatASwitchCannotCombine) {
    auto message = [](const SimulationSpec& s, CT type) -> std::string {
        try {
            runCollective(s, type, kMiB);
        } catch (const Error& e) {
            return e.what();
        }
        return "no error";
    };
    const SimulationSpec ring = spec({dim(BlockKind::Ring, 8)}, "inSwitch");
    EXPECT_NE(message(ring, CT::AllReduce)
                  .find("inSwitch needs a Switch dimension, but dimension "
                        "0 is a Ring"),
              std::string::npos)
        << message(ring, CT::AllReduce);
    const SimulationSpec sw = switchSpec(8, NetworkBackend::CongestionUnaware);
    EXPECT_NE(message(sw, CT::AllToAll).find("inSwitch cannot run an all-to-all"),
              std::string::npos)
        << message(sw, CT::AllToAll);
    // Named for all-to-all in a project, it is refused when the project is read, at its key:
    // it used to pass until an all-to-all ran, and then the message named no file.
    try {
        parseProject(
            "name: p\nplatform:\n  dimensions: [{type: Switch, size: 8, bandwidth: 50 "
            "GB/s, latency: 1 us}]\nsystem:\n  algorithms: {all-reduce: [inSwitch], "
            "all-to-all: [inSwitch]}\n  chunks: 1\nworkload:\n  microbenchmark: {collective: "
            "all-reduce, size: 1 MiB}\n",
            "p.yaml");
        ADD_FAILURE() << "inSwitch for all-to-all was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("p.yaml:5:53:"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("system.algorithms.all-to-all[0]: inSwitch cannot run "
                                             "an all-to-all"),
                  std::string::npos)
            << e.what();
    }
}

// A communicator group on one line of the Switch dimension is combined by that line's switch
// (SHARP-style sub-groups): the closed form does not depend on the group's size. A group that
// spans two dimensions keeps its logical ring.
TEST(InSwitch, CommunicatorGroupOnOneSwitchLine) {
    const uint64_t C = kMiB;
    SimulationSpec s = spec({dim(BlockKind::Switch, 8), dim(BlockKind::Ring, 2)}, "ring");
    setAlgorithms(s, {"inSwitch", "ring"});
    s.commGroups[1] = {8, 10, 12, 14}; // dimension 0 coordinates 0, 2, 4, 6 of line 1
    s.commGroups[2] = {0, 9};          // spans both dimensions
    auto groupRun = [&](int group) {
        std::vector<WorkloadTrace> traces(16);
        const std::vector<int>& members = s.commGroups.at(group);
        for (int npu = 0; npu < 16; ++npu)
            if (std::find(members.begin(), members.end(), npu) != members.end()) {
                WorkloadNode n = coll(1, CT::AllReduce, C);
                n.pgName = std::to_string(group);
                traces[static_cast<size_t>(npu)].nodes.push_back(n);
            }
        return runTraces(s, std::move(traces));
    };
    const auto onLine = groupRun(1);
    EXPECT_EQ(cycles(*onLine, 8), 2 * E + floorNs(kLatency) + floorNs(kLatency + C / kBeta));
    EXPECT_EQ(cycles(*onLine, 14), cycles(*onLine, 8));
    const auto spanning = groupRun(2);
    // Two members on a ring: one reduce-scatter and one all-gather step of C/2 each way.
    EXPECT_GT(cycles(*spanning, 0), cycles(*onLine, 8));
}

// On a graph a logical dimension's line combines at the switch nearest to all its members
// (docs/graph-platforms.md). The graph of a Switch x Switch stack has the stack's switches at
// distance one from each line, so it must give the stack's results and link bytes exactly, in
// both models; a graph without switches is refused, naming the collective.
TEST(InSwitch, GraphOfAStackCombinesAtTheStacksSwitches) {
    for (NetworkBackend backend :
         {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware}) {
        SimulationSpec stack =
            spec({dim(BlockKind::Switch, 8), dim(BlockKind::Switch, 4)}, "inSwitch", backend);
        setAlgorithms(stack, {"inSwitch", "inSwitch"});
        SimulationSpec graph = stack;
        graph.platform = stackAsGraph(stack.platform);
        for (CT type : {CT::AllReduce, CT::ReduceScatter, CT::AllGather}) {
            const auto a = runCollective(stack, type, kMiB);
            const auto b = runCollective(graph, type, kMiB);
            EXPECT_EQ(maxCycles(*b), maxCycles(*a)) << static_cast<int>(type);
            EXPECT_EQ(minCycles(*b), maxCycles(*a)) << static_cast<int>(type);
            uint64_t stackBytes = 0, graphBytes = 0;
            for (const LinkStats& l : a->linkStats)
                stackBytes += l.bytes;
            for (const LinkStats& l : b->linkStats)
                graphBytes += l.bytes;
            EXPECT_EQ(graphBytes, stackBytes) << static_cast<int>(type);
        }
    }
    SimulationSpec rings = spec({dim(BlockKind::Ring, 8)}, "inSwitch");
    rings.platform = stackAsGraph(rings.platform);
    try {
        runCollective(rings, CT::AllReduce, kMiB);
        ADD_FAILURE() << "inSwitch ran on a graph without switches";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("all-reduce-implementation: inSwitch on logical "
                                             "dimension 0 of a graph needs a switch"),
                  std::string::npos)
            << e.what();
    }
}
