// astrolabe-cli synthesize (docs/tacos.md): a schedule for the bundled DGX-1 graph, its three
// exports, the run beside the built-in algorithms, the same on a star of NPUs under one switch
// (links through the switch), its progress, and usage and input errors with exit codes.
#include "CliRunner.h"
#include "TestPaths.h"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iterator>

namespace fs = std::filesystem;
using clitest::cli;
using ::testing::HasSubstr;
using ::testing::Not;

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

// A synthesis of many chunks takes minutes: --progress shows how far it is, and the schedule is
// the same with it as without.
TEST(SynthesizeCommand, ProgressShowsHowFarALongSynthesisIsAndChangesNothing) {
    const std::vector<std::string> args{"synthesize", kDgx1, "--size", "64MiB", "--chunks", "256"};
    std::vector<std::string> shown = args;
    shown.insert(shown.end(), {"--progress", "always"});
    const auto quiet = cli(args);
    const auto loud = cli(shown);
    ASSERT_EQ(quiet.code, 0) << quiet.err;
    ASSERT_EQ(loud.code, 0) << loud.err;
    EXPECT_THAT(loud.err, HasSubstr("astrolabe-cli: synthesizing: "));
    EXPECT_THAT(loud.err, HasSubstr(" % of 28672 chunk sends, ")); // 8 x 7 x 256, twice
    EXPECT_EQ(quiet.err, "");
    // The report, but for the time it took.
    const auto withoutTime = [](std::string text) {
        const size_t at = text.find("synthesized in ");
        return text.erase(at, text.find(':', at) - at);
    };
    EXPECT_EQ(withoutTime(loud.out), withoutTime(quiet.out));
}

TEST(SynthesizeCommand, StarUnderOneSwitchExportsAndRunsInTheEngine) {
    // fred [8, 1]: 8 NPUs under one switch. Every pair of NPUs gets a link through it (56).
    const fs::path dir = scratch();
    std::string yaml = "name: star\nplatform:\n  graph: {generator: fred, size: [8, 1], ";
    yaml += "bandwidth: 100 GB/s, latency: 500 ns}\nsystem:\n";
    yaml += "  algorithms: {all-reduce: [ring], reduce-scatter: [ring], all-gather: [ring], ";
    yaml += "all-to-all: [direct]}\n  scheduling-policy: LIFO\n";
    yaml += "  collective-optimization: localBWAware\n  chunks: 4\n";
    yaml += "  active-chunks-per-dimension: 1\n  endpoint-delay: 10 ns\n";
    yaml += "  local-memory-bandwidth: 50 GB/s\n";
    yaml += "workload:\n  microbenchmark: {collective: all-reduce, size: 16 MiB}\n";
    yaml += "run:\n  backend: congestion-aware\n  timing: astra-compatible\n";
    std::ofstream((dir / "star.yaml").string()) << yaml;
    auto r = cli({"synthesize", (dir / "star.yaml").string(), "--size", "16MiB", "--xml",
                  (dir / "s.xml").string(), "--et", (dir / "s").string(), "--table", "--compare"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("on 8 NPUs (56 links, 56 of them through switches)"));
    EXPECT_THAT(r.out, HasSubstr("1=>0"));
    EXPECT_THAT(r.out, HasSubstr("a => b: a link through switches"));
    EXPECT_THAT(r.out, HasSubstr("speedup over the best built-in"));
    EXPECT_TRUE(fs::exists(dir / "s.xml"));
    EXPECT_TRUE(fs::exists(dir / "s.7.et"));
    // The exported XML runs as the project's custom all-reduce on the switched graph.
    std::string custom = yaml;
    custom.replace(custom.find("  algorithms:"), 0,
                   "  custom-algorithms: {all-reduce: " + (dir / "s.xml").string() + "}\n");
    std::ofstream((dir / "custom.yaml").string()) << custom;
    r = cli({"run", (dir / "custom.yaml").string(), "--no-store"});
    EXPECT_EQ(r.code, 0) << r.err << r.out;
    fs::remove_all(dir);
}

TEST(SynthesizeCommand, BadFlagsAreUsageErrors) {
    auto r = cli({"synthesize", kDgx1, "--chunks", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("--chunks"));
    // The project's chunks limit.
    r = cli({"synthesize", kDgx1, "--chunks", "100000"});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("--chunks: expected a whole number from 1 to 16384"));
    r = cli({"synthesize", kDgx1, "--collective", "all-to-all"});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("expected all-gather, reduce-scatter or all-reduce"));
    r = cli({"synthesize", kDgx1, "--size", "4B", "--chunks", "1"});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("chunks of 0 B"));
    // 10^18 B: 5e6 s per chunk send, and 112 of them pass the 2^63 ps of the simulated clock.
    r = cli({"synthesize", kDgx1, "--size", "1000000TB"});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("project.yaml: size: a chunk of 125000 TB takes 5000000 s"));
    EXPECT_THAT(r.err, HasSubstr("could pass the longest simulated time"));
    EXPECT_THAT(r.out, Not(HasSubstr("-")));
}

// An output over the project, or two outputs over one file, is refused before the synthesis:
// the XML replaced the project, and --xml X --schedule X kept only the CSV, each with exit 0.
TEST(SynthesizeCommand, AnOutputOverTheProjectOrAnotherOutputIsRefused) {
    const fs::path dir = clitest::scratchDir("synthesize-outputs");
    const fs::path project = dir / "project.yaml";
    fs::copy_file(kDgx1, project, fs::copy_options::overwrite_existing);
    const auto text = [](const fs::path& path) {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string before = text(project);
    for (const char* flag : {"--xml", "--schedule"}) {
        const auto r = cli({"synthesize", project.string(), flag, project.string()});
        EXPECT_EQ(r.code, 1) << flag;
        EXPECT_THAT(r.err, HasSubstr("it is the project (")) << flag;
        EXPECT_EQ(r.out, "") << "refused before the synthesis";
        EXPECT_EQ(text(project), before) << flag;
    }
    const std::string both = (dir / "out.txt").string();
    const auto r = cli({"synthesize", project.string(), "--xml", both, "--schedule", both});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("cannot write the MSCCL-IR XML and the schedule CSV to one file"));
    EXPECT_FALSE(fs::exists(both));
}
