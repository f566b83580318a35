// A dimension stack and the same platform as a graph (docs/graph-platforms.md, "A stack as a
// graph") give the same run, to the picosecond, through the engine's one entry point.
//
// stackAsGraph() keeps the stack's dimensions as the graph's logical dimensions, so collectives
// plan the same phases; graph routing (shortest path by latency then hops, ties to the lowest
// link id) picks the stack's dimension-ordered routes, and every link keeps its bandwidth and
// latency. Congestion-aware runs therefore agree on every platform. Congestion-unaware runs
// agree whenever messages differ in one dimension only (every built-in algorithm of a
// hierarchical collective); the stack model ignores the higher dimensions of a message that
// crosses several (ASTRA-sim's simplification), the graph model does not.
//
// A flat graph (one logical dimension of all NPUs, graphPlatform(graphOfStack())) runs a 1-D
// stack's collectives identically too.
#include "TestPaths.h"
#include "astra/AstraInputs.h"
#include "engine/golden/GoldenSpec.h"
#include "generate/MicrobenchmarkGenerator.h"
#include "simulation/Simulation.h"
#include "topology/Topology.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace fs = std::filesystem;

using namespace golden;
using CT = CollectiveType;

namespace {

void expectSameRun(const RunResult& a, const RunResult& b, const std::string& what) {
    ASSERT_EQ(a.npus.size(), b.npus.size()) << what;
    for (size_t i = 0; i < a.npus.size(); ++i)
        ASSERT_EQ(a.npus[i].finish, b.npus[i].finish) << what << " NPU " << i;
}

struct Case {
    std::vector<DimensionSpec> dims;
    std::vector<std::string> algorithms;
};

void compare(const Case& c, NetworkBackend backend, bool flat) {
    SimulationSpec stack = spec(c.dims, "ring", backend);
    setAlgorithms(stack, c.algorithms);
    SimulationSpec graph = stack;
    graph.platform =
        flat ? graphPlatform(graphOfStack(stack.platform)) : stackAsGraph(stack.platform);
    for (CT type : {CT::AllReduce, CT::ReduceScatter, CT::AllGather, CT::AllToAll}) {
        bool hd = false;
        for (const std::string& a : c.algorithms)
            hd = hd || a == "halvingDoubling";
        if (hd && type == CT::AllToAll)
            continue;
        for (uint64_t bytes : {uint64_t{65536}, kMiB}) {
            std::string what =
                std::string(collectiveTypeName(type)) + " " + std::to_string(bytes) + " B over";
            for (const DimensionSpec& d : c.dims) {
                what += " ";
                what += blockKindName(d.kind);
                what += std::to_string(d.size);
            }
            for (const std::string& a : c.algorithms)
                what += " " + a;
            what += backend == NetworkBackend::CongestionAware ? " aware" : " unaware";
            expectSameRun(*runCollective(stack, type, bytes), *runCollective(graph, type, bytes),
                          what);
        }
    }
}

} // namespace

TEST(GraphStack, OneDimensionalStacksAsFlatGraphs) {
    using BK = BlockKind;
    const std::vector<Case> cases{
        {{dim(BK::Ring, 8)}, {"ring"}},
        {{dim(BK::Ring, 8)}, {"direct"}},
        {{dim(BK::FullyConnected, 8)}, {"direct"}},
        {{dim(BK::FullyConnected, 8)}, {"halvingDoubling"}},
        {{dim(BK::Switch, 8)}, {"ring"}},
        {{dim(BK::Switch, 8)}, {"direct"}},
        {{dim(BK::Ring, 5, 100, 936.25)}, {"ring"}},
    };
    for (const Case& c : cases)
        for (NetworkBackend b :
             {NetworkBackend::CongestionAware, NetworkBackend::CongestionUnaware})
            compare(c, b, true);
}

TEST(GraphStack, MultiDimensionalStacksKeepTheirLogicalDimensions) {
    using BK = BlockKind;
    const std::vector<Case> cases{
        {{dim(BK::Ring, 4), dim(BK::Switch, 4, 25, 700)}, {"ring", "ring"}},
        {{dim(BK::FullyConnected, 4), dim(BK::Ring, 4, 100, 250)}, {"direct", "ring"}},
        {{dim(BK::Ring, 2), dim(BK::FullyConnected, 4), dim(BK::Switch, 2)},
         {"ring", "direct", "ring"}},
    };
    for (const Case& c : cases)
        for (NetworkBackend b :
             {NetworkBackend::CongestionAware, NetworkBackend::CongestionUnaware})
            compare(c, b, false);
}

// Every measured ASTRA-sim case (tests/data/astra-sim-analytical.jsonl) that the congestion-aware
// backend finished: the platform run as a stack and as stackAsGraph() give the same finish time
// on every NPU, to the picosecond.
TEST(GraphStack, ReferenceCasesCongestionAware) {
    std::ifstream in(ASTROLABE_TEST_DATA_DIR + "/astra-sim-analytical.jsonl");
    ASSERT_TRUE(in) << "tests/data/astra-sim-analytical.jsonl is part of the repository";
    const fs::path dir =
        fs::path(::testing::TempDir()) / ("astrolabe-graph-stack-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::map<std::string, std::string> workloads;
    int compared = 0;
    std::string line;
    while (std::getline(in, line)) {
        const nlohmann::json c = nlohmann::json::parse(line);
        if (c["expected"]["congestion_aware"]["status"] != "ok")
            continue;
        std::ofstream(dir / "network.yml") << c["network_yml"].get<std::string>();
        std::ofstream(dir / "system.json") << c["system_json"].get<std::string>();
        std::ofstream(dir / "memory.json") << c["remote_memory_json"].get<std::string>();
        const auto& w = c["workload"];
        const std::string key = w["collective"].get<std::string>() + "_" +
                                std::to_string(w["npus"].get<int>()) + "_" +
                                std::to_string(w["size_bytes"].get<uint64_t>());
        if (!workloads.count(key)) {
            const std::string prefix = (dir / key / "trace").string();
            fs::create_directories(dir / key);
            generateMicrobenchmark(parseMicrobenchmarkCollective(w["collective"]), w["npus"],
                                   w["size_bytes"], {}, prefix);
            workloads[key] = prefix;
        }
        AstraInputs inputs;
        inputs.workloadPrefix = workloads[key];
        inputs.systemFile = (dir / "system.json").string();
        inputs.networkFile = (dir / "network.yml").string();
        inputs.remoteMemoryFile = (dir / "memory.json").string();
        inputs.backend = NetworkBackend::CongestionAware;
        const SimulationSpec stack = loadAstraInputs(inputs);
        SimulationSpec graph = stack;
        graph.platform = stackAsGraph(stack.platform);
        expectSameRun(*runSimulation(stack), *runSimulation(graph), c["id"].get<std::string>());
        ++compared;
    }
    std::printf("[ graph ] %d congestion-aware reference cases: stack and graph agree\n", compared);
    EXPECT_EQ(compared, 767);
    fs::remove_all(dir);
}
