#include "TestPaths.h"
#include "cli/CliRunner.h"
#include "cli/Commands.h"
#include "support/TempDir.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using astrolabe::cli::runCli;
namespace fs = std::filesystem;

namespace {

using clitest::cli;
using clitest::Result;

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

using astrolabe::test::TempDir;

} // namespace

TEST(CliGenerate, MicrobenchmarkMatchesAstraSimExample) {
    TempDir tmp;
    const std::string prefix = (tmp.dir() / "ag").string();
    const Result r = cli({"generate", "microbenchmark", "--collective", "all_gather", "--npus", "8",
                          "--size", "1MiB", "--out", prefix});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("wrote 8 traces"), std::string::npos) << r.out;
    const fs::path reference = fs::path(ASTROLABE_SHARED_DIR) /
                               "reference/astra-sim/examples/workload/microbenchmarks/all_gather/"
                               "8npus_1MB/all_gather.5.et";
    if (!fs::exists(reference))
        GTEST_SKIP() << "no reference microbenchmarks under " << reference.parent_path();
    EXPECT_EQ(slurp(prefix + ".5.et"), slurp(reference));
}

TEST(CliGenerate, CommGroupFileAndTraceDump) {
    TempDir tmp;
    std::ofstream(tmp.dir() / "groups.json") << R"({"1": [0, 1], "2": [2, 3]})";
    const std::string prefix = (tmp.dir() / "rs").string();
    const Result r = cli({"generate", "microbenchmark", "--collective=reduce_scatter", "--npus=4",
                          "--size=64 KiB", "--comm-group=" + (tmp.dir() / "groups.json").string(),
                          "--out", prefix});
    ASSERT_EQ(r.code, 0) << r.err;
    const Result dump = cli({"trace", "dump", prefix + ".3.et"});
    ASSERT_EQ(dump.code, 0) << dump.err;
    EXPECT_NE(dump.out.find("node 3  COMM_COLL_NODE  \"reduce_scatter_4npus_64KB\""),
              std::string::npos)
        << dump.out;
    EXPECT_NE(dump.out.find("pg_name: string_val: \"2\""), std::string::npos) << dump.out;
    EXPECT_NE(dump.out.find("comm_size: int64_val: 65536"), std::string::npos) << dump.out;
    const Result check = cli({"trace", "check", prefix, "--npus", "4"});
    EXPECT_EQ(check.code, 0) << check.err;
    EXPECT_NE(check.out.find("4 traces, 4 nodes, valid"), std::string::npos) << check.out;
}

TEST(CliGenerate, UsageAndInputErrors) {
    TempDir tmp;
    const std::string prefix = (tmp.dir() / "x").string();
    EXPECT_EQ(cli({"generate", "microbenchmark", "--collective", "all_reduse", "--npus", "4",
                   "--out", prefix})
                  .code,
              1);
    EXPECT_EQ(cli({"generate", "microbenchmark", "--collective", "all_reduce", "--npus", "0",
                   "--out", prefix})
                  .code,
              2);
    EXPECT_EQ(cli({"generate", "sundial", "--out", prefix}).code, 2);
    const Result size = cli({"generate", "microbenchmark", "--collective", "all_reduce", "--npus",
                             "2", "--size", "12 parsecs", "--out", prefix});
    EXPECT_EQ(size.code, 1);
    EXPECT_NE(size.err.find("12 parsecs"), std::string::npos) << size.err;
    const Result missing = cli({"trace", "check", prefix, "--npus", "2"});
    EXPECT_EQ(missing.code, 1);
    EXPECT_NE(missing.err.find("workload file does not exist"), std::string::npos) << missing.err;
}
