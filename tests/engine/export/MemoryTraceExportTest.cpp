// The local memory trace of track-local-mem (spec §8.2): one Chrome trace per NPU.
#include "export/MemoryTraceExport.h"

#include "export/ResultJson.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace astrolabe;
using nlohmann::json;

namespace {

/// Two NPUs; NPU 1 holds tensor "a" (2 MiB) over [1 us, 3 us) and "b" (1 MiB) over [2 us, 4 us).
RunResult twoNpus() {
    RunResult r;
    r.npuCount = 2;
    r.memoryUsage.resize(2);
    r.memoryUsage[0] = {{SimTime::zero(), 0}};
    r.memoryUsage[1] = {{SimTime::zero(), 0},
                        {SimTime::fromUs(1), 2 << 20},
                        {SimTime::fromUs(2), 3 << 20},
                        {SimTime::fromUs(3), 1 << 20},
                        {SimTime::fromUs(4), 0}};
    r.tensorLifetimes = {{SimTime::fromUs(1), SimTime::fromUs(3), 1, "a", 2 << 20, 7},
                         {SimTime::fromUs(2), SimTime::fromUs(4), 1, "b", 1 << 20, 8}};
    return r;
}

json traceOf(const RunResult& r, int rank) {
    std::ostringstream out;
    writeMemoryTrace(out, r, rank);
    return json::parse(out.str());
}

} // namespace

TEST(MemoryTraceExport, CounterAndLifetimesUseUpstreamProcessIds) {
    const json trace = traceOf(twoNpus(), 1);
    std::vector<double> counter;
    std::vector<std::string> lifetime;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("ph") == "C") {
            EXPECT_EQ(e.at("name"), "GPU Memory Usage (MB)");
            EXPECT_EQ(e.at("pid"), 2'000'001);
            counter.push_back(e.at("args").at("Memory_MB").get<double>());
        } else if (e.at("ph") == "B" || e.at("ph") == "E") {
            EXPECT_EQ(e.at("pid"), 1'000'001);
            EXPECT_EQ(e.at("cat"), "tensorLifetime");
            std::string what = e.at("ph").get<std::string>();
            what += e.at("name").get<std::string>();
            what += '@';
            what += std::to_string(e.at("ts").get<double>());
            what += '#';
            what += std::to_string(e.at("tid").get<int>());
            lifetime.push_back(std::move(what));
        }
    }
    EXPECT_EQ(counter, (std::vector<double>{0, 2, 3, 1, 0})); // MB = 2^20 bytes
    EXPECT_EQ(lifetime, (std::vector<std::string>{"Ba@1.000000#0", "Ea@3.000000#0", "Bb@2.000000#1",
                                                  "Eb@4.000000#1"}));
}

TEST(MemoryTraceExport, OneFilePerNpuAndNoneWhenNotTracked) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "astrolabe_memory_trace_export";
    fs::remove_all(dir);
    const std::string prefix = (dir / "mem" / "trace").string();
    const auto files = writeMemoryTraceFiles(prefix, twoNpus());
    ASSERT_EQ(files, (std::vector<std::string>{prefix + ".0.json", prefix + ".1.json"}));
    std::ifstream in(files[1]);
    EXPECT_EQ(json::parse(in).at("traceEvents").size(), 2u + 4u + 5u); // names, B/E, counter
    EXPECT_TRUE(writeMemoryTraceFiles((dir / "none").string(), RunResult{}).empty());
    fs::remove_all(dir);
}

TEST(MemoryTraceExport, ResultJsonCarriesTheUsageSeriesAndLifetimes) {
    const RunResult r = twoNpus();
    std::ostringstream out;
    writeResultJson(out, r);
    for (const json& j : {json::parse(out.str()), resultToJson(r)}) {
        ASSERT_EQ(j.at("memoryUsage").size(), 2u);
        EXPECT_EQ(j.at("memoryUsage")[1][2].at("timeNs"), 2000.0);
        EXPECT_EQ(j.at("memoryUsage")[1][2].at("bytes"), 3u << 20);
        ASSERT_EQ(j.at("tensorLifetimes").size(), 2u);
        EXPECT_EQ(j.at("tensorLifetimes")[0].at("name"), "a");
        EXPECT_EQ(j.at("tensorLifetimes")[0].at("releasedNs"), 3000.0);
        EXPECT_EQ(j.at("tensorLifetimes")[1].at("producerNodeId"), 8);
    }
    EXPECT_TRUE(resultToJson(RunResult{}).at("memoryUsage").empty());
}
