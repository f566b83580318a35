#include "cli/CliRunner.h"
#include "cli/Commands.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using astrolabe::cli::runCli;

namespace {

using clitest::cli;
using clitest::Result;

} // namespace

TEST(Cli, VersionPrintsTheEngineVersion) {
    const Result r = cli({"version"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.rfind("astrolabe ", 0), 0u);
}

TEST(Cli, EveryCommandHasHelp) {
    for (const char* command : {"version", "run", "astra", "generate", "trace"}) {
        const Result r = cli({command, "--help"});
        EXPECT_EQ(r.code, 0) << command;
        EXPECT_NE(r.out.find(std::string("usage: astrolabe-cli ") + command), std::string::npos);
    }
    EXPECT_NE(cli({"--help"}).out.find("commands:"), std::string::npos);
}

TEST(Cli, AstraHelpListsAstraSimFlagsAsSpelled) {
    const Result r = cli({"astra", "--help"});
    for (const char* flag :
         {"--workload-configuration", "--system-configuration", "--network-configuration",
          "--remote-memory-configuration", "--comm-group-configuration", "--num-queues-per-dim",
          "--injection-scale", "--rendezvous-protocol", "--logging-folder", "--network-backend"})
        EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST(Cli, UnknownFlagIsAOneLineErrorWithExitCode2) {
    const Result r = cli({"astra", "--netwrok-configuration=x.yml"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown option --netwrok-configuration"), std::string::npos);
    EXPECT_NE(r.err.find("did you mean --network-configuration"), std::string::npos);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST(Cli, MissingFileIsExitCode2) {
    const Result r = cli({"astra", "--system-configuration=/nonexistent/sys.json"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("/nonexistent/sys.json"), std::string::npos);
    EXPECT_EQ(cli({"run", "/nonexistent/project.yaml"}).code, 2);
}

TEST(Cli, UnknownCommandSuggestsTheClosestOne) {
    const Result r = cli({"verison"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("did you mean \"version\""), std::string::npos);
}

namespace {

std::string reference(const std::string& relative) {
    return std::string(ASTROLABE_SHARED_DIR) + "/reference/astra-sim/" + relative;
}

std::vector<std::string> regressionFlags() {
    return {"astra",
            "--workload-configuration=" +
                reference("examples/workload/microbenchmarks/all_reduce/8npus_1MB/all_reduce"),
            "--system-configuration=" + reference("tests/rt_template/inputs/system_cfg.json"),
            "--network-configuration=" + reference("tests/rt_template/inputs/network_cfg.yml"),
            "--remote-memory-configuration=" +
                reference("tests/rt_template/inputs/remote_memory_cfg.json")};
}

bool haveReference() {
    return std::ifstream(reference("tests/rt_template/inputs/system_cfg.json")).good();
}

} // namespace

TEST(Cli, AstraLoadsAndValidatesTheRegressionInputs) {
    if (!haveReference())
        GTEST_SKIP() << "ASTRA-sim reference inputs not found under " << ASTROLABE_SHARED_DIR;
    std::vector<std::string> args = regressionFlags();
    args.push_back("--num-queues-per-dim=2");
    args.push_back("--injection-scale=1.5");
    args.push_back("--rendezvous-protocol=true");
    const Result r = cli(args);
    EXPECT_EQ(r.code, 0) << r.err;
    size_t finished = 0;
    for (size_t at = r.out.find("finished, "); at != std::string::npos;
         at = r.out.find("finished, ", at + 1))
        ++finished;
    EXPECT_EQ(finished, 8u) << "every NPU of the 8-NPU regression case reports\n" << r.out;
    EXPECT_EQ(r.err, "");
}

TEST(Cli, AstraReportsEveryConfigurationErrorWithExitCode1) {
    if (!haveReference())
        GTEST_SKIP() << "ASTRA-sim reference inputs not found under " << ASTROLABE_SHARED_DIR;
    const std::string dir = ::testing::TempDir();
    const std::string system = dir + "/astrolabe-cli-bad-system.json";
    std::ofstream(system) << "{\n  \"scheduling-policy\": \"LIFO\",\n  \"boost-mode\": 1\n}\n";
    std::vector<std::string> args = regressionFlags();
    args[2] = "--system-configuration=" + system;
    const Result r = cli(args);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("astrolabe-cli: error: " + system +
                         ": preferred-dataset-splits: required key is missing"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, "");

    args = regressionFlags();
    args.push_back("--num-queues-per-dim=two");
    EXPECT_EQ(cli(args).code, 2);
}
