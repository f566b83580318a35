// Graph platforms in project files and edge-list CSVs (docs/graph-platforms.md): what is read,
// what round-trips, and that bad input is refused with file, line, key, expected and found.
#include "ConfigTestSupport.h"
#include "TestPaths.h"
#include "core/InputFile.h"
#include "export/GraphExport.h"
#include "graph/GraphCsv.h"
#include "project/ProjectFile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using astrolabe::configtest::errorText;
using astrolabe::test::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string kTail = "system:\n  algorithms: [ring]\n  chunks: 1\n"
                          "workload:\n  microbenchmark: {collective: all-reduce, size: 1 MiB}\n";

SimulationSpec parse(const std::string& platform) {
    return parseProject("name: g\nplatform:\n" + platform + kTail, "p.yaml");
}

std::string parseError(const std::string& platform) {
    return errorText([&] { parse(platform); });
}

const std::string kStar = "  graph:\n"
                          "    npus: 3\n"
                          "    switches: 1\n"
                          "    links:\n"
                          "      - {from: npu0, to: sw0, bandwidth: 50 GB/s, latency: 500 ns}\n"
                          "      - {from: npu1, to: sw0, bandwidth: 50 GB/s, latency: 500 ns}\n"
                          "      - {from: npu2, to: sw0, bandwidth: 25 GB/s, latency: 1 us, "
                          "bidirectional: false}\n"
                          "      - {from: sw0, to: npu2, bandwidth: 25 GB/s, latency: 1 us, "
                          "bidirectional: false}\n";

} // namespace

TEST(GraphProject, ReadsLinksAndRoundTrips) {
    const SimulationSpec s = parse(kStar);
    ASSERT_TRUE(s.platform.graph);
    const GraphSpec& g = *s.platform.graph;
    EXPECT_EQ(g.npus, 3);
    EXPECT_EQ(g.switches, 1);
    ASSERT_EQ(g.links.size(), 4u);
    EXPECT_EQ(g.links[2].from, 2);
    EXPECT_EQ(g.links[2].to, 3);
    EXPECT_FALSE(g.links[2].bidirectional);
    EXPECT_EQ(g.links[2].bandwidthBytesPerSecond, 25e9);
    EXPECT_EQ(g.links[2].latencyNs, 1000);
    EXPECT_EQ(g.links[2].line, 9);
    EXPECT_EQ(s.platform.npuCount(), 3);
    ASSERT_EQ(s.platform.dimensions.size(), 1u);
    EXPECT_EQ(s.platform.dimensions[0].bandwidthBytesPerSecond, 25e9) << "nominal: the lowest";

    TempDir dir;
    const std::string path = dir.path("saved.yaml");
    saveProject(s, path);
    const SimulationSpec again = loadProject(path);
    EXPECT_EQ(again.platform, s.platform);
}

TEST(GraphProject, GeneratorsAndLogicalDimensions) {
    const SimulationSpec s = parse("  graph: {generator: torus2d, size: [4, 2], bandwidth: 100 "
                                   "GB/s, latency: 100 ns, logical-dimensions: [4, 2]}\n");
    ASSERT_TRUE(s.platform.graph);
    EXPECT_EQ(s.platform.graph->npus, 8);
    EXPECT_EQ(s.platform.graph->links.size(), 12u);
    ASSERT_EQ(s.platform.dimensions.size(), 2u);
    EXPECT_EQ(s.platform.dimensions[1].size, 2);
    const SimulationSpec r = parse("  graph: {generator: rail, size: [2], bandwidth: 900 GB/s, "
                                   "latency: 100 ns, second-bandwidth: 50 GB/s, second-latency: "
                                   "1 us}\n");
    EXPECT_EQ(r.platform.graph->npus, 16);
    EXPECT_EQ(r.platform.graph->links.back().bandwidthBytesPerSecond, 50e9);
    EXPECT_EQ(r.platform.graph->links.back().latencyNs, 1000);
}

// FRED (docs/case-studies.md): k NPUs under each of g level-1 switches, those under one
// level-2 switch; NPU links at `bandwidth`, switch-to-switch links at `second-bandwidth`.
TEST(GraphProject, FredGenerator) {
    const SimulationSpec s = parse("  graph: {generator: fred, size: [8, 4], bandwidth: 400 GB/s, "
                                   "latency: 20 ns, second-bandwidth: 3200 GB/s}\n");
    const GraphSpec& g = *s.platform.graph;
    EXPECT_EQ(g.npus, 32);
    EXPECT_EQ(g.switches, 5);
    ASSERT_EQ(g.links.size(), 36u);
    EXPECT_EQ(g.links[9].from, 9);
    EXPECT_EQ(g.links[9].to, 32 + 1);
    EXPECT_EQ(g.links[9].bandwidthBytesPerSecond, 400e9);
    EXPECT_EQ(g.links[33].from, 32 + 1);
    EXPECT_EQ(g.links[33].to, 32 + 4);
    EXPECT_EQ(g.links[33].bandwidthBytesPerSecond, 3200e9);
    EXPECT_EQ(g.links[33].latencyNs, 20);
    const SimulationSpec one = parse("  graph: {generator: fred, size: [4, 1], bandwidth: 1 GB/s, "
                                     "latency: 1 ns}\n");
    EXPECT_EQ(one.platform.graph->switches, 1) << "one group: no level-2 switch";
}

TEST(GraphProject, BadFredParametersNameFileLineKeyExpectedAndFound) {
    struct Case {
        const char* parameters; ///< after "generator: fred, "
        std::vector<const char*> expected;
    };
    const std::vector<Case> cases{
        {"size: [8], bandwidth: 1 GB/s, latency: 1 ns",
         {"p.yaml:3:", "platform.graph.generator: fred takes size [k NPUs per level-1 switch, g "
                       "level-1 switches], found 1 numbers"}},
        {"size: [1, 1], bandwidth: 1 GB/s, latency: 1 ns", {"fred needs at least 2 NPUs, found 1"}},
        {"size: [8, 0], bandwidth: 1 GB/s, latency: 1 ns",
         {"every size must be between 1 and", "found 0"}},
        {"size: [8, 8], bandwidth: 1 GB/s, latency: 1 ns, second-bandwidth: fast",
         {"p.yaml:3:", "platform.graph.second-bandwidth", "found \"fast\""}},
    };
    for (const Case& c : cases) {
        const std::string e =
            parseError(std::string("  graph: {generator: fred, ") + c.parameters + "}\n");
        for (const char* expected : c.expected)
            EXPECT_THAT(e, HasSubstr(expected)) << c.parameters;
    }
}

TEST(GraphProject, BadGraphsNameFileLineKeyExpectedAndFound) {
    std::string e = parseError(
        "  graph:\n    npus: 2\n    links:\n      - {from: npu0, to: sw4, bandwidth: 1 GB/s, "
        "latency: 1 ns}\n");
    EXPECT_THAT(e, HasSubstr("p.yaml:6:"));
    EXPECT_THAT(e, HasSubstr("platform.graph.links[0].to: expected npu0..npu1, found \"sw4\""));
    e = parseError("  graph:\n    npus: 2\n    links:\n      - {from: npu1, to: npu1, "
                   "bandwidth: 1 GB/s, latency: 1 ns}\n");
    EXPECT_THAT(e, HasSubstr("platform.graph.links[0]: a link from npu1 to itself"));
    e = parseError("  graph:\n    npus: 2\n    links:\n      - {from: npu0, to: npu1, "
                   "bandwidth: 0 GB/s, latency: 1 ns}\n");
    EXPECT_THAT(e, HasSubstr("p.yaml:6:43: platform.graph.links[0].bandwidth:"));
    EXPECT_THAT(e, HasSubstr("found \"0 GB/s\" (must be greater than zero)"));
    e = parseError("  graph:\n    npus: 3\n    links:\n      - {from: npu0, to: npu1, "
                   "bandwidth: 1 GB/s, latency: 1 ns}\n");
    EXPECT_THAT(e, HasSubstr("platform.graph: npu2 cannot be reached from npu0"));
    e = parseError("  graph:\n    npus: 2\n    links:\n      - {from: npu0, to: npu1, "
                   "bandwidth: 1 GB/s, latency: 1 ns, bidirektional: false}\n");
    EXPECT_THAT(e, HasSubstr("bidirektional"));
    EXPECT_THAT(e, HasSubstr("bidirectional"));
    e = parseError("  graph: {generator: mesh, size: [4, 4], bandwidth: 1 GB/s, latency: 1 ns}\n");
    EXPECT_THAT(e, HasSubstr("platform.graph.generator: unknown graph generator \"mesh\""));
    EXPECT_THAT(e, HasSubstr("mesh2d"));
    e = parseError("  graph: {generator: mesh2d, size: [4, 4], bandwidth: 1 GB/s, latency: 1 "
                   "ns, logical-dimensions: [4, 3]}\n");
    EXPECT_THAT(e, HasSubstr("multiply to the graph's 16 NPUs, found a product of 12"));
    // Eight sizes of 256 multiply past 2^63: refused as such (a wrapped product read 0).
    e = parseError("  graph: {generator: mesh2d, size: [16, 16], bandwidth: 1 GB/s, latency: 1 "
                   "ns, logical-dimensions: [256, 256, 256, 256, 256, 256, 256, 256]}\n");
    EXPECT_THAT(e,
                HasSubstr("multiply to the graph's 256 NPUs, found a product of more than 2^63"));
    e = parseError("  graph: {generator: mesh2d, size: [4, 4], bandwidth: 1 GB/s, latency: 1 "
                   "ns, logical-dimensions: [16, 1]}\n");
    EXPECT_THAT(e, HasSubstr("logical-dimensions[1]: expected a size of at least 2, found 1"));
    e = parseError("  graph: {npus: 2}\n  dimensions: []\n");
    EXPECT_THAT(e, HasSubstr("found several"));
}

// Every way a platform's bandwidth is written is held to [1 KB/s, 10^18 B/s] (docs/limits.md),
// refused where it is written: a dimension, a graph link, a generator's bandwidths, an edge-list
// CSV. A dimension of 1e-300 GB/s once ran into "simulated time overflow in multiplication".
TEST(GraphProject, BandwidthsOutsideTheLimitsAreRefusedWhereTheyAreWritten) {
    struct Case {
        std::string platform;
        std::string where;
    };
    const std::vector<Case> cases{
        {"  dimensions:\n    - {type: Ring, size: 8, bandwidth: 1e-300 GB/s, latency: 1 ns}\n",
         "p.yaml:4:40: platform.dimensions[0].bandwidth"},
        {"  dimensions:\n    - {type: Switch, size: 4, bandwidth: 2e18 B/s, latency: 1 ns}\n",
         "platform.dimensions[0].bandwidth"},
        {"  graph:\n    npus: 2\n    links:\n      - {from: npu0, to: npu1, bandwidth: 999 B/s, "
         "latency: 1 ns}\n",
         "p.yaml:6:43: platform.graph.links[0].bandwidth"},
        {"  graph: {generator: ring, size: [4], bandwidth: 0.5 KB/s, latency: 1 ns}\n",
         "platform.graph.bandwidth"},
        {"  graph: {generator: fred, size: [4, 2], bandwidth: 1 GB/s, latency: 1 ns, "
         "second-bandwidth: 1e30 GB/s}\n",
         "platform.graph.second-bandwidth"},
    };
    for (const Case& c : cases) {
        const std::string e = parseError(c.platform);
        EXPECT_THAT(e, HasSubstr(c.where)) << c.platform;
        EXPECT_THAT(e, HasSubstr("expected a bandwidth from 1 KB/s to 1000000 TB/s")) << c.platform;
    }
    const std::string csv = errorText([] {
        parseGraphEdgeCsv("from,to,bandwidth,latency\nnpu0,npu1,50 GB/s,1 ns\n"
                          "npu1,npu0,1e-300 GB/s,1 ns\n",
                          "e.csv");
    });
    EXPECT_THAT(csv, HasSubstr("e.csv:3:11: bandwidth: expected a bandwidth from 1 KB/s"));
    EXPECT_THAT(csv, HasSubstr("found \"1e-300 GB/s\""));
}

TEST(GraphProject, EdgeListCsv) {
    const GraphSpec g = parseGraphEdgeCsv("from,to,bandwidth,latency,bidirectional\n"
                                          "npu0,sw0,50 GB/s,500 ns,true\n"
                                          "# a comment\n"
                                          "npu1,sw0,50 GB/s,500 ns\n"
                                          "npu2,npu0,10 GB/s,1 us,false\n"
                                          "npu0,npu2,10 GB/s,1 us,false\n",
                                          "e.csv");
    EXPECT_EQ(g.npus, 3);
    EXPECT_EQ(g.switches, 1);
    ASSERT_EQ(g.links.size(), 4u);
    EXPECT_EQ(g.links[0].to, 3);
    EXPECT_FALSE(g.links[2].bidirectional);
    EXPECT_EQ(g.links[3].line, 6);
    std::string e = errorText(
        [] { parseGraphEdgeCsv("from,to,bandwidth,latency\nnpu0,npu1,fast,1 ns\n", "e.csv"); });
    EXPECT_THAT(e, HasSubstr("e.csv:2:11: bandwidth"));
    e = errorText([] {
        parseGraphEdgeCsv("from,to,bandwidth,latency\nnpu0,npu0,1 GB/s,1 ns\n", "e.csv", 2);
    });
    EXPECT_THAT(e, HasSubstr("e.csv:2"));
    EXPECT_THAT(e, HasSubstr("to itself"));
    // One link per direction between two devices: a second one's bandwidth went unused (the
    // routes take one), so two NVLinks are one link of their summed bandwidth. A one-way link
    // beside another one-way link the other way is fine.
    e = errorText([] {
        parseGraphEdgeCsv("from,to,bandwidth,latency\nnpu0,npu1,25 GB/s,1 ns\nnpu1,npu0,25 GB/s,"
                          "1 ns\n",
                          "e.csv", 2);
    });
    EXPECT_THAT(e, HasSubstr("e.csv:3"));
    EXPECT_THAT(e, HasSubstr("npu1 -> npu0 is linked twice (also on line 2): give one link with "
                             "the bandwidths added"));
    EXPECT_EQ(parseGraphEdgeCsv("from,to,bandwidth,latency,bidirectional\nnpu0,npu1,25 GB/s,1 "
                                "ns,false\nnpu1,npu0,25 GB/s,1 ns,false\n",
                                "e.csv", 2)
                  .links.size(),
              2u);
    e = errorText([] { parseGraphEdgeCsv("a,b\n", "e.csv"); });
    EXPECT_THAT(e, HasSubstr("e.csv:1:1: header: expected the header"));
    // A spreadsheet quotes its fields (header included): "npu0" is the device npu0.
    const GraphSpec quoted = parseGraphEdgeCsv("\"from\",\"to\",\"bandwidth\",\"latency\"\n"
                                               "\"npu0\",\"npu1\",\"50 GB/s\",\"1 us\"\n",
                                               "q.csv");
    ASSERT_EQ(quoted.links.size(), 1u);
    EXPECT_EQ(quoted.links[0].bandwidthBytesPerSecond, 50e9);
    e = errorText([] {
        parseGraphEdgeCsv("from,to,bandwidth,latency\nnpu0,\"npu1,50 GB/s,1 us\n", "q.csv");
    });
    EXPECT_THAT(e, HasSubstr("q.csv:2:6: link: a quote opened here is not closed on this line"));
}

TEST(GraphProject, DotAndGraphMl) {
    const GraphSpec g = *parse(kStar).platform.graph;
    const std::string dot = graphDot(g, "star");
    EXPECT_THAT(dot, HasSubstr("digraph \"star\" {"));
    EXPECT_THAT(dot, HasSubstr("sw0 [shape=ellipse];"));
    EXPECT_THAT(dot, HasSubstr("npu0 -> sw0 [bandwidth=50000000000, latency=500, dir=both];"));
    EXPECT_THAT(dot, HasSubstr("npu2 -> sw0 [bandwidth=25000000000, latency=1000];"));
    const std::string ml = graphGraphMl(g);
    EXPECT_THAT(ml, HasSubstr("<node id=\"sw0\"><data key=\"kind\">switch</data></node>"));
    EXPECT_THAT(ml, HasSubstr("<edge id=\"e3\" source=\"sw0\" target=\"npu2\">"));
}

TEST(GraphProject, BundledDgx1ProjectLoads) {
    const SimulationSpec s = loadProject(std::string(ASTROLABE_TEST_DATA_DIR) +
                                         "/../../projects/graph-dgx1/project.yaml");
    ASSERT_TRUE(s.platform.graph);
    EXPECT_EQ(s.platform.graph->npus, 8);
    EXPECT_EQ(s.platform.graph->links.size(), 16u);
    EXPECT_EQ(s.options.backend, NetworkBackend::CongestionAware);
}

// The graph group's routing setting (docs/project-format.md): read, written only when not the
// default (older projects stay byte-identical), and a bad value names key, expected and found.
TEST(GraphProject, RoutingRoundTripsAndBadValuesAreRefused) {
    EXPECT_EQ(parse(kStar).platform.graph->routing, GraphRouting::Shortest);
    const SimulationSpec s = parse("  graph: {generator: fattree, size: [4], bandwidth: 100 "
                                   "GB/s, latency: 100 ns, routing: ecmp}\n");
    ASSERT_TRUE(s.platform.graph);
    EXPECT_EQ(s.platform.graph->routing, GraphRouting::Ecmp);
    TempDir dir;
    saveProject(s, dir.path("ecmp.yaml"));
    EXPECT_THAT(readInputFile(dir.path("ecmp.yaml"), "the project"),
                HasSubstr("\n    routing: ecmp\n"));
    EXPECT_EQ(loadProject(dir.path("ecmp.yaml")).platform, s.platform);
    saveProject(parse(kStar), dir.path("shortest.yaml"));
    EXPECT_THAT(readInputFile(dir.path("shortest.yaml"), "the project"), Not(HasSubstr("routing")));

    const std::string e = parseError(kStar + "    routing: random\n");
    EXPECT_THAT(e, HasSubstr("p.yaml:11:"));
    EXPECT_THAT(e, HasSubstr("platform.graph.routing: unknown graph routing \"random\"; expected "
                             "shortest or ecmp"));
    EXPECT_THAT(parseError(kStar + "    routing: [ecmp]\n"), HasSubstr("platform.graph.routing"));
}

// Saved editor positions (docs/graph-platforms.md): all devices or none, each [x, y].
TEST(GraphProject, PositionsRoundTripAndBadOnesAreRefused) {
    const SimulationSpec s = parse(kStar + "    positions: {npu0: [0, 0], npu1: [80.5, 0], "
                                           "npu2: [-40, 1e3], sw0: [40, 60]}\n");
    ASSERT_TRUE(s.platform.graph->hasPositions());
    EXPECT_EQ(s.platform.graph->positions[2], (GraphPoint{-40, 1000}));
    EXPECT_EQ(s.platform.graph->positions[3], (GraphPoint{40, 60}));
    TempDir dir;
    saveProject(s, dir.path("placed.yaml"));
    const std::string text = readInputFile(dir.path("placed.yaml"), "the project");
    EXPECT_THAT(text, HasSubstr("    positions:\n      npu0: [0, 0]\n      npu1: [80.5, 0]\n"
                                "      npu2: [-40, 1000]\n      sw0: [40, 60]\n"));
    EXPECT_EQ(loadProject(dir.path("placed.yaml")).platform, s.platform);

    std::string e = parseError(kStar + "    positions: {npu0: [0, 0]}\n");
    EXPECT_THAT(e, HasSubstr("p.yaml:11:"));
    EXPECT_THAT(e, HasSubstr("platform.graph.positions: expected a position for every device, "
                             "found none for npu1"));
    e = parseError(kStar + "    positions: {npu0: [0, 0], npu1: [3]}\n");
    EXPECT_THAT(e, HasSubstr("platform.graph.positions.npu1: expected [x, y], found a list of 1"));
    e = parseError(kStar + "    positions: {npu0: [0, 0], sw1: [1, 1]}\n");
    EXPECT_THAT(e, HasSubstr("expected npu0..npu2 or sw0..sw0, found \"sw1\""));
    e = parseError(kStar + "    positions: {npu0: [x, 0]}\n");
    EXPECT_THAT(e, HasSubstr("platform.graph.positions.npu0[0]"));
    EXPECT_THAT(parseError(kStar + "    positions: [1, 2]\n"),
                HasSubstr("platform.graph.positions: expected a map of device: [x, y]"));
}
