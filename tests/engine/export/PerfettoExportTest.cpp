#include "export/PerfettoExport.h"

#include "support/SyntheticRun.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace astrolabe;
using astrolabe::test::makeSyntheticRun;
using astrolabe::test::SyntheticRunShape;
using nlohmann::json;

namespace {

json exportJson(const RunResult& r, const PerfettoOptions& o = {},
                PerfettoSummary* summary = nullptr) {
    std::ostringstream out;
    const PerfettoSummary s = writePerfettoTrace(out, r, o);
    if (summary)
        *summary = s;
    return json::parse(out.str()); // throws (fails the test) on invalid JSON
}

/// Checks the structural rules of the trace-event format that Perfetto relies on.
void expectWellFormed(const json& trace) {
    ASSERT_TRUE(trace.contains("traceEvents"));
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
    for (const json& e : trace["traceEvents"]) {
        ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("tid") &&
                    e.contains("name"))
            << e.dump();
        const std::string ph = e["ph"];
        if (ph == "X") {
            ASSERT_TRUE(e["ts"].is_number() && e["dur"].is_number()) << e.dump();
            EXPECT_GE(e["dur"].get<double>(), 0.0);
            tracks[{e["pid"], e["tid"]}].push_back({e["ts"], e["dur"]});
        } else if (ph == "C") {
            ASSERT_TRUE(e["ts"].is_number());
            ASSERT_TRUE(e["args"].is_object() && !e["args"].empty());
            for (const auto& [k, v] : e["args"].items())
                EXPECT_TRUE(v.is_number()) << k;
        } else if (ph == "M") {
            EXPECT_TRUE(e["args"].contains("name") || e["args"].contains("sort_index"));
        }
    }
    for (auto& [track, slices] : tracks) {
        std::sort(slices.begin(), slices.end());
        for (size_t i = 1; i < slices.size(); ++i)
            EXPECT_LE(slices[i - 1].first + slices[i - 1].second, slices[i].first + 1e-9)
                << "overlap on pid " << track.first << " tid " << track.second;
    }
}

} // namespace

TEST(PerfettoExport, SlicesInMicrosecondsOnePerActivity) {
    SyntheticRunShape shape;
    shape.npus = 2;
    const RunResult r = makeSyntheticRun(shape);
    PerfettoSummary s;
    const json trace = exportJson(r, {}, &s);
    expectWellFormed(trace);
    EXPECT_FALSE(s.truncated);
    EXPECT_EQ(s.slices, r.activities.size());
    // NPU 1, compute of step 2: starts at 1 + 2 * 1450 ns = 2.901 us, lasts 1 us.
    bool found = false;
    for (const json& e : trace["traceEvents"])
        if (e["ph"] == "X" && e["pid"] == 1 && e["tid"] == perfettoTid(ActivityKind::Compute, 0) &&
            std::abs(e["ts"].get<double>() - 2.901) < 1e-9) {
            EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 1.0);
            EXPECT_EQ(e["name"], "fwd_matmul");
            found = true;
        }
    EXPECT_TRUE(found);
    int processNames = 0, threadNames = 0, counters = 0;
    for (const json& e : trace["traceEvents"]) {
        processNames += e["name"] == "process_name";
        threadNames += e["name"] == "thread_name";
        counters += e["ph"] == "C";
    }
    EXPECT_EQ(processNames, 3);    // 2 NPUs + Network
    EXPECT_EQ(threadNames, 2 * 4); // compute, communication, memory, cpu per NPU
    EXPECT_EQ(counters, static_cast<int>(r.links.size() * 16));
    EXPECT_EQ(s.flows, 2u);
}

TEST(PerfettoExport, OverlappingIntervalsGoToExtraLanes) {
    SyntheticRunShape shape;
    shape.npus = 1;
    shape.overlappingComm = true;
    const RunResult r = makeSyntheticRun(shape);
    const std::vector<int> lanes = assignLanes(r);
    int extra = 0;
    for (size_t i = 0; i < lanes.size(); ++i)
        if (lanes[i] > 0) {
            ++extra;
            EXPECT_EQ(r.activities[i].nodeId, 999u);
        }
    EXPECT_EQ(extra, 1);
    const json trace = exportJson(r);
    expectWellFormed(trace);
    bool laneNamed = false;
    for (const json& e : trace["traceEvents"])
        laneNamed = laneNamed || (e["name"] == "thread_name" &&
                                  e["tid"] == perfettoTid(ActivityKind::Communication, 1) &&
                                  e["args"]["name"] == "communication #2");
    EXPECT_TRUE(laneNamed);
}

TEST(PerfettoExport, OverBudgetIsCutWithATruncatedMarker) {
    SyntheticRunShape shape;
    shape.npus = 16;
    shape.steps = 50;
    const RunResult r = makeSyntheticRun(shape);
    PerfettoOptions o;
    o.sizeBudgetBytes = 60'000;
    PerfettoSummary s;
    std::ostringstream out;
    s = writePerfettoTrace(out, r, o);
    const json trace = json::parse(out.str());
    expectWellFormed(trace);
    ASSERT_TRUE(s.truncated);
    EXPECT_GT(s.estimatedBytes, o.sizeBudgetBytes);
    EXPECT_LT(out.str().size(), o.sizeBudgetBytes * 12 / 10);
    EXPECT_LT(s.slices, r.activities.size());
    EXPECT_NE(s.message.find("cut at"), std::string::npos);
    EXPECT_TRUE(trace["otherData"].contains("truncated"));
    bool marker = false;
    const double cutUs = s.cutAt.us();
    for (const json& e : trace["traceEvents"]) {
        marker = marker || (e["name"] == "truncated" && e["ph"] == "i");
        if (e["ph"] == "X") {
            EXPECT_LT(e["ts"].get<double>(), cutUs);
        }
    }
    EXPECT_TRUE(marker);
}

TEST(PerfettoExport, SplitFilesCoverEverySliceOnce) {
    SyntheticRunShape shape;
    shape.npus = 16;
    shape.steps = 50;
    const RunResult r = makeSyntheticRun(shape);
    const auto dir = std::filesystem::temp_directory_path() / "astrolabe_perfetto_split";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    PerfettoOptions o;
    o.sizeBudgetBytes = 60'000;
    const PerfettoSummary s = writePerfettoTraceFiles((dir / "trace.json").string(), r, o);
    ASSERT_GT(s.files.size(), 1u);
    EXPECT_EQ(s.files[0], (dir / "trace.part1.json").string());
    EXPECT_EQ(s.slices, r.activities.size());
    size_t slices = 0;
    for (const std::string& f : s.files) {
        std::ifstream in(f);
        const json trace = json::parse(in);
        expectWellFormed(trace);
        for (const json& e : trace["traceEvents"])
            slices += e["ph"] == "X";
    }
    EXPECT_EQ(slices, r.activities.size());
    std::filesystem::remove_all(dir);
}

TEST(PerfettoExport, LocalMemoryInUseIsACounterTrackPerNpu) {
    SyntheticRunShape shape;
    shape.npus = 2;
    RunResult r = makeSyntheticRun(shape);
    r.memoryUsage.resize(2);
    r.memoryUsage[1] = {
        {SimTime::zero(), 0}, {SimTime::fromNs(1000), 4096}, {SimTime::fromNs(2500), 1024}};
    PerfettoOptions o;
    o.linkCounters = false;
    PerfettoSummary s;
    const json trace = exportJson(r, o, &s);
    expectWellFormed(trace);
    std::vector<std::pair<double, uint64_t>> points;
    for (const json& e : trace["traceEvents"])
        if (e["ph"] == "C" && e["name"] == "local memory") {
            EXPECT_EQ(e["pid"], 1);
            points.emplace_back(e["ts"].get<double>(), e["args"]["bytes"].get<uint64_t>());
        }
    const std::vector<std::pair<double, uint64_t>> expected{{0.0, 0}, {1.0, 4096}, {2.5, 1024}};
    EXPECT_EQ(points, expected);
    EXPECT_EQ(s.counters, 3u);
    o.memoryCounters = false;
    EXPECT_EQ(exportJson(r, o, &s).dump().find("local memory"), std::string::npos);
}
