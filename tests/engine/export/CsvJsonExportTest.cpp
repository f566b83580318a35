#include "TestPaths.h"
#include "export/AstraReport.h"
#include "export/CsvExport.h"
#include "export/NumberFormat.h"
#include "export/ResultJson.h"
#include "export/SpecJson.h"
#include "project/ProjectFile.h"
#include "support/SyntheticRun.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace astrolabe;
using astrolabe::test::makeSyntheticRun;
using astrolabe::test::SyntheticRunShape;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string f; std::getline(in, f, ',');)
        out.push_back(f);
    return out;
}

} // namespace

TEST(NumberFormat, ExactDecimalsWithoutBinaryRounding) {
    EXPECT_EQ(nsText(SimTime::fromPs(936250)), "936.25");
    EXPECT_EQ(nsText(SimTime::fromNs(117780)), "117780");
    EXPECT_EQ(usText(SimTime::fromPs(1)), "0.000001");
    EXPECT_EQ(usText(SimTime::fromPs(-1500000)), "-1.5");
    EXPECT_EQ(usText(SimTime::fromPs(300000)), "0.3");
}

TEST(CsvExport, NpuRowsCarryTheSummariesInNanoseconds) {
    SyntheticRunShape shape;
    shape.npus = 3;
    const RunResult r = makeSyntheticRun(shape);
    std::ostringstream out;
    writeNpuCsv(out, r);
    const auto rows = lines(out.str());
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(fields(rows[0]).size(), 15u);
    // NPU 2: last all-reduce ends at 2 + 3 * (1000 + 450) + 1000 + 600 ns (closed form of the
    // shape).
    const auto row2 = fields(rows[3]);
    ASSERT_EQ(row2.size(), 15u);
    EXPECT_EQ(row2[0], "2");
    EXPECT_EQ(row2[2], std::to_string(2 + 3 * 1450 + 1600));
    EXPECT_EQ(row2[3], "4000");                                     // 4 compute ops of 1000 ns
    EXPECT_EQ(row2[5], std::to_string(2 + 3 * 1450 + 1600 - 4000)); // finish - gpu
}

TEST(CsvExport, CollectiveAndLinkRows) {
    const RunResult r = makeSyntheticRun();
    std::ostringstream c, l;
    writeCollectiveCsv(c, r);
    writeLinkCsv(l, r);
    const auto crow = lines(c.str());
    ASSERT_EQ(crow.size(), r.collectives.size() + 1);
    const auto first = fields(crow[1]);
    EXPECT_EQ(first[2], "ALL_REDUCE");
    EXPECT_EQ(first[3], "1048576");
    EXPECT_EQ(first[8], "600");
    const auto lrow = lines(l.str());
    ASSERT_EQ(lrow.size(), r.links.size() + 1);
    const auto link0 = fields(lrow[1]);
    EXPECT_EQ(link0[1], "0");
    EXPECT_EQ(link0[2], "1");
    EXPECT_EQ(link0[7], "1200"); // busy = 600 ns * 4 steps / 2
    EXPECT_NEAR(std::stod(link0[8]), 1200.0 / r.endTime.ns(), 1e-12);
}

TEST(ResultJson, RoundTripsThroughAParserWithNanosecondTimes) {
    RunResult r = makeSyntheticRun();
    r.activities[0].start = SimTime::fromPs(936250);
    std::ostringstream out;
    SimulationSpec spec;
    spec.name = "p";
    spec.platform.dimensions = {{BlockKind::Ring, 4, 50e9, 936.25},
                                {BlockKind::Switch, 2, 25e9, 0}};
    writeResultJson(out, r, &spec);
    const nlohmann::json j = nlohmann::json::parse(out.str());
    EXPECT_EQ(j["format"], "astrolabe-result");
    EXPECT_EQ(j["npuCount"], 8);
    EXPECT_DOUBLE_EQ(j["endTimeNs"].get<double>(), r.endTime.ns());
    EXPECT_DOUBLE_EQ(j["activities"][0]["startNs"].get<double>(), 936.25);
    EXPECT_EQ(j["activities"].size(), r.activities.size());
    EXPECT_EQ(j["activities"][2]["kind"], "compute");
    EXPECT_EQ(j["collectives"][0]["type"], "ALL_REDUCE");
    EXPECT_EQ(j["links"][3]["utilization"].size(), 16u);
    EXPECT_EQ(j["configuration"]["platform"]["npuCount"], 8);
    EXPECT_EQ(j["configuration"]["platform"]["dimensions"][1]["kind"], "Switch");
    EXPECT_EQ(j["reportLines"].back(), "[system] Exiting");
}

TEST(SpecJson, TextIsStableAndReflectsEveryChange) {
    SimulationSpec a;
    a.platform.dimensions = {{BlockKind::Ring, 8, 50e9, 500}};
    a.system.allReduce = {parseAlgorithm("ring")};
    SimulationSpec b = a;
    EXPECT_EQ(specToJsonText(a), specToJsonText(b));
    b.options.numQueuesPerDim = 2;
    EXPECT_NE(specToJsonText(a), specToJsonText(b));
    const nlohmann::json j = toJson(a);
    EXPECT_EQ(j["system"]["allReduce"][0], "ring");
    EXPECT_EQ(j["options"]["backend"], "analytical-congestion-unaware");
}

// A run read back from the project database gets its settings from the stored JSON: reading it
// and writing it again gives the same text for the example projects and for a spec where every
// custom-written setting (algorithms, endpoint delay, backend, dependencies, memory type) differs
// from the default. The Summary's explanation used the default local-memory bandwidth before.
TEST(SpecJson, ReadsBackWhatItWrote) {
    std::vector<SimulationSpec> specs;
    for (const char* project :
         {"quickstart/project.yaml", "hgx-h100/project.yaml", "in-switch/project.yaml",
          "libra/w2d.yaml", "case-studies/memory/platform.yaml"})
        specs.push_back(
            loadProject(std::string(ASTROLABE_TEST_DATA_DIR + "/../../projects/") + project));
    SimulationSpec custom = specs.front();
    custom.system.localMemBandwidthGBps = 123.5;
    custom.system.endpointDelayNs = 7;
    custom.system.allGather = {parseAlgorithm("direct")};
    custom.system.customAllToAll = "a2a.json";
    custom.system.perNodeCustom = {{3, "node3"}};
    custom.options.backend = NetworkBackend::CongestionAware;
    custom.options.dataDepsOnly = true;
    custom.memory.type = RemoteMemoryType::PerNpuMemoryExpansion;
    custom.commGroups = {{1, {0, 2, 4}}, {2, {1, 3}}};
    specs.push_back(custom);
    for (const SimulationSpec& spec : specs) {
        const std::string text = specToJsonText(spec);
        const SimulationSpec back = specFromJsonText(text);
        EXPECT_EQ(specToJsonText(back), text);
        EXPECT_EQ(back.system.localMemBandwidthGBps, spec.system.localMemBandwidthGBps);
        EXPECT_EQ(back.platform.npuCount(), spec.platform.npuCount());
    }
    EXPECT_EQ(specFromJsonText(specToJsonText(custom)).options.backend,
              NetworkBackend::CongestionAware);
    // Not JSON, or another version's odd values: defaults, no exception.
    EXPECT_EQ(specFromJsonText("not json").platform.dimensions.size(), 0u);
    const SimulationSpec odd = specFromJsonText(
        R"({"system": {"localMemBandwidthGBps": "fast", "allReduce": "ring"}, "options": 3})");
    EXPECT_EQ(odd.system.localMemBandwidthGBps, SimulationSpec{}.system.localMemBandwidthGBps);
}

// A project named in another encoding (bytes 0xFF 0xFE) is stored: the invalid bytes become
// U+FFFD in the JSON instead of an exception after the run.
TEST(SpecJson, NamesThatAreNotUtf8AreWrittenWithReplacementCharacters) {
    SimulationSpec spec;
    spec.name = "\xff\xfe bad";
    spec.platform.dimensions = {{BlockKind::Ring, 8, 50e9, 500}};
    std::string text;
    ASSERT_NO_THROW(text = specToJsonText(spec));
    const nlohmann::json j = nlohmann::json::parse(text);
    EXPECT_EQ(j["name"], "\xef\xbf\xbd\xef\xbf\xbd bad");
}

TEST(AstraReport, AddsTimestampLoggerAndLevelPrefixes) {
    EXPECT_EQ(formatAstraLine("[workload] sys[0] finished, 117780 cycles, exposed communication "
                              "117780 cycles.",
                              "2026-01-02 03:04:05.678"),
              "[2026-01-02 03:04:05.678] [workload] [info] sys[0] finished, 117780 cycles, "
              "exposed communication 117780 cycles.");
    EXPECT_EQ(formatAstraLine("[system] [warning] Exiting", "T"), "[T] [system] [warning] Exiting");
    EXPECT_EQ(formatAstraLine("no logger", "T"), "[T] [astra] [info] no logger");
    const RunResult r = makeSyntheticRun();
    std::ostringstream out;
    writeAstraReport(out, r);
    const auto printed = lines(out.str());
    ASSERT_EQ(printed.size(), r.reportLines.size());
    // "[YYYY-MM-DD HH:MM:SS.mmm] " is 26 characters.
    EXPECT_EQ(printed[0].size(), 26 + std::string("[workload] [info] ").size() +
                                     r.reportLines[0].size() - std::string("[workload] ").size());
    EXPECT_EQ(printed[0][0], '[');
    EXPECT_EQ(printed[0][24], ']');
    EXPECT_EQ(printed[0][20], '.');
}

TEST(ResultJson, StreamedDocumentEqualsTheTree) {
    test::SyntheticRunShape shape;
    shape.overlappingComm = true;
    const RunResult r = makeSyntheticRun(shape);
    std::ostringstream out;
    const nlohmann::json extra = {{"run", {{"id", 7}}}};
    writeResultJson(out, r, nullptr, &extra);
    nlohmann::json expected = resultToJson(r);
    expected["run"] = {{"id", 7}};
    EXPECT_EQ(nlohmann::json::parse(out.str()), expected);
}

// A stored run of a graph platform shows the platform it ran on: every device and link, the
// editor's positions and the routing come back (before, only the routing was stored).
TEST(SpecJson, GraphPlatformsComeBackWhole) {
    SimulationSpec spec = loadProject(ASTROLABE_SOURCE_DIR + "/projects/graph-dgx1/project.yaml");
    ASSERT_TRUE(spec.platform.graph);
    GraphSpec& graph = *spec.platform.graph;
    ASSERT_GT(graph.links.size(), 10u);
    graph.routing = GraphRouting::Ecmp;
    graph.links.front().bidirectional = false;
    graph.links.back().latencyNs = 123.25;
    for (int d = 0; d < graph.deviceCount(); ++d)
        graph.positions.push_back({10.5 * d, -3.0 * d});
    const SimulationSpec back = specFromJsonText(specToJsonText(spec));
    ASSERT_TRUE(back.platform.graph);
    EXPECT_EQ(back.platform, spec.platform); // devices, links, positions, routing, dimensions
    EXPECT_EQ(back.platform.graph->generator, graph.generator);
    EXPECT_EQ(back.platform.npuCount(), spec.platform.npuCount());
}

// A run stored before graphs were stored whole (only the routing), or a database edited by hand
// into a graph that does not hold together: no graph rather than a part of one.
TEST(SpecJson, GraphsThatDoNotHoldTogetherAreNotRestored) {
    EXPECT_FALSE(
        specFromJsonText(R"({"platform": {"graph": {"routing": "ecmp"}}})").platform.graph);
    const auto withLinks = [](const std::string& links, int npus = 2) {
        return specFromJsonText(R"({"platform": {"graph": {"npus": )" + std::to_string(npus) +
                                R"(, "switches": 0, "links": )" + links + "}}}");
    };
    EXPECT_TRUE(withLinks("[[0, 1, 1e9, 10, true]]").platform.graph);
    EXPECT_FALSE(withLinks("[[0, 7, 1e9, 10, true]]").platform.graph); // no device 7
    EXPECT_FALSE(withLinks("[[0, 1, 1e9]]").platform.graph);           // a link cut short
    EXPECT_FALSE(withLinks("[[0, 1, -5, 10, true]]").platform.graph);  // bandwidth not > 0
    EXPECT_FALSE(withLinks("[]", 2).platform.graph);                   // NPUs not connected
    EXPECT_FALSE(withLinks("[[0, 1, 1e9, 10, true]]", 2'000'000'000).platform.graph);
}
