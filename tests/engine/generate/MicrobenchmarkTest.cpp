#include "TestPaths.h"
#include "core/Error.h"
#include "engine/trace/ChakraTestUtil.h"
#include "generate/MicrobenchmarkGenerator.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace astrolabe;
namespace fs = std::filesystem;

TEST(Microbenchmark, ByteIdenticalToAstraSimExamples) {
    const fs::path root =
        fs::path(ASTROLABE_SHARED_DIR) / "reference/astra-sim/examples/workload/microbenchmarks";
    if (!fs::is_directory(root))
        GTEST_SKIP() << "no reference microbenchmarks under " << root;
    test::TempDir tmp;
    int compared = 0;
    for (const char* collective : {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"})
        for (int npus : {4, 8, 16}) {
            const std::string prefix = tmp.path(std::string(collective) + std::to_string(npus));
            const auto files = generateMicrobenchmark(parseMicrobenchmarkCollective(collective),
                                                      npus, 1048576, {}, prefix);
            ASSERT_EQ(int(files.size()), npus);
            for (int rank = 0; rank < npus; ++rank) {
                const fs::path reference =
                    root / collective / (std::to_string(npus) + "npus_1MB") /
                    (std::string(collective) + "." + std::to_string(rank) + ".et");
                EXPECT_EQ(test::readText(files[rank]), test::readText(reference.string()))
                    << reference;
                ++compared;
            }
        }
    EXPECT_EQ(compared, 4 * (4 + 8 + 16));
}

TEST(Microbenchmark, LabelsAndNames) {
    EXPECT_EQ(microbenchmarkLabel(CollectiveType::AllReduce, 8, 1048576), "all_reduce_8npus_1MB");
    EXPECT_EQ(microbenchmarkLabel(CollectiveType::AllToAll, 2, 64 << 20), "all_to_all_2npus_64MB");
    EXPECT_EQ(microbenchmarkLabel(CollectiveType::AllGather, 4, 4096), "all_gather_4npus_4KB");
    EXPECT_EQ(microbenchmarkLabel(CollectiveType::ReduceScatter, 4, 1000),
              "reduce_scatter_4npus_1000B");
    EXPECT_EQ(parseMicrobenchmarkCollective("reduce_scatter"), CollectiveType::ReduceScatter);
    try {
        parseMicrobenchmarkCollective("all_reduse");
        FAIL() << "no exception";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("did you mean \"all_reduce\""), std::string::npos)
            << e.what();
    }
}

TEST(Microbenchmark, CommGroupsGiveOneNodePerGroupChained) {
    const std::vector<CommGroup> groups{{1, {0, 1}}, {2, {2, 3}}, {3, {0, 2}}};
    const auto traces = makeMicrobenchmark(CollectiveType::AllGather, 4, 2048, groups);
    ASSERT_EQ(traces.size(), 4u);
    ASSERT_EQ(traces[0].nodes.size(), 2u); // groups 1 and 3
    EXPECT_EQ(traces[0].nodes[0].pgName, "1");
    EXPECT_EQ(traces[0].nodes[1].pgName, "3");
    EXPECT_EQ(traces[0].nodes[1].id, 4u); // rank + npus
    EXPECT_EQ(traces[0].nodes[1].dataDeps, std::vector<uint64_t>{0});
    ASSERT_EQ(traces[1].nodes.size(), 1u);
    EXPECT_EQ(traces[1].nodes[0].id, 1u);
    EXPECT_EQ(traces[3].nodes[0].pgName, "2");
    EXPECT_THROW(makeMicrobenchmark(CollectiveType::AllGather, 5, 2048, groups), Error);
    EXPECT_THROW(makeMicrobenchmark(CollectiveType::AllGather, 4, 2048, {{0, {0, 1, 2, 3}}}),
                 Error);
    EXPECT_THROW(makeMicrobenchmark(CollectiveType::AllGather, 4, 2048, {{1, {0, 1, 2, 7}}}),
                 Error);
}

// A microbenchmark's NPU count is bounded like a platform's: refused with the limit in the
// message before one trace per NPU is allocated (it used to end in std::bad_alloc).
TEST(Microbenchmark, NpuCountsBeyondTheLimitAreRefused) {
    for (int npus : {(1 << 20) + 1, 100000000, 2147483647}) {
        try {
            (void)makeMicrobenchmark(CollectiveType::AllReduce, npus, 2048, {});
            ADD_FAILURE() << npus << " NPUs were accepted";
        } catch (const Error& e) {
            std::string expected = "expected at most 1048576 NPUs, found ";
            expected += std::to_string(npus);
            EXPECT_EQ(e.message(), expected);
            EXPECT_NE(e.hint().find("docs/limits.md"), std::string::npos);
        }
    }
}

TEST(Microbenchmark, GeneratedWorkloadLoadsAndValidates) {
    test::TempDir tmp;
    generateMicrobenchmark(CollectiveType::AllToAll, 6, 3 << 20, {}, tmp.path("a2a"));
    LoadOptions options;
    options.dimensionSizes = {2, 3};
    const auto traces = loadWorkload(tmp.path("a2a"), 6, options);
    ASSERT_EQ(traces.size(), 6u);
    EXPECT_EQ(traces[5].nodes.at(0).commSize, uint64_t(3) << 20);
    EXPECT_EQ(traces[5].nodes.at(0).commType, CollectiveType::AllToAll);
}
