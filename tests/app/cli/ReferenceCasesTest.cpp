// Every measured ASTRA-sim case (tests/data/astra-sim-analytical.jsonl: 818 configurations, both
// analytical backends) through `astrolabe-cli astra`, exactly as a user would run it: the
// network YAML, system JSON and remote-memory JSON written to files, the microbenchmark written
// as Chakra traces, the report lines parsed from stdout.
//
// Target: every case where ASTRA-sim succeeded matches to the cycle (largest and smallest
// "finished" over NPUs, and the largest exposed communication); where ASTRA-sim itself failed,
// a clear refusal (exit code 1 and a message), never a crash.
#include "TestPaths.h"
#include "astra/AstraInputs.h"
#include "cli/Commands.h"
#include "generate/MicrobenchmarkGenerator.h"
#include "record/Oversubscription.h"
#include "simulation/Simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using astrolabe::cli::runCli;

namespace {

struct Finished {
    int64_t maxCycles = -1, minCycles = -1, maxExposed = -1;
    int npus = 0;
};

// "[...] [workload] [info] sys[3] finished, 117780 cycles, exposed communication 117780 cycles."
Finished parseReport(const std::string& out) {
    Finished f;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        const size_t at = line.find("] finished, ");
        if (at == std::string::npos)
            continue;
        long long cycles = 0, exposed = 0;
        if (std::sscanf(line.c_str() + at, "] finished, %lld cycles, exposed communication %lld",
                        &cycles, &exposed) != 2)
            continue;
        f.maxCycles = f.npus ? std::max<int64_t>(f.maxCycles, cycles) : cycles;
        f.minCycles = f.npus ? std::min<int64_t>(f.minCycles, cycles) : cycles;
        f.maxExposed = f.npus ? std::max<int64_t>(f.maxExposed, exposed) : exposed;
        ++f.npus;
    }
    return f;
}

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
}

} // namespace

TEST(ReferenceCases, EveryMeasuredAstraSimCaseThroughTheCli) {
    std::ifstream in(ASTROLABE_TEST_DATA_DIR + "/astra-sim-analytical.jsonl");
    ASSERT_TRUE(in) << "tests/data/astra-sim-analytical.jsonl is part of the repository";
    // One folder per process: two suites running at once on a machine must not share it.
    const fs::path dir = fs::path(::testing::TempDir()) /
                         ("astrolabe-reference-cases-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);

    std::map<std::string, std::string> workloads; // "collective/npus/size" -> ET prefix
    int cases = 0, upstreamOk = 0, exact = 0, refused = 0, crashedOrWrong = 0;
    int awareRuns = 0, awareOversubscribed = 0, unawareOversubscribed = 0;
    double awarePeak = 0, unawarePeak = 0;
    double largestRelativeError = 0;
    std::string line;
    while (std::getline(in, line)) {
        const nlohmann::json c = nlohmann::json::parse(line);
        const std::string id = c["id"];
        writeFile(dir / "network.yml", c["network_yml"].get<std::string>());
        writeFile(dir / "system.json", c["system_json"].get<std::string>());
        writeFile(dir / "memory.json", c["remote_memory_json"].get<std::string>());
        const auto& w = c["workload"];
        const std::string key = w["collective"].get<std::string>() + "_" +
                                std::to_string(w["npus"].get<int>()) + "_" +
                                std::to_string(w["size_bytes"].get<uint64_t>());
        if (!workloads.count(key)) {
            const std::string prefix = (dir / key / "trace").string();
            fs::create_directories(dir / key);
            astrolabe::generateMicrobenchmark(
                astrolabe::parseMicrobenchmarkCollective(w["collective"]), w["npus"],
                w["size_bytes"], {}, prefix);
            workloads[key] = prefix;
        }
        for (const auto& [backend, flag] :
             {std::pair<std::string, std::string>{"congestion_unaware",
                                                  "analytical-congestion-unaware"},
              {"congestion_aware", "analytical-congestion-aware"}}) {
            ++cases;
            const nlohmann::json& expected = c["expected"][backend];
            std::ostringstream out, err;
            const int code =
                runCli({"astra", "--workload-configuration=" + workloads[key],
                        "--system-configuration=" + (dir / "system.json").string(),
                        "--network-configuration=" + (dir / "network.yml").string(),
                        "--remote-memory-configuration=" + (dir / "memory.json").string(),
                        "--logging-folder=" + (dir / "log").string(), "--network-backend=" + flag},
                       out, err);
            if (expected["status"] != "ok") {
                // ASTRA-sim failed here: we must refuse clearly.
                const bool clear = code == 1 && err.str().find("error:") != std::string::npos;
                refused += clear;
                crashedOrWrong += !clear;
                EXPECT_TRUE(clear) << id << " " << backend << ": " << err.str();
                continue;
            }
            ++upstreamOk;
            const Finished got = parseReport(out.str());
            const int64_t wantMax = expected["cycles_max"], wantMin = expected["cycles_min"];
            const int64_t wantExposed = expected["exposed_comm_cycles_max"];
            const bool same = code == 0 && got.maxCycles == wantMax && got.minCycles == wantMin &&
                              got.maxExposed == wantExposed;
            exact += same;
            if (code == 0)
                largestRelativeError =
                    std::max({largestRelativeError,
                              std::fabs(double(got.maxCycles - wantMax)) / double(wantMax),
                              std::fabs(double(got.minCycles - wantMin)) / double(wantMin)});
            else
                ++crashedOrWrong;
            // Link utilization: the congestion-aware model shares a link's bandwidth, so no link
            // may be busy longer than the run; the unaware one may (and says so).
            astrolabe::AstraInputs inputs;
            inputs.workloadPrefix = workloads[key];
            inputs.systemFile = (dir / "system.json").string();
            inputs.networkFile = (dir / "network.yml").string();
            inputs.remoteMemoryFile = (dir / "memory.json").string();
            inputs.backend = backend == "congestion_aware"
                                 ? astrolabe::NetworkBackend::CongestionAware
                                 : astrolabe::NetworkBackend::CongestionUnaware;
            const astrolabe::Oversubscription over = astrolabe::findOversubscription(
                *astrolabe::runSimulation(astrolabe::loadAstraInputs(inputs), nullptr));
            if (inputs.backend == astrolabe::NetworkBackend::CongestionAware) {
                ++awareRuns;
                awareOversubscribed += over.any();
                awarePeak = std::max(awarePeak, over.peakUtilization);
                EXPECT_FALSE(over.any())
                    << id << " congestion-aware: a link at " << 100 * over.peakUtilization << "%";
            } else {
                unawareOversubscribed += over.any();
                unawarePeak = std::max(unawarePeak, over.peakUtilization);
            }
            EXPECT_TRUE(same) << id << " " << backend << ": got " << got.maxCycles << "/"
                              << got.minCycles << " exposed " << got.maxExposed << ", want "
                              << wantMax << "/" << wantMin << " exposed " << wantExposed
                              << " (exit " << code << ") " << err.str();
        }
    }
    std::printf("[ reference ] %d runs of 818 cases: %d of %d where ASTRA-sim succeeded match to "
                "the cycle; %d refused clearly where ASTRA-sim failed; largest relative error "
                "%.3g; %d wrong or crashed\n",
                cases, exact, upstreamOk, refused, largestRelativeError, crashedOrWrong);
    std::printf("[ reference ] link utilization: congestion-aware %d runs, %d with a link over "
                "100%% (busiest %.1f%%); congestion-unaware %d runs over 100%% (busiest %.1f%%)\n",
                awareRuns, awareOversubscribed, 100 * awarePeak, unawareOversubscribed,
                100 * unawarePeak);
    EXPECT_EQ(awareOversubscribed, 0);
    EXPECT_EQ(cases, 1636);
    EXPECT_EQ(exact, upstreamOk);
    EXPECT_EQ(crashedOrWrong, 0);
    fs::remove_all(dir);
}
