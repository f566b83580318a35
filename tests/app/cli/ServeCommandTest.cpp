// astrolabe-cli serve: runs a project's serving: section, prints the metrics and stores the run.
#include "CliRunner.h"
#include "TestPaths.h"
#include "store/ProjectDatabase.h"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using ::testing::HasSubstr;

namespace {

std::string writeProject(const std::filesystem::path& dir, const std::string& serving) {
    const std::filesystem::path path = dir / "serve.yaml";
    std::ofstream(path)
        << "name: serve\nplatform:\n  dimensions:\n"
           "    - {type: Switch, size: 8, bandwidth: 50 GB/s, latency: 5 us}\n"
           "system:\n  algorithms: [ring]\n  chunks: 4\n  scheduling-policy: LIFO\n"
           "  collective-optimization: localBWAware\n  active-chunks-per-dimension: 2\n"
           "  endpoint-delay: 10 ns\n  local-memory-bandwidth: 3350 GB/s\nserving:\n"
        << serving;
    return path.string();
}

} // namespace

TEST(ServeCommand, PrintsTheMetricsAndStoresTheRun) {
    const auto dir = clitest::scratchDir("serve");
    const std::string project =
        writeProject(dir, "  model: llama3-8b\n  gpu: h100\n  rate: 4\n  duration: 10 s\n");
    const std::string db = (dir / "runs.db").string();
    const std::string csv = (dir / "out").string();
    const clitest::Result r =
        clitest::cli({"serve", project, "--rate", "8", "--db", db, "--csv", csv});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("TTFT"));
    EXPECT_THAT(r.out, HasSubstr("goodput"));
    // The offered load over the arrivals beside the throughput, which runs to the last token.
    EXPECT_THAT(r.out, HasSubstr(" s of arrivals (the throughput above counts the run to its "
                                 "last token"));
    EXPECT_THAT(r.out, HasSubstr("stored as run"));
    // One row per request (about 8/s x 10 s) and one header.
    std::ifstream requests(csv + "-requests.csv");
    std::string line;
    int rows = 0;
    std::getline(requests, line);
    EXPECT_EQ(line, "request,arrival_s,prompt_tokens,output_tokens,queueing_s,ttft_s,tpot_s,e2e_s");
    while (std::getline(requests, line))
        ++rows;
    EXPECT_GT(rows, 50);
    EXPECT_LT(rows, 120);
    EXPECT_TRUE(std::filesystem::exists(csv + "-occupancy.csv"));
    astrolabe::ProjectDatabase database(db);
    const auto runs = database.listRuns();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].npuCount, 1);
    const auto stored = database.loadResult(runs[0].id, false, false);
    ASSERT_FALSE(stored->reportLines.empty());
    EXPECT_THAT(stored->reportLines[1], HasSubstr("[serving] TTFT"));
    EXPECT_THAT(database.run(runs[0].id).configJson, HasSubstr("\"serving\""));
    // runs show prints the stored metrics.
    const clitest::Result show =
        clitest::cli({"runs", "show", std::to_string(runs[0].id), "--db", db});
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_THAT(show.out, HasSubstr("  serving:\n    requests"));
    EXPECT_THAT(show.out, HasSubstr("goodput"));
    // Beside a training run, compare says the end times measure different things.
    ASSERT_EQ(clitest::cli(
                  {"run", ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml", "--db", db})
                  .code,
              0);
    const auto both = database.listRuns();
    ASSERT_EQ(both.size(), 2u);
    const clitest::Result compare = clitest::cli(
        {"compare", std::to_string(runs[0].id),
         std::to_string(both[0].id == runs[0].id ? both[1].id : both[0].id), "--db", db});
    ASSERT_EQ(compare.code, 0) << compare.err;
    EXPECT_THAT(compare.out,
                HasSubstr("note: runs " + std::to_string(runs[0].id) + " serve requests and runs"));
    EXPECT_THAT(compare.out, HasSubstr("not comparable with an iteration's"));
}

TEST(ServeCommand, BadFlagsAndProjectsAreUsageErrors) {
    const auto dir = clitest::scratchDir("serve-bad");
    const std::string project = writeProject(dir, "  model: llama3-8b\n");
    EXPECT_EQ(clitest::cli({"serve", project, "--rate", "-1", "--no-store"}).code, 2);
    // `run` of a serving project says which command runs it; so do `fidelity` and
    // `export-astra`, which have no workload to run or write either.
    for (const char* command : {"run", "fidelity", "export-astra"}) {
        std::vector<std::string> args{command, project};
        args.push_back(std::string(command) == "export-astra" ? "--out=" + (dir / "ex").string()
                                                              : "--no-store");
        const clitest::Result run = clitest::cli(args);
        EXPECT_EQ(run.code, 2) << command;
        EXPECT_THAT(run.err, HasSubstr(std::string(command) + ": the project describes serving"));
        EXPECT_THAT(run.err, HasSubstr("astrolabe-cli serve"));
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "ex"));
    // A tensor-parallel degree the heads do not divide, expert parallelism on a dense model:
    // refused, with the file and key.
    for (const auto& [setting, said] : std::vector<std::pair<std::string, std::string>>{
             {"  tp: 3\n", "serve.yaml: serving.tp: expected a tp that divides llama3-8b's 32 "
                           "attention heads, found 3"},
             {"  ep: 4\n", "serving.ep: llama3-8b is dense (no experts)"}}) {
        const clitest::Result bad = clitest::cli(
            {"serve", writeProject(dir, "  model: llama3-8b\n" + setting), "--no-store"});
        EXPECT_EQ(bad.code, 1) << setting;
        EXPECT_THAT(bad.err, HasSubstr(said));
    }
    EXPECT_EQ(clitest::cli({"serve", project, "--rate", "1", "--trace", project}).code, 2);
    const clitest::Result r = clitest::cli({"serve", project, "--duration", "soon"});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("--duration"));
    // The arrival window is bounded where it is read, in the flag and in the file: 10^7 s at a
    // low rate is few requests but a drain past the simulated clock.
    const clitest::Result longer =
        clitest::cli({"serve", project, "--duration", "1e7", "--rate", "0.00001", "--no-store"});
    EXPECT_EQ(longer.code, 2);
    EXPECT_THAT(longer.err, HasSubstr("--duration: expected at most 1e6 s (about 11.6 days)"));
    const clitest::Result inFile =
        clitest::cli({"serve",
                      writeProject(clitest::scratchDir("serve-long"),
                                   "  model: llama3-8b\n  duration: 2e15 ns\n"),
                      "--no-store"});
    EXPECT_EQ(inFile.code, 1);
    EXPECT_THAT(inFile.err, HasSubstr("serving.duration: expected at most 1e+15 ns"));
    // A trace whose timestamps go backwards: the row is named, exit code 1.
    const auto trace = dir / "trace.csv";
    std::ofstream(trace) << "TIMESTAMP,ContextTokens,GeneratedTokens\n5,100,10\n4,100,10\n";
    const clitest::Result t =
        clitest::cli({"serve", project, "--trace", trace.string(), "--no-store"});
    EXPECT_EQ(t.code, 1);
    EXPECT_THAT(t.err, HasSubstr("row 3"));
    // A trace format without a trace would be ignored.
    const clitest::Result format =
        clitest::cli({"serve", project, "--trace-format", "azure", "--no-store"});
    EXPECT_EQ(format.code, 2);
    EXPECT_THAT(format.err, HasSubstr("--trace-format: this run's requests are synthetic"));
    // --rate takes the file's range; a window in which no request arrives is refused rather than
    // reported as zero latencies; a rate too high names both factors.
    for (const char* rate : {"1e-300", "1e-7", "2e7", "inf"}) {
        const clitest::Result bad = clitest::cli({"serve", project, "--rate", rate, "--no-store"});
        EXPECT_EQ(bad.code, 2) << rate;
        EXPECT_THAT(bad.err, HasSubstr("--rate: expected requests per second from 1e-6 to 1e7"));
    }
    const clitest::Result none =
        clitest::cli({"serve", project, "--rate", "1e-6", "--duration", "5", "--no-store"});
    EXPECT_EQ(none.code, 1);
    EXPECT_THAT(none.err, HasSubstr("serving.rate: no request arrived in the window"));
    const clitest::Result many =
        clitest::cli({"serve", project, "--rate", "1e7", "--duration", "60", "--no-store"});
    EXPECT_EQ(many.code, 1);
    EXPECT_THAT(many.err, HasSubstr("the rate (1e+07 requests/s) x the duration (60 s)"));
}

TEST(ServeCommand, StoresTheRequestsAndSearchesTheRate) {
    const auto dir = clitest::scratchDir("serve_records");
    const std::string project = writeProject(
        dir, "  model: llama3-8b\n  gpu: h100\n  rate: 4\n  duration: 10 s\n  tpot-slo: 25 ms\n");
    const std::string db = (dir / "runs.db").string();
    ASSERT_EQ(clitest::cli({"serve", project, "--db", db}).code, 0);
    astrolabe::ProjectDatabase database(db);
    const int64_t id = database.listRuns().at(0).id;
    // The records are kept with the run: about 4/s x 10 s requests.
    const auto bytes = database.loadAttachment(id, "serving");
    ASSERT_TRUE(bytes.has_value());
    EXPECT_GT(bytes->size(), 40u * 50u);
    // The rate search prints its probes and the answer; bad shares are refused.
    const clitest::Result search = clitest::cli({"serve", project, "--rate-search", "0.9"});
    ASSERT_EQ(search.code, 0) << search.err;
    EXPECT_THAT(search.out, HasSubstr("highest rate meeting the target"));
    EXPECT_THAT(search.out, HasSubstr("fails"));
    const clitest::Result bad = clitest::cli({"serve", project, "--rate-search", "90"});
    EXPECT_NE(bad.code, 0);
    EXPECT_THAT(bad.err, HasSubstr("--rate-search"));
}
