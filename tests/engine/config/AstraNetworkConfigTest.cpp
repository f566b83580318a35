#include "astra/AstraNetworkConfig.h"

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

TEST(AstraNetworkYaml, RingEightNpusConvertsGigabytesAsPowersOfTwo) {
    const PlatformSpec p = parseAstraNetworkYaml(
        "topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50.0 ]  # GB/s\nlatency: [ 500.0 ]\n",
        "ring.yml");
    ASSERT_EQ(p.dimensions.size(), 1u);
    EXPECT_EQ(p.dimensions[0].kind, BlockKind::Ring);
    EXPECT_EQ(p.dimensions[0].size, 8);
    // 50 GB/s in ASTRA-sim's network convention = 50 * 2^30 B/s exactly; beta = 53.6870912 B/ns.
    EXPECT_EQ(p.dimensions[0].bandwidthBytesPerSecond, 50.0 * 1073741824.0);
    EXPECT_DOUBLE_EQ(p.dimensions[0].bytesPerNs(), 53.6870912);
    EXPECT_EQ(p.dimensions[0].latencyNs, 500.0);
    EXPECT_EQ(p.npuCount(), 8);
    EXPECT_EQ(p.sourceFile, "ring.yml");
}

TEST(AstraNetworkYaml, MultiDimensionalKeepsOrderAndFractionalLatency) {
    const PlatformSpec p =
        parseAstraNetworkYaml("topology: [ Switch, Ring, FullyConnected ]\nnpus_count: [8, 4, 2]\n"
                              "bandwidth: [400, 50, 741.34]\nlatency: [936.25, 1000, 0]\n",
                              "hgx.yml");
    ASSERT_EQ(p.dimensions.size(), 3u);
    EXPECT_EQ(p.dimensions[0].kind, BlockKind::Switch);
    EXPECT_EQ(p.dimensions[2].kind, BlockKind::FullyConnected);
    EXPECT_EQ(p.npuCount(), 64);
    EXPECT_EQ(p.dimensions[0].latencyNs, 936.25);
    EXPECT_EQ(p.dimensions[2].bandwidthBytesPerSecond, 741.34 * 1073741824.0);
    EXPECT_EQ(p.dimensions[2].latencyNs, 0.0);
}

TEST(AstraNetworkYaml, WriterReadsBackToTheSameValues) {
    PlatformSpec p;
    p.dimensions = {{BlockKind::Switch, 8, 400.0 * 1073741824.0, 936.25},
                    {BlockKind::Ring, 4, 123.456789 * 1073741824.0, 0.1},
                    {BlockKind::FullyConnected, 2, 1e9, 3.39}};
    const std::string text = writeAstraNetworkYaml(p);
    EXPECT_THAT(text, HasSubstr("topology: [ Switch, Ring, FullyConnected ]"));
    EXPECT_THAT(text, HasSubstr("npus_count: [ 8, 4, 2 ]"));
    EXPECT_THAT(text, HasSubstr("bandwidth: [ 400, 123.456789,"));
    const PlatformSpec back = parseAstraNetworkYaml(text, "written.yml");
    EXPECT_EQ(back, p); // bit-exact doubles
}

TEST(AstraNetworkYaml, UnknownKeysAreWarningsBecauseAstraSimIgnoresThem) {
    std::vector<std::string> warnings;
    parseAstraNetworkYaml("topology: [Ring]\nnpus_count: [4]\nbandwidth: [50]\nlatency: [5]\n"
                          "latencies: [1]\n",
                          "w.yml", &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_THAT(warnings[0], HasSubstr("w.yml:5:1: latencies: unknown key, ignored"));
    EXPECT_THAT(warnings[0], HasSubstr("did you mean \"latency\"?"));
}

TEST(AstraNetworkYaml, AllErrorsOfTheFileAreReportedTogether) {
    const std::string text = errorText([] {
        parseAstraNetworkYaml("topology: [Ring, Torus]\nnpus_count: [1, 4]\n"
                              "bandwidth: [0, 50]\nlatency: [-1, 5]\n",
                              "n.yml");
    });
    EXPECT_THAT(text, HasSubstr("n.yml:1:18: topology[1]: unknown topology building block "
                                "\"Torus\"; expected Ring, FullyConnected or Switch"));
    EXPECT_THAT(text, HasSubstr("n.yml:2:14: npus_count[0]: expected more than 1 NPU"));
    EXPECT_THAT(text, HasSubstr("n.yml:3:13: bandwidth[0]: expected a bandwidth greater than 0"));
    EXPECT_THAT(text, HasSubstr("n.yml:4:11: latency[0]: expected a latency of 0 ns or more, "
                                "found -1"));
}

// Bandwidths outside [1 KB/s, 10^18 B/s] (docs/limits.md) are refused where they are written, in
// the file's GB/s = 2^30 B/s; 1e-300 once ran into "simulated time overflow in multiplication".
TEST(AstraNetworkYaml, BandwidthsOutsideTheLimitsAreRefusedWithTheirPlace) {
    const std::string text = errorText([] {
        parseAstraNetworkYaml("topology: [Ring, Switch, Ring]\nnpus_count: [2, 2, 2]\n"
                              "bandwidth: [1e-300, 1e12, 0.0000009]\nlatency: [1, 1, 1]\n",
                              "n.yml");
    });
    EXPECT_THAT(text, HasSubstr("n.yml:3:13: bandwidth[0]: expected a bandwidth from 1 KB/s to "
                                "1000000 TB/s, found "));
    EXPECT_THAT(text, HasSubstr("found 1e-300 GB/s (2^30 B)"));
    EXPECT_THAT(text, HasSubstr("bandwidth[1]: expected a bandwidth from 1 KB/s"));
    EXPECT_THAT(text, HasSubstr("found 1e+12 GB/s (2^30 B)"));
    EXPECT_THAT(text, HasSubstr("bandwidth[2]: expected a bandwidth from 1 KB/s"));
    const PlatformSpec edge = parseAstraNetworkYaml(
        "topology: [Ring]\nnpus_count: [2]\nbandwidth: [0.000001]\nlatency: [1]\n", "n.yml");
    EXPECT_DOUBLE_EQ(edge.dimensions.at(0).bandwidthBytesPerSecond, 1073.741824);
}

// Every network file in ASTRA-sim's repository snapshot loads, except the one with "tbd"
// placeholders, which ASTRA-sim cannot read either.
TEST(AstraNetworkYaml, EveryReferenceNetworkFileLoads) {
    ASTROLABE_REQUIRE_SHARED();
    int loaded = 0;
    for (const auto& entry :
         fs::recursive_directory_iterator(configtest::sharedReference() / "astra-sim")) {
        if (entry.path().extension() != ".yml")
            continue;
        const std::string path = entry.path().string();
        if (entry.path().filename() == "dgx_v100_8gpu.yml") {
            EXPECT_THAT(errorText([&] { loadAstraNetworkYaml(path); }),
                        HasSubstr("dgx_v100_8gpu.yml:11:14: bandwidth[0]: expected a number, "
                                  "found \"tbd\""));
            continue;
        }
        SCOPED_TRACE(path);
        const PlatformSpec p = loadAstraNetworkYaml(path);
        EXPECT_GE(p.npuCount(), 2);
        ++loaded;
    }
    EXPECT_EQ(loaded, 14);
    const PlatformSpec hgx =
        loadAstraNetworkYaml((configtest::sharedReference() /
                              "astra-sim/examples/network/analytical/HGX-H100-validated.yml")
                                 .string());
    ASSERT_EQ(hgx.dimensions.size(), 1u);
    EXPECT_EQ(hgx.dimensions[0].kind, BlockKind::Switch);
    EXPECT_EQ(hgx.dimensions[0].bandwidthBytesPerSecond, 400.0 * 1073741824.0);
    EXPECT_EQ(hgx.dimensions[0].latencyNs, 936.25);
}

TEST(AstraNetworkYaml, EveryNetworkOfTheMeasuredCasesParses) {
    ASTROLABE_REQUIRE_SHARED();
    std::ifstream in(configtest::sharedReference() / "results/astra-sim-analytical.jsonl");
    ASSERT_TRUE(in) << "results/astra-sim-analytical.jsonl missing";
    TempDir dir;
    std::string line;
    int cases = 0;
    std::set<std::string> distinct;
    while (std::getline(in, line)) {
        const auto row = nlohmann::json::parse(line);
        const std::string yml = row.at("network_yml").get<std::string>();
        ++cases;
        if (!distinct.insert(yml).second)
            continue;
        SCOPED_TRACE(yml);
        const std::string file = dir.write("case" + std::to_string(distinct.size()) + ".yml", yml);
        const PlatformSpec p = loadAstraNetworkYaml(file);
        EXPECT_EQ(p.npuCount(), row.at("workload").at("npus").get<int>());
    }
    EXPECT_EQ(cases, 818);
    EXPECT_GE(distinct.size(), 9u);
}
