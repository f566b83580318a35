// astrolabe-cli synthesize (docs/tacos.md): a schedule for the bundled DGX-1 graph, its three
// exports, the run beside the built-in algorithms, and usage and input errors with exit codes.
#include "CliRunner.h"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fs = std::filesystem;
using clitest::cli;
using ::testing::HasSubstr;

namespace {

fs::path scratch() {
    return clitest::scratchDir("synth-cli");
}

const std::string kDgx1 = std::string(ASTROLABE_SOURCE_DIR) + "/projects/graph-dgx1/project.yaml";

} // namespace

TEST(SynthesizeCommand, Dgx1ExportsAndCompare) {
    const fs::path dir = scratch();
    auto r = cli({"synthesize", kDgx1, "--size", "16MiB", "--chunks", "2", "--xml",
                  (dir / "a.xml").string(), "--et", (dir / "a").string(), "--schedule",
                  (dir / "a.csv").string(), "--table", "--compare"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out,
                HasSubstr("TACOS all-reduce, 16 MiB on 8 NPUs (32 links), 2 chunks per NPU"));
    EXPECT_THAT(r.out, HasSubstr("speedup over the best built-in"));
    EXPECT_THAT(r.out, HasSubstr("0->1"));
    EXPECT_TRUE(fs::exists(dir / "a.xml"));
    EXPECT_TRUE(fs::exists(dir / "a.7.et"));
    std::ifstream csv(dir / "a.csv");
    std::string header;
    std::getline(csv, header);
    EXPECT_EQ(header, "phase,step,start_ns,end_ns,link,src,dst,chunk");
    fs::remove_all(dir);
}

TEST(SynthesizeCommand, BadFlagsAreUsageErrors) {
    auto r = cli({"synthesize", kDgx1, "--chunks", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("--chunks"));
    r = cli({"synthesize", kDgx1, "--collective", "all-to-all"});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("expected all-gather, reduce-scatter or all-reduce"));
    r = cli({"synthesize", kDgx1, "--size", "4B", "--chunks", "1"});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("chunks of 0 B"));
}
