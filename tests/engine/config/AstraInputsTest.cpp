#include "astra/AstraInputs.h"

#include "ConfigTestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using astrolabe::configtest::errorText;
using astrolabe::test::TempDir;
using ::testing::HasSubstr;

namespace {

// ASTRA-sim's own regression case: 8-NPU ring, 1 MiB all-reduce (expected 117,780 cycles).
AstraInputs regressionInputs() {
    const auto ref = configtest::sharedReference() / "astra-sim";
    AstraInputs in;
    in.workloadPrefix =
        (ref / "examples/workload/microbenchmarks/all_reduce/8npus_1MB/all_reduce").string();
    in.systemFile = (ref / "tests/rt_template/inputs/system_cfg.json").string();
    in.networkFile = (ref / "tests/rt_template/inputs/network_cfg.yml").string();
    in.remoteMemoryFile = (ref / "tests/rt_template/inputs/remote_memory_cfg.json").string();
    return in;
}

} // namespace

TEST(AstraInputs, RegressionCaseBecomesOneSpec) {
    ASTROLABE_REQUIRE_SHARED();
    AstraInputs in = regressionInputs();
    in.numQueuesPerDim = 2;
    in.injectionScale = 2.5;
    in.rendezvousProtocol = true;
    in.backend = NetworkBackend::CongestionAware;
    std::vector<std::string> warnings;
    const SimulationSpec spec = loadAstraInputs(in, &warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(spec.name, "all_reduce");
    EXPECT_EQ(spec.workload.kind, WorkloadSource::Kind::ChakraTrace);
    EXPECT_EQ(spec.workload.tracePrefix, in.workloadPrefix);
    ASSERT_EQ(spec.platform.dimensions.size(), 1u);
    EXPECT_EQ(spec.platform.npuCount(), 8);
    EXPECT_EQ(spec.platform.dimensions[0].bandwidthBytesPerSecond, 50.0 * 1073741824.0);
    EXPECT_EQ(spec.system.preferredDatasetSplits, 4);
    EXPECT_EQ(spec.system.endpointDelayNs, 25); // int(10 * 2.5)
    EXPECT_EQ(spec.memory.type, RemoteMemoryType::NoMemoryExpansion);
    EXPECT_TRUE(spec.commGroups.empty());
    EXPECT_EQ(spec.options.numQueuesPerDim, 2);
    EXPECT_EQ(spec.options.injectionScale, 2.5);
    EXPECT_TRUE(spec.options.rendezvousProtocol);
    EXPECT_EQ(spec.options.backend, NetworkBackend::CongestionAware);
}

TEST(AstraInputs, ErrorsOfEveryFileAndAcrossFilesComeTogether) {
    ASTROLABE_REQUIRE_SHARED();
    TempDir dir;
    AstraInputs in = regressionInputs();
    // 16 NPUs but the trace set has 8; system lists 3 algorithms for a 2-D network; a bad group.
    in.networkFile = dir.write("net.yml", "topology: [Ring, Ring]\nnpus_count: [4, 4]\n"
                                          "bandwidth: [50, 50]\nlatency: [500, 500]\n");
    in.systemFile = dir.write("sys.json", R"({"scheduling-policy": "LIFO",
        "preferred-dataset-splits": 4, "all-reduce-implementation": ["ring", "ring", "ring"]})");
    in.commGroupFile = dir.write("groups.json", R"({"1": [0, 16]})");
    const std::string text = errorText([&] { loadAstraInputs(in); });
    EXPECT_THAT(text, HasSubstr("sys.json: all-reduce-implementation: expected at most 2 "
                                "algorithms (one per network dimension), found 3"));
    EXPECT_THAT(text, HasSubstr("groups.json: 1[1]: expected a rank below 16"));
    EXPECT_THAT(text, HasSubstr("--workload-configuration: expected one trace per NPU (16 files "
                                "<prefix>.<npu>.et), missing "));
    EXPECT_THAT(text, HasSubstr("all_reduce.8.et"));
    EXPECT_THAT(text, HasSubstr("and 5 more"));

    AstraInputs broken = regressionInputs();
    broken.systemFile = dir.write("bad.json", R"({"scheduling-policy": "LIFO"})");
    broken.networkFile = dir.write("bad.yml", "topology: [Ring]\n");
    broken.numQueuesPerDim = 0;
    const std::string both = errorText([&] { loadAstraInputs(broken); });
    EXPECT_THAT(both, HasSubstr("bad.json: preferred-dataset-splits: required key is missing"));
    EXPECT_THAT(both, HasSubstr("bad.yml: npus_count: required key is missing"));
    EXPECT_THAT(both, HasSubstr("--num-queues-per-dim: expected 1 or more queues, found 0"));
}

TEST(AstraInputs, SizesBeyondTheLimitsAreRefusedNamingFileAndKey) {
    ASTROLABE_REQUIRE_SHARED();
    TempDir dir;
    AstraInputs in = regressionInputs();
    in.networkFile = dir.write("net.yml", "topology: [Switch, Switch, Switch, Switch]\n"
                                          "npus_count: [65536, 65536, 65536, 65536]\n"
                                          "bandwidth: [50, 50, 50, 50]\n"
                                          "latency: [500, 500, 500, 500]\n");
    in.systemFile = dir.write("sys.json", R"({"scheduling-policy": "LIFO",
        "preferred-dataset-splits": 1000000000, "all-reduce-implementation": ["ring"]})");
    in.numQueuesPerDim = 1000000000;
    const std::string text = errorText([&] { loadAstraInputs(in); });
    EXPECT_THAT(text, HasSubstr("net.yml: npus_count: expected at most 1048576 NPUs, found the "
                                "dimensions 65536 x 65536 x 65536 x 65536"));
    EXPECT_THAT(text, HasSubstr("sys.json: preferred-dataset-splits: expected at most 16384 "
                                "chunks per collective, found 1000000000"));
    EXPECT_THAT(text, HasSubstr("--num-queues-per-dim: expected at most 1024 queues per "
                                "dimension, found 1000000000"));
    EXPECT_THAT(text, Not(HasSubstr("trace per NPU"))); // no walk over 2^64 NPUs
}
