#include "astra/AstraMemoryConfig.h"

#include "ConfigTestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using astrolabe::configtest::errorText;
using astrolabe::test::TempDir;
using ::testing::HasSubstr;

TEST(AstraRemoteMemoryJson, ReadsEveryType) {
    const RemoteMemoryConfig none =
        parseAstraRemoteMemoryJson(R"({"memory-type": "NO_MEMORY_EXPANSION"})", "m.json");
    EXPECT_EQ(none.type, RemoteMemoryType::NoMemoryExpansion);
    EXPECT_EQ(none.bandwidthBytesPerNs, 0u);

    // remote-mem-bw is bytes/ns in an integer upstream: 50.9 truncates to 50.
    const RemoteMemoryConfig pool = parseAstraRemoteMemoryJson(
        R"({"memory-type": "MEMORY_POOL", "remote-mem-latency": 500, "remote-mem-bw": 50.9})",
        "m.json");
    EXPECT_EQ(pool.type, RemoteMemoryType::MemoryPool);
    EXPECT_EQ(pool.latencyNs, 500u);
    EXPECT_EQ(pool.bandwidthBytesPerNs, 50u);

    const RemoteMemoryConfig node = parseAstraRemoteMemoryJson(
        R"({"memory-type": "PER_NODE_MEMORY_EXPANSION", "remote-mem-bw": 8, "num-nodes": 2,
            "num-npus-per-node": 4})",
        "m.json");
    EXPECT_EQ(node.type, RemoteMemoryType::PerNodeMemoryExpansion);
    EXPECT_EQ(node.numNodes, 2);
    EXPECT_EQ(node.numNpusPerNode, 4);

    const std::string perNode = errorText([] {
        parseAstraRemoteMemoryJson(R"({"memory-type": "PER_NODE_MEMORY_EXPANSION",
                                       "remote-mem-bw": 8})",
                                   "m.json");
    });
    EXPECT_THAT(perNode, HasSubstr("m.json: num-nodes: expected 1 or more nodes"));
    EXPECT_THAT(perNode, HasSubstr("m.json: num-npus-per-node: expected 1 or more NPUs"));
    EXPECT_THAT(errorText([] { parseAstraRemoteMemoryJson("{}", "m.json"); }),
                HasSubstr("m.json: memory-type: required key is missing"));
}

TEST(AstraRemoteMemoryJson, ReferenceFilesLoad) {
    ASTROLABE_REQUIRE_SHARED();
    for (const char* file : {"astra-sim/examples/remote_memory/analytical/no_memory_expansion.json",
                             "astra-sim/tests/rt_template/inputs/remote_memory_cfg.json"}) {
        const RemoteMemoryConfig m =
            loadAstraRemoteMemoryJson((configtest::sharedReference() / file).string());
        EXPECT_EQ(m.type, RemoteMemoryType::NoMemoryExpansion) << file;
    }
}

TEST(CommGroupsJson, KeepsTheListedOrder) {
    const CommGroups groups = parseCommGroupsJson(R"({"1": [3, 1, 2, 0], "2": [4, 5]})", "g.json");
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups.at(1), (std::vector<int>{3, 1, 2, 0})); // ring order = listed order
    EXPECT_EQ(groups.at(2), (std::vector<int>{4, 5}));
    EXPECT_NO_THROW(validateCommGroups(groups, 6));
    EXPECT_THAT(errorText([&] { validateCommGroups(groups, 5, "g.json"); }),
                HasSubstr("g.json: 2[1]: expected a rank below 5 (the platform's NPU count), "
                          "found 5"));
}

TEST(CommGroupsJson, TheEmptyDefaultMeansNoFile) {
    // ASTRA-sim skips loading when the path merely contains "empty" (the flag's default).
    EXPECT_TRUE(loadCommGroupsJson("empty").empty());
    EXPECT_TRUE(loadCommGroupsJson("").empty());
    EXPECT_TRUE(loadCommGroupsJson("/no/such/empty_groups.json").empty());
    TempDir dir;
    const std::string file = dir.write("groups.json", R"({"7": [0, 1]})");
    EXPECT_EQ(loadCommGroupsJson(file).at(7), (std::vector<int>{0, 1}));
    EXPECT_THAT(errorText([] { loadCommGroupsJson("/no/such/groups.json"); }),
                HasSubstr("/no/such/groups.json: cannot open"));
}
