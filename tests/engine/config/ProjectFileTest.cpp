#include "project/ProjectFile.h"

#include "ConfigTestSupport.h"
#include "TestPaths.h"
#include "astra/AstraInputs.h"
#include "astra/AstraNetworkConfig.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using astrolabe::configtest::errorText;
using astrolabe::test::TempDir;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

namespace {

fs::path bundledProject(const char* name) {
    // tests/data may not exist, so the ".." are removed by text, not by the file system.
    return (fs::path(ASTROLABE_TEST_DATA_DIR) / ".." / ".." / "projects" / name / "project.yaml")
        .lexically_normal();
}

// Provenance (which file a section came from) legitimately changes on save; nothing else may.
SimulationSpec withoutProvenance(SimulationSpec spec) {
    spec.sourceFile.clear();
    spec.platform.sourceFile.clear();
    spec.system.sourceFile.clear();
    spec.memory.sourceFile.clear();
    return spec;
}

SimulationSpec roundTrip(const SimulationSpec& spec, const TempDir& dir) {
    const std::string path = dir.path("saved/again.yaml");
    fs::create_directories(fs::path(path).parent_path());
    saveProject(spec, path);
    return loadProject(path);
}

// A project that sets every key to a non-default value.
std::string everyKeyProject(const TempDir& dir) {
    for (int i = 0; i < 16; ++i)
        dir.write("traces/llm." + std::to_string(i) + ".et", "");
    return dir.write("every/project.yaml", R"(
name: "Every key: set"
platform:
  dimensions:
    - {type: Switch, size: 8, bandwidth: 741.34 GiB/s, latency: 936.25 ns}
    - {type: FullyConnected, size: 2, bandwidth: 100 Gbps, latency: 1.5 us}
system:
  algorithms:
    all-reduce: [halvingDoubling, direct4]
    reduce-scatter: [oneRing]
    all-gather: [doubleBinaryTree, ring]
    all-to-all: []
  custom-algorithms: {all-to-all: ../custom/a2a, reduce-scatter: /abs/rs}
  per-node-custom: {12: ../custom/node12, 3: ../custom/node3}
  scheduling-policy: EXPLICIT
  collective-optimization: localBWAware
  intra-dimension-scheduling: lessRemainingPhaseFirst
  inter-dimension-scheduling: themisFlex
  chunks: 7
  active-chunks-per-dimension: 3
  endpoint-delay: 10.5 ns
  local-memory-bandwidth: 3.35 TB/s
  peak-perf: 989.4 TFLOP/s
  roofline: true
  replay-only: true
  trace-enabled: true
  track-local-memory: true
  local-memory-trace-file: mem/trace
  num-queues-per-dim: 2
  injection-scale: 1.5
  rendezvous: true
memory:
  type: per-node
  latency: 2 us
  bandwidth: 64 GB/s
  num-nodes: 2
  npus-per-node: 8
workload:
  trace: ../traces/llm
comm-groups:
  1: [3, 1, 2, 0]
  5: [15, 14]
run:
  backend: congestion-aware
  timing: precise
  dependencies: data-only
  record-timeline: false
  record-link-intervals: true
)");
}

} // namespace

TEST(ProjectFile, QuickstartIsTheAstraSimRegressionCase) {
    const SimulationSpec spec = loadProject(bundledProject("quickstart").string());
    EXPECT_EQ(spec.name, "Quick start");
    ASSERT_EQ(spec.platform.dimensions.size(), 1u);
    const DimensionSpec& ring = spec.platform.dimensions[0];
    EXPECT_EQ(ring.kind, BlockKind::Ring);
    EXPECT_EQ(ring.size, 8);
    EXPECT_EQ(ring.bandwidthBytesPerSecond, 50.0 * 1073741824.0); // same as ASTRA-sim's "50"
    EXPECT_EQ(ring.latencyNs, 500.0);
    EXPECT_EQ(spec.system.preferredDatasetSplits, 4);
    EXPECT_EQ(spec.system.endpointDelayNs, 10);
    EXPECT_EQ(spec.system.localMemBandwidthGBps, 50.0);
    EXPECT_EQ(spec.system.collectiveOptimization, CollectiveOptimization::LocalBWAware);
    ASSERT_EQ(spec.system.allReduce.size(), 1u);
    EXPECT_EQ(spec.system.allReduce[0].kind, AlgorithmKind::Ring);
    EXPECT_EQ(spec.workload.kind, WorkloadSource::Kind::Microbenchmark);
    EXPECT_EQ(spec.workload.microbenchmark.collective, 0);
    EXPECT_EQ(spec.workload.microbenchmark.sizeBytes, 1048576u);
}

TEST(ProjectFile, QuickstartMatchesTheRegressionFilesOfAstraSim) {
    ASTROLABE_REQUIRE_SHARED();
    const auto ref = configtest::sharedReference() / "astra-sim/tests/rt_template/inputs";
    const SimulationSpec project = loadProject(bundledProject("quickstart").string());
    EXPECT_EQ(project.platform, loadAstraNetworkYaml((ref / "network_cfg.yml").string()));
    AstraInputs in;
    in.workloadPrefix = (configtest::sharedReference() /
                         "astra-sim/examples/workload/microbenchmarks/all_reduce/8npus_1MB/"
                         "all_reduce")
                            .string();
    in.systemFile = (ref / "system_cfg.json").string();
    in.networkFile = (ref / "network_cfg.yml").string();
    SystemConfig fromAstra = loadAstraInputs(in).system;
    SystemConfig fromProject = project.system;
    fromAstra.sourceFile = fromProject.sourceFile = {};
    EXPECT_EQ(fromProject, fromAstra);
}

TEST(ProjectFile, BundledProjectsLoad) {
    const SimulationSpec hgx = loadProject(bundledProject("hgx-h100").string());
    ASSERT_EQ(hgx.platform.dimensions.size(), 1u);
    EXPECT_EQ(hgx.platform.dimensions[0].kind, BlockKind::Switch);
    EXPECT_EQ(hgx.platform.dimensions[0].bandwidthBytesPerSecond, 400.0 * 1073741824.0);
    EXPECT_EQ(hgx.platform.dimensions[0].latencyNs, 936.25);
    EXPECT_EQ(hgx.system.activeChunksPerDimension, 2);
    EXPECT_EQ(hgx.system.allToAll.size(), 1u); // the single list applies to every type
    EXPECT_EQ(hgx.system.localMemBandwidthGBps, 3350.0);

    const SimulationSpec torus = loadProject(bundledProject("torus-2d").string());
    ASSERT_EQ(torus.platform.dimensions.size(), 2u);
    EXPECT_EQ(torus.platform.npuCount(), 16);
    EXPECT_EQ(torus.platform.dimensions[1].latencyNs, 1000.0);
    EXPECT_EQ(torus.system.allToAll[1].kind, AlgorithmKind::Direct);
    EXPECT_EQ(torus.commGroups.size(), 4u);
    EXPECT_EQ(torus.commGroups.at(4), (std::vector<int>{12, 13, 14, 15}));
    EXPECT_EQ(torus.workload.microbenchmark.sizeBytes, 16u << 20);
    EXPECT_TRUE(torus.options.recordLinkIntervals);
}

TEST(ProjectFile, EveryKeyIsReadWithItsUnit) {
    TempDir dir;
    const SimulationSpec s = loadProject(everyKeyProject(dir));
    EXPECT_EQ(s.name, "Every key: set");
    EXPECT_EQ(s.platform.dimensions[0].bandwidthBytesPerSecond, 741.34 * 1073741824.0);
    EXPECT_EQ(s.platform.dimensions[1].bandwidthBytesPerSecond, 100e9 / 8);
    EXPECT_EQ(s.platform.dimensions[1].latencyNs, 1500.0);
    EXPECT_EQ(s.system.allReduce[1], (AlgorithmSpec{AlgorithmKind::Direct, 4}));
    EXPECT_TRUE(s.system.allToAll.empty());
    EXPECT_EQ(s.system.customAllToAll, dir.path("custom/a2a"));
    EXPECT_EQ(s.system.customReduceScatter, "/abs/rs");
    ASSERT_EQ(s.system.perNodeCustom.size(), 2u);
    EXPECT_EQ(s.system.perNodeCustom[0].first, 3u);
    EXPECT_EQ(s.system.endpointDelayConfiguredNs, 10.5);
    EXPECT_EQ(s.system.endpointDelayNs, 15); // int(10.5 * 1.5), as --injection-scale does
    EXPECT_DOUBLE_EQ(s.system.localMemBandwidthGBps, 3350.0);
    EXPECT_EQ(s.system.peakPerfTFlops, 989.4);
    EXPECT_EQ(s.system.interDimensionScheduling, InterDimensionScheduling::OfflineGreedyFlex);
    EXPECT_EQ(s.system.localMemTraceFilename, "mem/trace");
    EXPECT_EQ(s.memory.type, RemoteMemoryType::PerNodeMemoryExpansion);
    EXPECT_EQ(s.memory.latencyNs, 2000u);
    EXPECT_EQ(s.memory.bandwidthBytesPerNs, 64u);
    EXPECT_EQ(s.workload.tracePrefix, dir.path("traces/llm"));
    EXPECT_EQ(s.commGroups.at(1), (std::vector<int>{3, 1, 2, 0}));
    EXPECT_EQ(s.options.backend, NetworkBackend::CongestionAware);
    EXPECT_EQ(s.options.timing, TimingMode::Precise);
    EXPECT_TRUE(s.options.dataDepsOnly);
    EXPECT_FALSE(s.options.recordTimeline);
    EXPECT_EQ(s.options.numQueuesPerDim, 2);
    EXPECT_TRUE(s.options.rendezvousProtocol);
}

TEST(ProjectFile, SaveThenLoadGivesBackEveryField) {
    TempDir dir;
    for (const std::string& source :
         {everyKeyProject(dir), bundledProject("quickstart").string(),
          bundledProject("hgx-h100").string(), bundledProject("torus-2d").string()}) {
        SCOPED_TRACE(source);
        const SimulationSpec original = loadProject(source);
        const SimulationSpec back = roundTrip(original, dir);
        EXPECT_EQ(withoutProvenance(back), withoutProvenance(original))
            << projectYamlText(original, dir.path("saved/again.yaml"));
    }
}

// The memory section, derived from the schema, writes what the hand-written writer wrote (whole
// ns and GB/s, node counts only when set, nothing but the type for none) and reads it back, for
// each memory type.
TEST(ProjectFile, EachMemoryTypeSavesAndLoadsBack) {
    TempDir dir;
    SimulationSpec spec = loadProject(bundledProject("quickstart").string());
    for (int t = 0; t <= static_cast<int>(RemoteMemoryType::Pooled); ++t) {
        spec.memory.type = static_cast<RemoteMemoryType>(t);
        spec.memory.latencyNs = 1000 * static_cast<uint64_t>(t);
        spec.memory.bandwidthBytesPerNs = 64;
        const bool perNode = spec.memory.type == RemoteMemoryType::PerNodeMemoryExpansion;
        spec.memory.numNodes = perNode ? 2 : 0;
        spec.memory.numNpusPerNode = perNode ? 4 : 0;
        const bool pooled = spec.memory.type == RemoteMemoryType::Pooled;
        spec.memory.groups = pooled ? 256 : 0;
        spec.memory.fabricBytesPerNs = pooled ? 512 : 0;
        const std::string text = projectYamlText(spec, dir.path("saved/again.yaml"));
        SimulationSpec expected = spec;
        if (t == 0) { // type none reads nothing else: nothing else is written
            EXPECT_THAT(text, HasSubstr("memory:\n  type: none\nworkload:"));
            expected.memory.latencyNs = 0;
            expected.memory.bandwidthBytesPerNs = 0;
        } else {
            EXPECT_THAT(text, HasSubstr("  latency: " + std::to_string(1000 * t) +
                                        " ns\n  bandwidth: 64 GB/s\n"));
        }
        EXPECT_EQ(text.find("num-nodes") != std::string::npos, perNode) << text;
        EXPECT_EQ(text.find("groups: 256\n  fabric-bandwidth: 512 GB/s") != std::string::npos,
                  pooled)
            << text;
        EXPECT_EQ(withoutProvenance(roundTrip(spec, dir)), withoutProvenance(expected)) << text;
    }
}

// platform.accelerator: written only when named, read back, beside dimensions or a graph.
TEST(ProjectFile, TheAcceleratorSavesAndLoadsBack) {
    TempDir dir;
    SimulationSpec spec = loadProject(bundledProject("quickstart").string());
    EXPECT_EQ(spec.platform.accelerator, "");
    EXPECT_EQ(projectYamlText(spec, dir.path("p.yaml")).find("accelerator"), std::string::npos);
    spec.platform.accelerator = "b200";
    const std::string text = projectYamlText(spec, dir.path("p.yaml"));
    EXPECT_THAT(text, HasSubstr("platform:\n  accelerator: \"b200\"\n  dimensions:\n")) << text;
    EXPECT_EQ(withoutProvenance(roundTrip(spec, dir)), withoutProvenance(spec)) << text;
}

TEST(ProjectFile, SavedTextIsReadable) {
    TempDir dir;
    const std::string text =
        projectYamlText(loadProject(bundledProject("quickstart").string()), dir.path("p.yaml"));
    EXPECT_THAT(text, HasSubstr("- {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 500 ns}"));
    EXPECT_THAT(text, HasSubstr("local-memory-bandwidth: 50 GB/s"));
    EXPECT_THAT(text, HasSubstr("microbenchmark: {collective: all-reduce, size: 1 MiB"));
    EXPECT_THAT(text, HasSubstr("endpoint-delay: 10 ns"));
}

// The writer quotes text itself (not yaml-cpp's emitter, see ProjectWriter.cpp): a name with
// YAML's special characters, quotes, backslashes, every control character and UTF-8 reads back
// byte for byte.
TEST(ProjectFile, AnyNameReadsBackExactly) {
    TempDir dir;
    SimulationSpec spec = loadProject(bundledProject("quickstart").string());
    std::string awkward = "#: - {a: [b]} 'q' \"dq\" \\back\\ ~ null true 0x1F & * ! | > % @ `";
    for (int c = 1; c < 0x20; ++c)
        awkward += static_cast<char>(c);
    awkward += "\x7f caf\xc3\xa9 \xe2\x86\x92";
    for (const std::string& name : {awkward, std::string("true"), std::string("12"),
                                    std::string(" lead and trail "), std::string("")}) {
        spec.name = name;
        EXPECT_EQ(roundTrip(spec, dir).name, name)
            << projectYamlText(spec, dir.path("saved/again.yaml"));
    }
}

TEST(ProjectFile, AstraInputsSaveAsAProject) {
    ASTROLABE_REQUIRE_SHARED();
    const auto ref = configtest::sharedReference().lexically_normal() / "astra-sim";
    AstraInputs in;
    in.workloadPrefix =
        (ref / "examples/workload/microbenchmarks/all_reduce/8npus_1MB/all_reduce").string();
    in.systemFile = (ref / "examples/system/native_collectives/HGX-H100-validated.json").string();
    in.networkFile = (ref / "examples/network/analytical/HGX-H100-validated.yml").string();
    in.injectionScale = 3;
    const SimulationSpec imported = importAstraConfiguration(in);
    TempDir dir;
    EXPECT_EQ(withoutProvenance(roundTrip(imported, dir)), withoutProvenance(imported));
}

TEST(ProjectFile, ReferencesToAstraSimFilesResolveAgainstTheProjectFolder) {
    TempDir dir;
    dir.write("astra/net.yml",
              "topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [5]\n");
    dir.write("astra/sys.json", R"({"scheduling-policy": "FIFO", "endpoint-delay": 4,
        "preferred-dataset-splits": 2, "all-reduce-implementation": ["ring"]})");
    dir.write("astra/mem.json", R"({"memory-type": "MEMORY_POOL", "remote-mem-bw": 9})");
    dir.write("astra/groups.json", R"({"1": [0, 2]})");
    const std::string project = dir.write("p/project.yaml", R"(
platform: {astra-network: ../astra/net.yml}
system: {astra-system: ../astra/sys.json, injection-scale: 2, num-queues-per-dim: 2}
memory: {astra-memory: ../astra/mem.json}
comm-groups: ../astra/groups.json
workload:
  microbenchmark: {collective: all-reduce, size: 64 KiB, comm-group: 1}
)");
    const SimulationSpec s = loadProject(project);
    EXPECT_EQ(s.name, "project");
    EXPECT_EQ(s.platform.npuCount(), 4);
    EXPECT_EQ(s.platform.sourceFile, dir.path("astra/net.yml"));
    EXPECT_EQ(s.system.endpointDelayNs, 8); // 4 * injection-scale 2
    EXPECT_EQ(s.system.schedulingPolicy, SchedulingPolicy::FIFO);
    EXPECT_EQ(s.options.numQueuesPerDim, 2);
    EXPECT_EQ(s.memory.bandwidthBytesPerNs, 9u);
    EXPECT_EQ(s.commGroups.at(1), (std::vector<int>{0, 2}));
    EXPECT_EQ(s.workload.microbenchmark.commGroup, 1);

    // Inline keys cannot be mixed with astra-system, and errors inside the referenced file
    // keep their own file and line.
    dir.write("astra/bad.json", "{\n \"preferred-dataset-splits\": \"four\"\n}");
    const std::string mixed = dir.write("p/mixed.yaml", R"(
platform: {astra-network: ../astra/net.yml}
system: {astra-system: ../astra/bad.json, chunks: 4}
workload: {microbenchmark: {collective: all-reduce, size: 1 MiB}}
)");
    const std::string text = errorText([&] { loadProject(mixed); });
    EXPECT_THAT(text, HasSubstr("mixed.yaml:3:43: system.chunks: cannot be combined with "
                                "astra-system"));
    EXPECT_THAT(text, HasSubstr("bad.json:2:2: preferred-dataset-splits: expected a number, "
                                "found \"four\""));
}

TEST(ProjectFile, QuantitiesNeedExplicitUnits) {
    TempDir dir;
    const auto projectWith = [&](const std::string& systemExtra, const std::string& memory) {
        return dir.write("u.yaml", "platform:\n  dimensions:\n"
                                   "    - {type: Ring, size: 4, bandwidth: 5 GB/s, latency: 1 ns}\n"
                                   "system:\n  algorithms: [ring]\n  chunks: 1\n" +
                                       systemExtra + memory +
                                       "workload: {microbenchmark: {collective: all-gather, "
                                       "size: 4 KiB}}\n");
    };
    EXPECT_THAT(errorText([&] { loadProject(projectWith("  peak-perf: 900\n", "")); }),
                HasSubstr("u.yaml:7:14: system.peak-perf: expected a compute rate with a unit, "
                          "found \"900\" (a bare number is ambiguous; write the unit) (hint: "
                          "accepted forms: <number> GFLOP/s|TFLOP/s|PFLOP/s"));
    EXPECT_THAT(errorText([&] { loadProject(projectWith("  endpoint-delay: 10\n", "")); }),
                HasSubstr("u.yaml:7:19: system.endpoint-delay: expected a time with a unit"));
    EXPECT_THAT(
        errorText([&] { loadProject(projectWith("  local-memory-bandwidth: 50 GiBps\n", "")); }),
        HasSubstr("u.yaml:7:27: system.local-memory-bandwidth: expected a bandwidth with "
                  "a unit, found \"50 GiBps\" (unknown unit \"GiBps\")"));
    EXPECT_THAT(errorText([&] {
                    loadProject(projectWith("", "memory: {type: pool, latency: 1.5 ns, "
                                                "bandwidth: 2.5 GB/s}\n"));
                }),
                ::testing::AllOf(
                    HasSubstr("u.yaml:7:31: memory.latency: expected a whole number of "
                              "nanoseconds, found 1.5 ns"),
                    HasSubstr("u.yaml:7:50: memory.bandwidth: expected a whole number of GB/s")));
    // A count of the memory group is named once, at its value, with what was found: 2.5 was
    // reported twice, and -2 and 0 as "expected 1 or more nodes" with no value shown.
    const auto perNode = [&](const std::string& nodes) {
        return errorText([&] {
            loadProject(projectWith("", "memory: {type: per-node, bandwidth: 100 GB/s, latency: "
                                        "1 us, num-nodes: " +
                                            nodes + ", npus-per-node: 4}\n"));
        });
    };
    const std::string fraction = perNode("2.5");
    EXPECT_THAT(fraction, HasSubstr("memory.num-nodes: expected a whole number, found \"2.5\""));
    EXPECT_THAT(fraction, ::testing::Not(HasSubstr("expected 1 or more nodes")));
    EXPECT_THAT(perNode("-2"), HasSubstr("memory.num-nodes: expected 0 or more, found -2"));
    EXPECT_THAT(perNode("0"),
                HasSubstr("memory.num-nodes: expected 1 or more nodes for per-node, found 0"));
}
