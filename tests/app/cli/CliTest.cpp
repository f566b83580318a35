#include "TestPaths.h"
#include "cli/CliRunner.h"
#include "cli/Commands.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>

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

TEST(Cli, AnEmptyOptionValueIsRefusedNotTakenAsTheDefault) {
    // "--backend=" ran with the project's backend and "--json=" wrote nothing, both with exit 0.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", "p.yaml", "--backend="},
          {"run", "p.yaml", "--json="},
          {"run", "p.yaml", "--db", ""},
          {"runs", "export", "1", "--budget-mb="},
          {"astra", "--num-queues-per-dim="}}) {
        SCOPED_TRACE(args[0] + " " + args.back());
        const Result r = cli(args);
        EXPECT_EQ(r.code, 2);
        EXPECT_NE(r.err.find("found an empty one"), std::string::npos) << r.err;
    }
    // Free text and lists may be emptied: clearing a run's notes or tags.
    const Result notes = cli({"runs", "notes", "1", "--notes=", "--db=/nonexistent/x.db"});
    EXPECT_EQ(notes.err.find("found an empty one"), std::string::npos) << notes.err;
    const Result tags = cli({"runs", "tag", "1", "--tags=", "--db=/nonexistent/x.db"});
    EXPECT_EQ(tags.err.find("found an empty one"), std::string::npos) << tags.err;
}

TEST(Cli, TraceCheckRefusesNpuCountsBeyondTheLimitBeforeLookingForFiles) {
    // --dims=65536,65536 wrapped to "a workload for 0 NPUs"; --npus=2000000000 looked for two
    // billion files.
    Result r = cli({"trace", "check", "/nonexistent/t", "--dims=65536,65536"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--dims: expected at most 1048576 NPUs in all"), std::string::npos)
        << r.err;
    r = cli({"trace", "check", "/nonexistent/t", "--npus=2000000000"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--npus: expected a whole number from 1 to 1048576"), std::string::npos)
        << r.err;
    r = cli({"trace", "check", "/nonexistent/t", "--dims=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,1"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("expected at most 16 dimensions, got 17"), std::string::npos) << r.err;
    r = cli({"trace", "check", "/nonexistent/t", "--dims=1024,1024"}); // at the limit: files
    EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
}

TEST(Cli, MissingFileIsExitCode2) {
    const Result r = cli({"astra", "--system-configuration=/nonexistent/sys.json"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("/nonexistent/sys.json"), std::string::npos);
    EXPECT_EQ(cli({"run", "/nonexistent/project.yaml"}).code, 2);
}

TEST(Cli, AFileArgumentIsNamedAsTypedAndAFolderIsCalledOne) {
    const std::string folder = ::testing::TempDir();
    // A positional argument is named by its role, not as an option nobody typed.
    Result r = cli({"run", "/nonexistent/project.yaml"});
    EXPECT_NE(r.err.find("project file not found: /nonexistent/project.yaml"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("--project"), std::string::npos) << r.err;
    r = cli({"calibrate", "nccl-tests", "/nonexistent/a100.txt", "--project", "/nonexistent/p"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--project: file not found"), std::string::npos) << r.err;
    // A folder exists: "not found" would send the user looking for it.
    r = cli({"run", folder});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("is a folder; expected a file"), std::string::npos) << r.err;
    r = cli({"import", "pytorch", "--et", folder, "--kineto", folder, "--out", folder + "/t"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--et: " + folder), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("----"), std::string::npos) << r.err;
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
    const std::string system = (clitest::scratchDir("cli-bad-system") / "system.json").string();
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

// track-local-mem: the peak line per NPU after its statistics, and one memory trace per NPU at
// local-mem-trace-filename.<rank>.json (this microbenchmark lists no tensors: 0 bytes throughout).
TEST(Cli, AstraTracksLocalMemoryWhenAsked) {
    if (!haveReference())
        GTEST_SKIP() << "ASTRA-sim reference inputs not found under " << ASTROLABE_SHARED_DIR;
    const std::string dir =
        (std::filesystem::path(::testing::TempDir()) / "astrolabe-cli-local-mem")
            .lexically_normal()
            .string();
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string system = dir + "/system.json";
    std::ofstream(system) << "{\n  \"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 10,\n"
                             "  \"preferred-dataset-splits\": 4, \"local-mem-bw\": 50,\n"
                             "  \"all-reduce-implementation\": [\"ring\"],\n"
                             "  \"track-local-mem\": 1,\n"
                             "  \"local-mem-trace-filename\": \""
                          << dir << "/mem/trace\"\n}\n";
    std::vector<std::string> args = regressionFlags();
    args[2] = "--system-configuration=" + system;
    std::string logFolder = "--logging-folder=";
    logFolder += dir;
    logFolder += "/log";
    args.push_back(logFolder);
    const Result r = cli(args);
    ASSERT_EQ(r.code, 0) << r.err;
    for (int npu = 0; npu < 8; ++npu) {
        std::string line = "[workload] [info] sys[";
        line += std::to_string(npu);
        line += "] peak memory usage: 0.00 B";
        EXPECT_NE(r.out.find(line), std::string::npos) << r.out;
        std::string file = dir;
        file += "/mem/trace.";
        file += std::to_string(npu);
        file += ".json";
        std::ifstream in(file);
        ASSERT_TRUE(in.good()) << file;
        const auto trace = nlohmann::json::parse(in);
        EXPECT_TRUE(trace.at("traceEvents").is_array());
    }
    std::string where = "local memory traces: ";
    where += dir;
    where += "/mem/trace.0.json";
    EXPECT_NE(r.err.find(where), std::string::npos) << r.err;
    std::filesystem::remove_all(dir);
}

// One convention for every size and bandwidth in the report: the quick start's 50 GiB/s ring
// reads as entered by default, in GB/s with --units=decimal, and counts agree with their nouns.
TEST(Cli, UnitsOptionChangesEverySizeAndBandwidthInTheReport) {
    const std::string project = ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml";
    const Result asEntered = cli({"run", project, "--no-store"});
    ASSERT_EQ(asEntered.code, 0) << asEntered.err;
    // 16 links of 50 GiB/s; the achieved figure in the peak's family (14 MiB in 117.78 us).
    EXPECT_NE(asEntered.out.find("Ring(8, 50 GiB/s, 500 ns)"), std::string::npos) << asEntered.out;
    EXPECT_NE(asEntered.out.find("116.08 GiB/s achieved of 800 GiB/s peak"), std::string::npos)
        << asEntered.out;
    EXPECT_NE(asEntered.out.find("8 NPUs on"), std::string::npos) << asEntered.out;
    const Result decimal = cli({"--units=decimal", "run", project, "--no-store"});
    ASSERT_EQ(decimal.code, 0) << decimal.err;
    EXPECT_NE(decimal.out.find("Ring(8, 53.6871 GB/s, 500 ns)"), std::string::npos) << decimal.out;
    EXPECT_NE(decimal.out.find("124.64 GB/s achieved of 858.993 GB/s peak"), std::string::npos)
        << decimal.out;
    EXPECT_EQ(decimal.out.find("GiB"), std::string::npos) << decimal.out;
    const Result binary = cli({"run", project, "--no-store", "--units", "binary"});
    ASSERT_EQ(binary.code, 0) << binary.err;
    EXPECT_EQ(binary.out.find(" GB"), std::string::npos) << binary.out;
    const Result bad = cli({"run", project, "--units=metric"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--units: expected as-entered, decimal or binary, found \"metric\""),
              std::string::npos)
        << bad.err;
    // The next command starts from the default again.
    EXPECT_NE(cli({"run", project, "--no-store"}).out.find("800 GiB/s peak"), std::string::npos);
}

// The congestion-unaware model lets concurrent chunks each use a link at full bandwidth, so the
// HGX-H100 example (2 chunks in flight on an NVSwitch) shows links busy longer than the run. The
// report says so and why; the same project congestion-aware shares links and stays within 100%,
// as does every example project.
TEST(Cli, OversubscribedLinksAreExplainedAndCongestionAwareStaysWithinTheRun) {
    // The wizard's HGX-H100: the example project with a 64 MiB all-reduce.
    std::ifstream in(ASTROLABE_SOURCE_DIR + "/projects/hgx-h100/project.yaml");
    std::string yaml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t size = yaml.find("size: 1 MiB");
    ASSERT_NE(size, std::string::npos);
    yaml.replace(size, 11, "size: 64 MiB");
    const std::string hgx = ::testing::TempDir() + "hgx-64mib.yaml";
    std::ofstream(hgx) << yaml;
    const Result unaware = cli({"run", hgx, "--no-store"});
    ASSERT_EQ(unaware.code, 0) << unaware.err;
    EXPECT_NE(unaware.out.find("links busy 126.7% of the run"), std::string::npos) << unaware.out;
    EXPECT_NE(unaware.out.find("note         16 links busy longer than the run (up to 126.7%): "
                               "the congestion-unaware model"),
              std::string::npos)
        << unaware.out;
    EXPECT_NE(unaware.out.find("--backend=congestion-aware"), std::string::npos);
    for (const std::string& project :
         {hgx, std::string(ASTROLABE_SOURCE_DIR + "/projects/hgx-h100/project.yaml"),
          std::string(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml"),
          std::string(ASTROLABE_SOURCE_DIR + "/projects/torus-2d/project.yaml")}) {
        const std::string& name = project;
        const Result aware = cli({"run", project, "--no-store", "--backend=congestion-aware"});
        ASSERT_EQ(aware.code, 0) << name << ": " << aware.err;
        EXPECT_NE(aware.out.find("analytical-congestion-aware"), std::string::npos) << aware.out;
        EXPECT_EQ(aware.out.find("busy longer than the run"), std::string::npos) << aware.out;
        // Every "links busy N% of the run" is at most 100%.
        for (size_t at = aware.out.find("links busy "); at != std::string::npos;
             at = aware.out.find("links busy ", at + 1))
            EXPECT_LE(std::stod(aware.out.substr(at + 11)), 100.0) << name << ": " << aware.out;
    }
    const Result bad = cli({"run", hgx, "--no-store", "--backend=garnet"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--backend: "), std::string::npos) << bad.err;
}

// Every run summary says what bounds the run (analysis/RunExplanation.h, whose tests check the
// numbers) and the critical path's breakdown behind it.
TEST(Cli, RunSummarySaysWhatBoundsTheRun) {
    const Result r =
        cli({"run", ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml", "--no-store"});
    ASSERT_EQ(r.code, 0) << r.err;
    const size_t bound = r.out.find("\n  bound        ");
    ASSERT_NE(bound, std::string::npos) << r.out;
    EXPECT_NE(r.out.find("-bound", bound), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("would save ", bound), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("critical path on NPU", bound), std::string::npos) << r.out;
}

// A project that leaves local-memory-bandwidth at its default (0) cannot reduce: the run stops
// with the project file and its key named, and a failed run is stored, not a half-written one.
TEST(Cli, AReductionWithoutLocalMemoryBandwidthNamesTheProjectAndItsKey) {
    const auto dir = clitest::scratchDir("no-local-mem");
    std::ifstream in(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml");
    std::ofstream project(dir / "project.yaml");
    for (std::string line; std::getline(in, line);)
        if (line.find("local-memory-bandwidth") == std::string::npos)
            project << line << "\n";
    project.close();
    const Result r = cli({"run", (dir / "project.yaml").string(), "--no-store"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find((dir / "project.yaml").string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("system.local-memory-bandwidth"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("local-mem-bw"), std::string::npos) << "ASTRA-sim's name, not ours";
    std::filesystem::remove_all(dir);
}

// Out of memory is said as such, with what makes a run smaller, not "internal error:
// std::bad_alloc". The address space is capped in a child so that the test process is not.
TEST(Cli, OutOfMemoryIsSaidWithWhatMakesTheRunSmaller) {
    const auto dir = clitest::scratchDir("out-of-memory");
    std::ofstream(dir / "big.yaml")
        << "name: big\nplatform:\n  dimensions: [{type: Ring, size: 256, bandwidth: 50 GB/s, "
           "latency: 500 ns}, {type: Ring, size: 256, bandwidth: 50 GB/s, latency: 500 ns}]\n"
           "system: {algorithms: [ring, ring], chunks: 16384, local-memory-bandwidth: 50 GB/s}\n"
           "workload: {microbenchmark: {collective: all-gather, size: 1 MiB}}\n";
    const std::string command = "ulimit -v 1500000; '" + ASTROLABE_CLI + "' run '" +
                                (dir / "big.yaml").string() + "' --no-store > '" +
                                (dir / "err.txt").string() + "' 2>&1";
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
    std::ifstream in(dir / "err.txt");
    const std::string err((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(err.find("run: out of memory"), std::string::npos) << err;
    EXPECT_EQ(err.find("internal error"), std::string::npos) << err;
    std::filesystem::remove_all(dir);
}
