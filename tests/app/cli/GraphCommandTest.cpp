// astrolabe-cli graph import / export (docs/graph-platforms.md, "Files"): an edge list becomes a
// project that runs; a project (graph or stack) becomes DOT or GraphML.
#include "CliRunner.h"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iterator>

namespace fs = std::filesystem;
using clitest::cli;
using ::testing::HasSubstr;

namespace {

fs::path scratch() {
    return clitest::scratchDir("graph-cli");
}

} // namespace

TEST(GraphCommand, ImportRunAndExport) {
    const fs::path dir = scratch();
    std::ofstream(dir / "edges.csv") << "from,to,bandwidth,latency,bidirectional\n"
                                        "npu0,sw0,50 GB/s,500 ns\n"
                                        "npu1,sw0,50 GB/s,500 ns\n"
                                        "npu2,sw0,50 GB/s,500 ns\n"
                                        "npu3,sw0,50 GB/s,500 ns\n"
                                        "npu0,npu1,100 GB/s,100 ns,false\n";
    const std::string project = (dir / "p.yaml").string();
    auto r = cli({"graph", "import", (dir / "edges.csv").string(), "--out", project});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("4 NPUs, 1 switches, 5 links"));
    r = cli({"run", project});
    EXPECT_EQ(r.code, 0) << r.err;
    r = cli({"graph", "export", project, "--format", "dot"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("npu0 -> npu1 [bandwidth=100000000000, latency=100];"));
    EXPECT_THAT(r.out, HasSubstr("npu3 -> sw0 [bandwidth=50000000000, latency=500, dir=both];"));
    r = cli(
        {"graph", "export", project, "--format", "graphml", "--out", (dir / "p.graphml").string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "p.graphml"));
    r = cli({"graph", "export", project, "--format", "svg"});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("expected dot or graphml"));
    fs::remove_all(dir);
}

// `--out` naming the edge list being imported (or, for an export, the project exported) is
// refused, and the file is kept: writing would destroy what the command reads.
TEST(GraphCommand, AnOutputOverItsInputIsRefused) {
    const fs::path dir = scratch();
    const std::string csv = (dir / "self.csv").string();
    const std::string edges = "from,to,bandwidth,latency\nnpu0,npu1,50 GB/s,500 ns\n";
    std::ofstream(csv) << edges;
    auto r = cli({"graph", "import", csv, "--out", csv});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("cannot write the project there: it is the edge list"));
    std::ifstream in(csv);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), edges);
    const std::string project = (dir / "self.yaml").string();
    ASSERT_EQ(cli({"graph", "import", csv, "--out", project}).code, 0);
    r = cli({"graph", "export", project, "--out", project});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("cannot write the dot export there: it is the project"));
    EXPECT_EQ(cli({"run", project, "--no-store"}).code, 0) << "the project still reads";
}

TEST(GraphCommand, BadEdgeListNamesLineAndField) {
    const fs::path dir = scratch();
    std::ofstream(dir / "bad.csv") << "from,to,bandwidth,latency\nnpu0,npu5,1 GB/s,1 ns\n";
    const auto r = cli({"graph", "import", (dir / "bad.csv").string(), "--npus", "2", "--out",
                        (dir / "q.yaml").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("bad.csv:2:1: to: expected an NPU below npu2, found npu5"));
    EXPECT_FALSE(fs::exists(dir / "q.yaml"));
    fs::remove_all(dir);
}

TEST(GraphCommand, StackProjectExportsItsDeviceGraph) {
    const fs::path dir = scratch();
    std::ofstream(dir / "s.yaml")
        << "name: s\nplatform:\n  dimensions:\n"
           "    - {type: Switch, size: 4, bandwidth: 50 GB/s, latency: 500 ns}\n"
           "system:\n  algorithms: [ring]\n  chunks: 1\n"
           "workload:\n  microbenchmark: {collective: all-reduce, size: 1 MiB}\n";
    const auto r = cli({"graph", "export", (dir / "s.yaml").string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("sw0 [shape=ellipse];"));
    EXPECT_THAT(r.out, HasSubstr("sw0 -> npu3 [bandwidth=50000000000, latency=500];"));
    fs::remove_all(dir);
}
