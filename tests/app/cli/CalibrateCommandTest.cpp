// astrolabe-cli calibrate nccl-tests (docs/calibration.md): a bundled public measurement in, a
// project that runs out, with the header comment naming the source and the chart written; bad
// invocations and unfittable data refused with what is wrong.
#include "CliRunner.h"
#include "TestPaths.h"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

namespace fs = std::filesystem;
using clitest::cli;
using ::testing::HasSubstr;

namespace {

std::string dataset(const std::string& name) {
    return ASTROLABE_TEST_DATA_DIR + "/nccl-tests/" + name;
}

std::string hgx() {
    return ASTROLABE_SOURCE_DIR + "/projects/hgx-h100/project.yaml";
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST(CalibrateCommand, FitsWritesTheProjectAndThePlot) {
    const fs::path dir = clitest::scratchDir("calibrate-cli");
    const std::string out = (dir / "calibrated.yaml").string();
    const std::string svg = (dir / "fit.svg").string();
    auto r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt"), "--project",
                  hgx(), "--out", out, "--plot", svg});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(
        r.out, HasSubstr("1 file, 56 measurements, 28 points at 28 sizes (all_reduce over 8 ranks; "
                         "repeats of a size as their median)"));
    EXPECT_THAT(r.out, HasSubstr("held out, two adjacent sizes at a time"));
    EXPECT_THAT(r.out, HasSubstr("all_reduce      one collective only"));
    EXPECT_THAT(r.out, HasSubstr("Settings from the last regime: platform.dimensions[0]"));
    EXPECT_THAT(r.err, HasSubstr("runs 2 of its 4 chunks at once"));
    const std::string project = slurp(out);
    EXPECT_THAT(project, HasSubstr("#   a100-oci-1node-all_reduce.txt: all_reduce_perf, 8 ranks "
                                   "on 1 node"));
    const std::string chart = slurp(svg);
    EXPECT_THAT(chart, HasSubstr("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    EXPECT_THAT(chart, HasSubstr("all_reduce (8 ranks)"));
    // The calibrated project runs in both network models.
    EXPECT_EQ(cli({"run", out, "--no-store"}).code, 0);
    r = cli({"run", out, "--no-store", "--backend", "congestion-aware"});
    EXPECT_EQ(r.code, 0) << r.err;
    fs::remove_all(dir);
}

TEST(CalibrateCommand, SameFilesSameProject) {
    const fs::path dir = clitest::scratchDir("calibrate-cli-twice");
    for (const char* name : {"a.yaml", "b.yaml"})
        ASSERT_EQ(cli({"calibrate", "nccl-tests", dataset("mi300x-aac-2node-all_reduce.txt"),
                       "--project", hgx(), "--out", (dir / name).string()})
                      .code,
                  0);
    EXPECT_EQ(slurp(dir / "a.yaml"), slurp(dir / "b.yaml"));
    fs::remove_all(dir);
}

TEST(CalibrateCommand, RefusesWhatItCannotDo) {
    const fs::path dir = clitest::scratchDir("calibrate-cli-bad");
    auto r = cli({"calibrate", "ib-tests", "x.txt", "--project", hgx()});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("the one source is nccl-tests"));
    r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt")});
    EXPECT_EQ(r.code, 2);
    r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt"), "--project",
             hgx(), "--collective", "broadcast"});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("--collective: expected all_reduce"));
    r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt"), "--project",
             hgx(), "--dimension", "1", "--dry-run"});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("dimension 1: the platform has 1 dimension (0 to 0)"));
    // Two sizes only: refused, saying what is missing.
    std::ofstream(dir / "two.csv") << "# collective: all_reduce\n# ranks: 8\nsize,time\n"
                                      "1048576,40\n2097152,60\n";
    r = cli(
        {"calibrate", "nccl-tests", (dir / "two.csv").string(), "--project", hgx(), "--dry-run"});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("two.csv: the data has 2 message sizes (1 MiB, 2 MiB); a fit "
                                 "needs at least 3"));
    fs::remove_all(dir);
}
