#include "astra/AstraSystemConfig.h"

#include "ConfigTestSupport.h"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

using namespace astrolabe;
using astrolabe::configtest::errorText;
using astrolabe::test::TempDir;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

namespace {
const char* kRegressionSystem = R"({
    "scheduling-policy": "LIFO",
    "endpoint-delay": 10,
    "active-chunks-per-dimension": 1,
    "preferred-dataset-splits": 4,
    "all-reduce-implementation": ["ring"],
    "all-gather-implementation": ["ring"],
    "reduce-scatter-implementation": ["ring"],
    "all-to-all-implementation": ["direct4", "oneHalvingDoubling"],
    "collective-optimization": "localBWAware",
    "local-mem-bw": 50,
    "boost-mode": 0
})";
} // namespace

TEST(AstraSystemJson, ReadsEveryKeyOfTheRegressionCase) {
    std::vector<std::string> warnings;
    const SystemConfig s = parseAstraSystemJson(kRegressionSystem, "sys.json", 1.0, &warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_EQ(s.schedulingPolicy, SchedulingPolicy::LIFO);
    EXPECT_EQ(s.collectiveOptimization, CollectiveOptimization::LocalBWAware);
    EXPECT_EQ(s.endpointDelayNs, 10);
    EXPECT_TRUE(s.endpointDelayFromFile);
    EXPECT_EQ(s.activeChunksPerDimension, 1);
    EXPECT_EQ(s.preferredDatasetSplits, 4);
    ASSERT_EQ(s.allReduce.size(), 1u);
    EXPECT_EQ(s.allReduce[0].kind, AlgorithmKind::Ring);
    ASSERT_EQ(s.allToAll.size(), 2u);
    EXPECT_EQ(s.allToAll[0], (AlgorithmSpec{AlgorithmKind::Direct, 4}));
    EXPECT_EQ(s.allToAll[1].kind, AlgorithmKind::OneHalvingDoubling);
    EXPECT_EQ(s.localMemBandwidthGBps, 50.0);
    EXPECT_EQ(s.intraDimensionScheduling, IntraDimensionScheduling::FIFO);
    EXPECT_EQ(s.interDimensionScheduling, InterDimensionScheduling::Ascending);
}

TEST(AstraSystemJson, InjectionScaleMultipliesAConfiguredDelayAndTruncates) {
    // int(10 * 1.55) = 15 (15.5 truncated); the built-in default 10 is never scaled.
    const SystemConfig scaled = parseAstraSystemJson(kRegressionSystem, "s.json", 1.55);
    EXPECT_EQ(scaled.endpointDelayNs, 15);
    EXPECT_EQ(scaled.endpointDelayConfiguredNs, 10.0);
    const SystemConfig unset = parseAstraSystemJson(
        R"({"scheduling-policy": "FIFO", "preferred-dataset-splits": 1})", "s.json", 3.0);
    EXPECT_EQ(unset.endpointDelayNs, 10);
    EXPECT_FALSE(unset.endpointDelayFromFile);
}

TEST(AstraSystemJson, HonoursTheSchedulingKeysAstraSimIgnores) {
    const SystemConfig s = parseAstraSystemJson(
        R"({"scheduling-policy": "EXPLICIT", "preferred-dataset-splits": 2,
            "intra-dimension-scheduling": "SCF", "inter-dimension-scheduling": "offlineGreedyFlex",
            "roofline-enabled": 1, "peak-perf": 900, "replay-only": true, "track-local-mem": 0,
            "trace-enabled": 1, "local-mem-trace-filename": "mem", "L": 3, "G": 0.5})",
        "s.json");
    EXPECT_EQ(s.schedulingPolicy, SchedulingPolicy::Explicit);
    EXPECT_EQ(s.intraDimensionScheduling, IntraDimensionScheduling::SmallestFirst);
    EXPECT_EQ(s.interDimensionScheduling, InterDimensionScheduling::OfflineGreedyFlex);
    EXPECT_TRUE(s.rooflineEnabled);
    EXPECT_TRUE(s.replayOnly);
    EXPECT_TRUE(s.traceEnabled);
    EXPECT_FALSE(s.trackLocalMemory);
    EXPECT_EQ(s.peakPerfTFlops, 900.0);
    EXPECT_EQ(s.localMemTraceFilename, "mem");
    for (const char* name : {"baseline", "ascending"})
        EXPECT_EQ(parseInterDimensionScheduling(name), InterDimensionScheduling::Ascending);
    EXPECT_EQ(parseInterDimensionScheduling("themis"), InterDimensionScheduling::Themis);
    EXPECT_EQ(parseInterDimensionScheduling("offlineGreedy"),
              InterDimensionScheduling::OfflineGreedy);
    EXPECT_EQ(parseInterDimensionScheduling("roundRobin"), InterDimensionScheduling::RoundRobin);
    EXPECT_EQ(parseIntraDimensionScheduling("smallestFirst"),
              IntraDimensionScheduling::SmallestFirst);
    EXPECT_EQ(parseIntraDimensionScheduling("RG"), IntraDimensionScheduling::RG);
    EXPECT_EQ(parseIntraDimensionScheduling("lessRemainingPhaseFirst"),
              IntraDimensionScheduling::LessRemainingPhaseFirst);
}

TEST(AstraSystemJson, IgnoredKeysAreWarnings) {
    std::vector<std::string> warnings;
    parseAstraSystemJson(
        "{\n  \"scheduling-policy\": \"LIFO\",\n  \"preferred-dataset-splits\": 1,\n"
        "  \"boost-mode\": 1,\n  \"endpoint-dalay\": 5\n}",
        "w.json", 1.0, &warnings);
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_THAT(warnings[0], HasSubstr("w.json:5:3: endpoint-dalay: unknown key, ignored"));
    EXPECT_THAT(warnings[0], HasSubstr("did you mean \"endpoint-delay\"?"));
    EXPECT_THAT(warnings[1], HasSubstr("w.json:4:3: boost-mode: ignored"));
}

TEST(AstraSystemJson, CustomCollectivesAndPerNodeYaml) {
    TempDir dir;
    dir.write("per_node.yaml", "7: custom/a\n3: custom/b\n");
    const std::string json =
        dir.write("sys.json", R"({"scheduling-policy": "FIFO", "preferred-dataset-splits": 1,
        "all-reduce-implementation-custom": ["examples/custom_allreduce"],
        "per-node-custom-implementation": "per_node.yaml"})");
    // The YAML path is relative to the working directory upstream; the JSON's folder is the
    // fallback that makes this test independent of where it runs.
    const SystemConfig s = loadAstraSystemJson(json);
    EXPECT_EQ(s.customAllReduce, "examples/custom_allreduce");
    ASSERT_EQ(s.perNodeCustom.size(), 2u);
    EXPECT_EQ(s.perNodeCustom[0], (std::pair<uint64_t, std::string>{3, "custom/b"}));
    EXPECT_EQ(s.perNodeCustom[1], (std::pair<uint64_t, std::string>{7, "custom/a"}));
}

TEST(AstraSystemJson, EveryReferenceSystemFileLoads) {
    ASTROLABE_REQUIRE_SHARED();
    int loaded = 0;
    for (const auto& entry :
         fs::recursive_directory_iterator(configtest::sharedReference() / "astra-sim")) {
        const std::string path = entry.path().string();
        if (entry.path().extension() != ".json" || path.find("remote_memory") != std::string::npos)
            continue;
        SCOPED_TRACE(path);
        std::vector<std::string> warnings;
        const SystemConfig s = loadAstraSystemJson(path, 1.0, &warnings);
        EXPECT_GE(s.preferredDatasetSplits, 1);
        EXPECT_TRUE(warnings.empty()) << warnings.front();
        ++loaded;
    }
    EXPECT_EQ(loaded, 14);
    const SystemConfig h100 = loadAstraSystemJson(
        (configtest::sharedReference() / "astra-sim/inputs/system/analytical/hgx_h100_16gpu.json")
            .string());
    EXPECT_EQ(h100.activeChunksPerDimension, 2);
    EXPECT_EQ(h100.allGather.size(), 2u);
    EXPECT_TRUE(h100.rooflineEnabled);
    EXPECT_TRUE(h100.trackLocalMemory);
    EXPECT_EQ(h100.peakPerfTFlops, 700.0);
    EXPECT_EQ(h100.localMemTraceFilename, "mem_trace/local_memory_trace");
    EXPECT_EQ(h100.endpointDelayNs, 1);
}

TEST(AstraSystemJson, EverySystemOfTheMeasuredCasesParses) {
    ASTROLABE_REQUIRE_SHARED();
    std::ifstream in(configtest::sharedReference() / "results/astra-sim-analytical.jsonl");
    ASSERT_TRUE(in);
    TempDir dir;
    std::string line;
    std::set<std::string> distinct;
    int cases = 0;
    while (std::getline(in, line)) {
        const auto row = nlohmann::json::parse(line);
        const std::string text = row.at("system_json").get<std::string>();
        ++cases;
        if (!distinct.insert(text).second)
            continue;
        SCOPED_TRACE(text);
        const std::string file = dir.write("sys" + std::to_string(distinct.size()) + ".json", text);
        const SystemConfig s = loadAstraSystemJson(file);
        const auto original = nlohmann::json::parse(text);
        EXPECT_EQ(s.preferredDatasetSplits, original.at("preferred-dataset-splits").get<int>());
        EXPECT_EQ(s.activeChunksPerDimension,
                  original.at("active-chunks-per-dimension").get<int>());
        EXPECT_EQ(algorithmName(s.allReduce.at(0)),
                  original.at("all-reduce-implementation").at(0).get<std::string>());
    }
    EXPECT_EQ(cases, 818);
    EXPECT_GE(distinct.size(), 32u);
}

TEST(AstraSystemJson, ANumberTooLargeForADoubleIsAnErrorWithItsPlace) {
    // nlohmann throws out_of_range for these; the message used to be that raw exception.
    for (const char* number : {"1e400", "-2e999", "1.5e309"}) {
        SCOPED_TRACE(number);
        const std::string text =
            std::string("{\n  \"scheduling-policy\": \"LIFO\",\n  \"local-mem-bw\": ") + number +
            "\n}\n";
        try {
            parseAstraSystemJson(text, "sys.json");
            ADD_FAILURE() << "parsed";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::Input);
            EXPECT_EQ(e.where().file, "sys.json");
            EXPECT_EQ(e.where().line, 3);
            EXPECT_EQ(e.where().column, 19);
            EXPECT_NE(e.message().find(number), std::string::npos) << e.message();
        }
    }
}
