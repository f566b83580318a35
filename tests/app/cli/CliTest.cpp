#include "cli/Commands.h"

#include <gtest/gtest.h>

#include <sstream>

using astrolabe::cli::runCli;

namespace {

struct Result {
    int code;
    std::string out;
    std::string err;
};

Result cli(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int code = runCli(args, out, err);
    return {code, out.str(), err.str()};
}

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
    for (const char* flag : {"--workload-configuration", "--system-configuration",
                             "--network-configuration", "--remote-memory-configuration",
                             "--comm-group-configuration", "--num-queues-per-dim",
                             "--injection-scale", "--rendezvous-protocol", "--logging-folder",
                             "--network-backend"})
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
