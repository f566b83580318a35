// Large graphs within bounded time and memory (docs/graph-platforms.md, docs/limits.md): links
// listed in the project YAML are capped, and up to kMaxGraphLinks come from a CSV file the
// project names, read at the CSV reader's cost per link.
#include "ConfigTestSupport.h"
#include "core/InputFile.h"
#include "graph/GraphCsv.h"
#include "project/ProjectFile.h"
#include "support/Bounded.h"
#include "support/TempDir.h"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace astrolabe;
using ::testing::HasSubstr;

namespace {

const std::string kTail = "system:\n  algorithms: [ring]\n  chunks: 1\n"
                          "workload:\n  microbenchmark: {collective: all-reduce, size: 1 MiB}\n";

/// A ring of `npus` NPUs (both ways), then one-way links between distinct pairs of NPUs not next
/// to each other on the ring, up to `links` links: each direction between two NPUs is linked
/// once (a repeated one is refused, its bandwidth would go unused). line(a, b, bidirectional).
template <typename Line> std::string ringLinks(int npus, size_t links, Line line) {
    std::string text;
    size_t made = 0;
    for (int i = 0; i < npus && made < links; ++i, ++made)
        text += line(i, (i + 1) % npus, true);
    for (int a = 0; a < npus && made < links; ++a)
        for (int b = 0; b < npus && made < links; ++b) {
            const int gap = (b - a + npus) % npus;
            if (gap == 0 || gap == 1 || gap == npus - 1)
                continue;
            text += line(a, b, false);
            ++made;
        }
    return text;
}

} // namespace

// 1,000,001 links listed in the YAML (66 MB of text) used to take over 30 s and 3.9 GB; the
// project file is refused by its size before any YAML is built, naming the way out.
TEST(GraphLimits, AMillionLinksInTheYamlAreRefusedAtOnce) {
    const test::BoundedOutcome outcome = test::runBounded(
        [] {
            const std::string text =
                "name: big\nplatform:\n  graph:\n    npus: 1024\n    links:\n" +
                ringLinks(1024, 1'000'001,
                          [](int a, int b, bool) {
                              return "      - {from: npu" + std::to_string(a) + ", to: npu" +
                                     std::to_string(b) + ", bandwidth: 50 GB/s, latency: 500 ns}\n";
                          }) +
                kTail;
            try {
                parseProject(text, "big.yaml");
            } catch (const Error& e) {
                const std::string what = e.what();
                if (what.find("big.yaml") == std::string::npos ||
                    what.find("more than the limit of 8 MiB") == std::string::npos ||
                    what.find("links: edges.csv") == std::string::npos)
                    throw std::runtime_error("unclear message: " + what);
                return;
            }
            throw std::runtime_error("accepted");
        },
        20, size_t{768} << 20);
    EXPECT_TRUE(outcome.ok) << outcome.message << " (" << outcome.seconds << " s)";
}

// The same million links in a CSV file the project names are read like `graph import` reads
// them: accepted up to kMaxGraphLinks, in seconds and a few hundred megabytes.
TEST(GraphLimits, AMillionLinksFromTheProjectsCsvFileAreRead) {
    test::TempDir dir("graph_csv_links");
    {
        std::ofstream csv(dir.path("edges.csv"));
        csv << "from,to,bandwidth,latency,bidirectional\n"
            << ringLinks(1024, 1'000'001, [](int a, int b, bool both) {
                   return "npu" + std::to_string(a) + ",npu" + std::to_string(b) +
                          ",50 GB/s,500 ns," + (both ? "true\n" : "false\n");
               });
    }
    std::ofstream(dir.path("p.yaml")) << "name: big\nplatform:\n  graph:\n    npus: 1024\n"
                                         "    links: edges.csv\n"
                                      << kTail;
    const test::BoundedOutcome outcome = test::runBounded(
        [&] {
            const SimulationSpec spec = loadProject(dir.path("p.yaml"));
            if (!spec.platform.graph || spec.platform.graph->links.size() != 1'000'001)
                throw std::runtime_error("wrong link count");
        },
        60, size_t{1536} << 20);
    EXPECT_TRUE(outcome.ok) << outcome.message << " (" << outcome.seconds << " s)";
}

// Past kMaxInlineGraphLinks a saved project keeps its links in a CSV file beside it, and reads
// back to the same graph; a CSV file the project names is checked like `graph import`'s.
TEST(GraphLimits, ALargeGraphIsSavedWithItsLinksInACsvFile) {
    test::TempDir dir("graph_save_csv");
    std::ofstream(dir.path("edges.csv"))
        << "from,to,bandwidth,latency,bidirectional\n"
        << ringLinks(512, kMaxInlineGraphLinks + 1, [](int a, int b, bool both) {
               return "npu" + std::to_string(a) + ",npu" + std::to_string(b) + ",50 GB/s,1 us," +
                      (both ? "true\n" : "false\n");
           });
    std::ofstream(dir.path("p.yaml")) << "name: big\nplatform:\n  graph:\n    npus: 512\n"
                                         "    links: edges.csv\n"
                                      << kTail;
    const SimulationSpec spec = loadProject(dir.path("p.yaml"));
    saveProject(spec, dir.path("saved.yaml"));
    const std::string saved = readInputFile(dir.path("saved.yaml"), "saved");
    EXPECT_THAT(saved, HasSubstr("links: \"saved.links.csv\""));
    EXPECT_LT(saved.size(), 4096u);
    const SimulationSpec back = loadProject(dir.path("saved.yaml"));
    ASSERT_TRUE(back.platform.graph);
    ASSERT_EQ(back.platform.graph->links.size(), spec.platform.graph->links.size());
    for (size_t i = 0; i < back.platform.graph->links.size(); ++i) {
        const GraphLinkSpec& a = spec.platform.graph->links[i];
        const GraphLinkSpec& b = back.platform.graph->links[i];
        ASSERT_TRUE(a.from == b.from && a.to == b.to && a.latencyNs == b.latencyNs &&
                    a.bandwidthBytesPerSecond == b.bandwidthBytesPerSecond &&
                    a.bidirectional == b.bidirectional)
            << i;
    }
    std::ofstream(dir.path("bad.csv")) << "from,to,bandwidth,latency\nnpu0,npu99,50 GB/s,1 us\n";
    std::ofstream(dir.path("bad.yaml")) << "name: bad\nplatform:\n  graph:\n    npus: 2\n"
                                           "    links: bad.csv\n"
                                        << kTail;
    const std::string what = configtest::errorText([&] { loadProject(dir.path("bad.yaml")); });
    EXPECT_THAT(what, HasSubstr("bad.csv:2"));
    EXPECT_THAT(what, HasSubstr("npu99"));
    const std::string missing = configtest::errorText([&] {
        parseProject("name: m\nplatform:\n  graph:\n    npus: 2\n    links: nowhere.csv\n" + kTail,
                     dir.path("m.yaml"));
    });
    EXPECT_THAT(missing, HasSubstr("m.yaml:5"));
    EXPECT_THAT(missing, HasSubstr("nowhere.csv"));
}
