// `astrolabe-cli sweep`: the torus example's 64 points, any worker count, and kill -9 halfway.
#include "CliRunner.h"
#include "TestPaths.h"
#include "cli/SweepMpi.h"
#include "core/Units.h"
#include "project/ProjectFile.h"
#include "simulation/Simulation.h"
#include "store/ProjectDatabase.h"
#include "sweep/SweepLock.h"
#include "sweep/SweepPlan.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using clitest::cli;
namespace fs = std::filesystem;

namespace {

/// The torus example and its sweep, copied into a fresh folder (the database lands beside).
class SweepFolder {
public:
    explicit SweepFolder(const std::string& name)
        : m_dir(fs::temp_directory_path() /
                ("astrolabe_cli_" + name + "_" + std::to_string(::getpid()))) {
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        for (const char* file : {"project.yaml", "sweep.yaml"})
            fs::copy_file(fs::path(ASTROLABE_SOURCE_DIR) / "projects/torus-2d" / file,
                          m_dir / file);
    }
    ~SweepFolder() { fs::remove_all(m_dir); }
    std::string file(const std::string& name) const { return (m_dir / name).string(); }

private:
    fs::path m_dir;
};

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The CSV without its run-number column: what a point gave, not when it was stored.
std::string metricsOnly(const std::string& csv) {
    std::istringstream in(csv);
    std::string line, out;
    while (std::getline(in, line)) {
        std::vector<std::string> fields(1);
        for (const char c : line) // no quoted commas in these rows
            if (c == ',')
                fields.emplace_back();
            else
                fields.back() += c;
        if (fields.size() >= 2)
            fields.erase(fields.end() - 2); // run, before note
        for (const std::string& f : fields)
            out += f + ",";
        out += "\n";
    }
    return out;
}

/// point index -> how many runs of the sweep the database holds for it.
std::map<size_t, int> pointsStored(const std::string& db, const std::string& identity) {
    std::map<size_t, int> count;
    for (const astrolabe::RunRecord& r : astrolabe::ProjectDatabase(db).listRuns())
        if (const auto index = astrolabe::storedPointIndex(r.tags, identity))
            ++count[*index];
    return count;
}

} // namespace

TEST(SweepCommand, DryRunListsThePointsAndRunsNothing) {
    SweepFolder dir("sweep_dry");
    const auto r = cli({"sweep", dir.file("sweep.yaml"), "--dry-run"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("64 points"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("would run point 63 (bw0=400 GiB/s, chunks=128)"), std::string::npos)
        << r.out;
    // A dry run writes nothing: it used to leave an empty database beside the project.
    EXPECT_FALSE(fs::exists(dir.file("astrolabe.db")));
    const auto other =
        cli({"sweep", dir.file("sweep.yaml"), "--dry-run", "--db", dir.file("x.db")});
    ASSERT_EQ(other.code, 0) << other.err;
    EXPECT_FALSE(fs::exists(dir.file("x.db")));
}

// A --csv the sweep cannot write is said before any point runs and is stored; so is run's
// --json, before the run.
TEST(SweepCommand, AnOutputThatCannotBeWrittenIsSaidBeforeAnythingRuns) {
    SweepFolder dir("sweep_csv");
    const std::string csv = dir.file("no-such-folder/points.csv");
    const auto r = cli({"sweep", dir.file("sweep.yaml"), "--csv", csv});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(csv + ": cannot write the sweep table: its folder"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("point 0"), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir.file("astrolabe.db"))) << "points ran and were stored";
    const std::string json = dir.file("no-such-folder/run.json");
    const auto run = cli({"run", dir.file("project.yaml"), "--json", json});
    EXPECT_EQ(run.code, 1);
    EXPECT_NE(run.err.find(json + ": cannot write the JSON result"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(dir.file("astrolabe.db"))) << "the run was stored";
}

// The table may not take the name of the sweep file, its base project or its database: each is
// read, and writing the table over it would destroy it. Refused before any point runs.
TEST(SweepCommand, ATableOverAFileTheSweepReadsIsRefusedBeforeAnythingRuns) {
    SweepFolder dir("sweep_csv_self");
    for (const char* input : {"sweep.yaml", "project.yaml", "astrolabe.db"}) {
        SCOPED_TRACE(input);
        const auto r = cli({"sweep", dir.file("sweep.yaml"), "--csv", dir.file(input)});
        EXPECT_EQ(r.code, 1);
        EXPECT_NE(r.err.find("cannot write the sweep table there: it is the"), std::string::npos)
            << r.err;
        EXPECT_EQ(r.out.find("point 0"), std::string::npos) << r.out;
        EXPECT_FALSE(fs::exists(dir.file("astrolabe.db")));
    }
    EXPECT_TRUE(astrolabe::planSweep(dir.file("sweep.yaml")).points.size() > 0)
        << "the sweep file still reads";
}

// Two sweeps of the same file into the same database at once each stored every point (128 runs
// for 64). While one holds the sweep, another is refused, naming the database, and stores nothing.
TEST(SweepCommand, TheSameSweepRunningIntoTheSameDatabaseIsRefused) {
    SweepFolder dir("sweep_twice");
    const auto plan = astrolabe::planSweep(dir.file("sweep.yaml"));
    {
        const astrolabe::SweepLock running(dir.file("astrolabe.db"), plan.identity);
        const auto r = cli({"sweep", dir.file("sweep.yaml"), "--jobs", "1"});
        EXPECT_EQ(r.code, 1) << r.out;
        EXPECT_NE(r.err.find("the same sweep is already running into the database " +
                             dir.file("astrolabe.db")),
                  std::string::npos)
            << r.err;
        EXPECT_TRUE(pointsStored(dir.file("astrolabe.db"), plan.identity).empty());
    }
    EXPECT_FALSE(
        fs::exists(astrolabe::SweepLock::lockPath(dir.file("astrolabe.db"), plan.identity)));
}

// A re-run of a sweep whose points failed said "0 to run, 2 already stored" and exited 0. The
// failed points are run again, and the exit status stays 1 while they fail.
TEST(SweepCommand, FailedPointsAreRunAgainAndKeepTheExitStatusNonZero) {
    SweepFolder dir("sweep_failed");
    fs::create_directories(dir.file("bad"));
    for (int npu = 0; npu < 2; ++npu) // there (so the plan accepts them), but not Chakra
        std::ofstream(dir.file("bad/trace." + std::to_string(npu) + ".et")) << "not a trace";
    std::ofstream(dir.file("bad.yaml"))
        << "name: bad\nplatform:\n  dimensions: [{type: Ring, size: 2, bandwidth: 50 GB/s, "
           "latency: 500 ns}]\nsystem: {algorithms: {all-reduce: [ring]}, chunks: 4}\n"
           "workload: {trace: bad/trace}\n";
    std::ofstream(dir.file("bad-sweep.yaml"))
        << "project: bad.yaml\naxes: [{path: system.chunks, values: [1, 2]}]\n";
    const auto first = cli({"sweep", dir.file("bad-sweep.yaml"), "--jobs", "1"});
    EXPECT_EQ(first.code, 1) << first.out;
    EXPECT_NE(first.out.find("(0 ok, 2 failed)"), std::string::npos) << first.out;
    const auto again = cli({"sweep", dir.file("bad-sweep.yaml"), "--jobs", "1"});
    EXPECT_EQ(again.code, 1) << again.out;
    EXPECT_NE(again.out.find("2 to run (2 of them failed before and run again), 0 already stored"),
              std::string::npos)
        << again.out;
}

TEST(SweepCommand, WorkerCountsOutsideOneTo1024AreRefusedBeforeAnythingRuns) {
    // "--jobs=0" printed "0 worker threads" and ran the points anyway; -3 did the same.
    SweepFolder dir("sweep_jobs");
    for (const char* jobs : {"0", "-3", "1025", "99999999999"}) {
        SCOPED_TRACE(jobs);
        const auto r = cli({"sweep", dir.file("sweep.yaml"), std::string("--jobs=") + jobs});
        EXPECT_EQ(r.code, 2);
        EXPECT_NE(r.err.find("--jobs: expected a"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir.file("astrolabe.db")));
    }
}

TEST(SweepCommand, TwoWorkersGiveTheMetricsOfOne) {
    SweepFolder dir("sweep_jobs");
    const auto one = cli({"sweep", dir.file("sweep.yaml"), "--jobs", "1", "--db",
                          dir.file("one.db"), "--csv", dir.file("one.csv")});
    ASSERT_EQ(one.code, 0) << one.err << one.out;
    EXPECT_NE(one.out.find("Ran 64 points"), std::string::npos) << one.out;
    const auto two = cli({"sweep", dir.file("sweep.yaml"), "--jobs", "2", "--db",
                          dir.file("two.db"), "--csv", dir.file("two.csv")});
    ASSERT_EQ(two.code, 0) << two.err;
    const std::string csv = readFile(dir.file("one.csv"));
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 65); // header + 64 points
    EXPECT_EQ(metricsOnly(readFile(dir.file("two.csv"))), metricsOnly(csv));
    // Point 10 is the base project itself (bw0 = 100 GiB/s, 4 chunks): its end time.
    const auto base = astrolabe::runSimulation(astrolabe::loadProject(dir.file("project.yaml")));
    const std::string row =
        "\n10,100 GiB/s,4,ok," + astrolabe::units::formatPlain(base->endTime.ns(), 15) + ",";
    EXPECT_NE(csv.find(row), std::string::npos) << row << " not in\n" << csv;
    // Running it again stores nothing twice.
    const auto again = cli({"sweep", dir.file("sweep.yaml"), "--db", dir.file("one.db")});
    EXPECT_NE(again.out.find("0 to run, 64 already stored"), std::string::npos) << again.out;
    const auto plan = astrolabe::planSweep(dir.file("sweep.yaml"));
    for (const auto& [index, n] : pointsStored(dir.file("one.db"), plan.identity))
        EXPECT_EQ(n, 1) << "point " << index;
}

TEST(SweepCommand, KillNineHalfwayThenTheSameCommandFinishesWithEveryPointOnce) {
    SweepFolder dir("sweep_kill");
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    const std::string sweep = dir.file("sweep.yaml");
    if (child == 0) {
        ::dup2(fds[1], 1);
        ::close(fds[0]);
        ::execl(ASTROLABE_CLI.c_str(), ASTROLABE_CLI.c_str(), "sweep", sweep.c_str(), "--jobs", "2",
                static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(fds[1]);
    // Wait for the 32nd stored point, then kill -9 while the others are being run and stored.
    std::string seen;
    char buffer[4096];
    while (seen.find("[32/64]") == std::string::npos) {
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        ASSERT_GT(n, 0) << "the sweep ended before half its points: " << seen;
        seen.append(buffer, static_cast<size_t>(n));
    }
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ::close(fds[0]);
    ASSERT_TRUE(WIFSIGNALED(status)) << seen;

    const auto plan = astrolabe::planSweep(sweep);
    const size_t before = pointsStored(dir.file("astrolabe.db"), plan.identity).size();
    EXPECT_GE(before, 32u);
    EXPECT_LT(before, 64u) << "killed too late to show anything";
    const auto resumed = cli({"sweep", sweep, "--jobs", "2"});
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    EXPECT_NE(resumed.out.find(std::to_string(64 - before) + " to run, " + std::to_string(before) +
                               " already stored"),
              std::string::npos)
        << resumed.out;
    const auto stored = pointsStored(dir.file("astrolabe.db"), plan.identity);
    EXPECT_EQ(stored.size(), 64u);
    for (const auto& [index, n] : stored)
        EXPECT_EQ(n, 1) << "point " << index;
    EXPECT_EQ(astrolabe::ProjectDatabase(dir.file("astrolabe.db")).integrityCheck(), "ok");
}

// A sweep over the training generator's parallelism: the points the constraint keeps run the
// same iteration as generate-llm writes, read back from its trace files and run as a project.
TEST(SweepCommand, GeneratorAxesRunWhatGenerateLlmWrites) {
    SweepFolder dir("sweep_generate");
    std::ofstream(dir.file("ring8.yaml")) << R"(name: ring of 8
platform:
  dimensions:
    - {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 500 ns}
system:
  algorithms: {all-reduce: [ring], reduce-scatter: [ring], all-gather: [ring], all-to-all: [direct]}
  chunks: 4
  local-memory-bandwidth: 50 GB/s
workload:
  microbenchmark: {collective: all-reduce, size: 1 MiB}
run: {record-timeline: false}
)";
    std::ofstream(dir.file("parallel.yaml")) << R"(project: ring8.yaml
generate: {preset: gpt2-124m, layers: 2, micro-batches: 2}
axes:
  - {path: generate.tp, values: [1, 2, 4]}
  - {path: generate.pp, values: [1, 2]}
  - {path: generate.dp, values: [1, 2, 4, 8]}
constraints:
  - {require: tp * pp * dp == npus, reason: the split must use every NPU}
)";
    const auto r =
        cli({"sweep", dir.file("parallel.yaml"), "--jobs", "2", "--csv", dir.file("parallel.csv")});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    // tp in {1,2,4} (GPT-2's 12 heads), pp in {1,2}, dp = 8 / (tp pp): 6 of the 24 points.
    EXPECT_NE(r.out.find("6 to run, 0 already stored, 18 skipped by constraints"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("the split must use every NPU (tp = 2, pp = 2, dp = 4, npus = 8)"),
              std::string::npos)
        << r.out;
    // tp 2 x pp 2 x dp 2 is point 1 * 8 + 1 * 4 + 1 = 13.
    const std::string csv = readFile(dir.file("parallel.csv"));
    const std::string prefix = "\n13,2,2,2,ok,";
    const size_t row = csv.find(prefix);
    ASSERT_NE(row, std::string::npos) << csv;
    const size_t start = row + prefix.size();
    const std::string endNs = csv.substr(start, csv.find(',', start) - start);

    const auto generated =
        cli({"generate-llm", "--preset", "gpt2-124m", "--layers", "2", "--micro-batches", "2",
             "--tp", "2", "--pp", "2", "--dp", "2", "--out", dir.file("gpt2")});
    ASSERT_EQ(generated.code, 0) << generated.err;
    std::ifstream base(dir.file("ring8.yaml"));
    std::stringstream text;
    text << base.rdbuf();
    std::string project = text.str();
    project.replace(project.find("microbenchmark: {collective: all-reduce, size: 1 MiB}"), 53,
                    "trace: gpt2");
    project += "comm-groups: gpt2.comm_groups.json\n";
    std::ofstream(dir.file("traced.yaml")) << project;
    const auto spec = astrolabe::loadProject(dir.file("traced.yaml"));
    EXPECT_EQ(astrolabe::units::formatPlain(astrolabe::runSimulation(spec)->endTime.ns(), 15),
              endNs);
}

// The generator's offload settings are sweep axes like any other (generate.offload-...): the
// iteration whose parameters live in the project's remote memory runs its MEM_LOAD nodes there
// and ends later than the one that keeps them in HBM.
TEST(SweepCommand, OffloadAxesRunAgainstTheRemoteMemory) {
    SweepFolder dir("sweep_offload");
    std::ofstream(dir.file("ring8.yaml")) << R"(name: ring of 8 with NVMe
platform:
  dimensions:
    - {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 500 ns}
system:
  algorithms: {all-reduce: [ring], reduce-scatter: [ring], all-gather: [ring], all-to-all: [direct]}
  chunks: 4
  local-memory-bandwidth: 50 GB/s
memory: {type: per-npu, bandwidth: 5 GB/s, latency: 10 us}
workload:
  microbenchmark: {collective: all-reduce, size: 1 MiB}
run: {record-timeline: false}
)";
    std::ofstream(dir.file("offload.yaml")) << R"(project: ring8.yaml
generate: {preset: gpt2-124m, layers: 2, micro-batches: 2}
axes:
  - {path: generate.offload-parameters, values: [none, nvme]}
)";
    const auto r =
        cli({"sweep", dir.file("offload.yaml"), "--jobs", "1", "--csv", dir.file("offload.csv")});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    const std::string csv = readFile(dir.file("offload.csv"));
    auto endNs = [&](const std::string& prefix) {
        const size_t row = csv.find(prefix);
        EXPECT_NE(row, std::string::npos) << prefix << "\n" << csv;
        if (row == std::string::npos)
            return 0.0;
        const size_t start = row + prefix.size();
        return std::stod(csv.substr(start, csv.find(',', start) - start));
    };
    const double inHbm = endNs("\n0,none,ok,"), offloaded = endNs("\n1,nvme,ok,");
    EXPECT_GT(inHbm, 0) << csv;
    EXPECT_GT(offloaded, inHbm) << csv;
}

// A deployment search (docs/sweeps.md, "Searching a deployment"): every point of a sweep over a
// serving project is a serving run, ranked by goodput per GPU; the CSV carries the serving
// columns and the best point named on the terminal is the one with the highest goodput per GPU.
TEST(SweepCommand, AServingSweepRanksItsPointsByGoodputPerGpu) {
    const fs::path dir =
        fs::temp_directory_path() / ("astrolabe_cli_serving_sweep_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(fs::path(ASTROLABE_SOURCE_DIR) / "projects/serving/qwen3-30b-a3b-h100.yaml",
                  dir / "project.yaml");
    std::ofstream(dir / "sweep.yaml")
        << "name: search\nproject: project.yaml\nset: {serving.duration: 5 s}\n"
           "serving: {objective: goodput-per-gpu}\naxes:\n"
           "  - {name: max-batch, path: serving.max-batch, values: [2, 256]}\n"
           "  - zip:\n"
           "      - {name: replicas, path: serving.replicas, values: [4, 2]}\n"
           "      - {name: ep, path: serving.ep, values: [4, 8]}\n";
    const std::string csv = (dir / "out.csv").string();
    const auto r = cli({"sweep", (dir / "sweep.yaml").string(), "--jobs", "2", "--csv", csv});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    const std::string table = readFile(csv);
    std::istringstream in(table);
    std::string line;
    std::getline(in, line);
    ASSERT_NE(line.find("goodput_per_gpu"), std::string::npos) << line;
    // point,max-batch,replicas,ep,status,end,compute,exposed,run,note,goodput,...
    double best = -1;
    std::string bestPoint;
    while (std::getline(in, line)) {
        std::vector<std::string> fields(1);
        for (const char c : line) {
            if (c == ',')
                fields.emplace_back();
            else
                fields.back().push_back(c);
        }
        ASSERT_EQ(fields.size(), 15u) << line;
        EXPECT_EQ(fields[4], "ok") << line;
        if (std::stod(fields[10]) > best) {
            best = std::stod(fields[10]);
            bestPoint = fields[0];
        }
    }
    EXPECT_NE(r.out.find("best: point " + bestPoint + " ("), std::string::npos) << r.out;
    // A batch limit of 2 requests per replica cannot keep up with 40 requests/s of 2,048-token
    // prompts: the best point is one of the two with max-batch 256 (points 2 and 3).
    EXPECT_TRUE(bestPoint == "2" || bestPoint == "3") << r.out;
    fs::remove_all(dir);
}

TEST(SweepScratch, ARankThatDiedButIsNotReapedYetLeavesNothingBehind) {
    // A rank that mpirun ended is a zombie until its parent reaps it, and a zombie still answers
    // kill(pid, 0): the clean-up must take it for gone, or its scratch database stays behind
    // (cli_sweep_mpi_lost_rank under load). A running process's file stays.
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0)
        ::_exit(0); // dead at once, not reaped until waitpid below
    const auto scratch = [](pid_t pid) {
        return fs::temp_directory_path() / ("astrolabe-sweep-" + std::to_string(pid) + "-2.db");
    };
    for (int i = 0; i < 500; ++i) { // until the child is a zombie
        std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
        std::string line;
        std::getline(stat, line);
        if (const size_t close = line.rfind(')');
            close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z')
            break;
        ::usleep(2000);
    }
    std::ofstream(scratch(child)) << "scratch";
    std::ofstream(scratch(::getpid())) << "scratch";
    astrolabe::cli::removeOrphanedSweepScratch();
    EXPECT_FALSE(fs::exists(scratch(child)));
    EXPECT_TRUE(fs::exists(scratch(::getpid())));
    fs::remove(scratch(::getpid()));
    int status = 0;
    ::waitpid(child, &status, 0);
}
