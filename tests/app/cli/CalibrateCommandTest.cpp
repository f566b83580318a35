// astrolabe-cli calibrate nccl-tests (docs/calibration.md): a bundled public measurement in, a
// project that runs out, with the header comment naming the source and the chart written; bad
// invocations and unfittable data refused with what is wrong.
#include "CliRunner.h"
#include "TestPaths.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <utility>

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
    std::ifstream in(path, std::ios::binary);
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

/// A PNG file's width and height, from its IHDR chunk (big-endian, bytes 16 - 23).
std::pair<uint32_t, uint32_t> pngSize(const std::string& png) {
    const auto be32 = [&png](size_t at) {
        uint32_t v = 0;
        for (size_t i = 0; i < 4; ++i)
            v = (v << 8) | static_cast<unsigned char>(png[at + i]);
        return v;
    };
    return {be32(16), be32(20)};
}

#ifdef ASTROLABE_HAS_PNG_MODULE
TEST(CalibrateCommand, WritesThePlotAsPngWhenItsNameEndsInPng) {
    const fs::path dir = clitest::scratchDir("calibrate-cli-png");
    const fs::path png = dir / "fit.PNG";
    const auto r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt"),
                        "--project", hgx(), "--dry-run", "--plot", png.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("wrote " + png.string()));
    const std::string bytes = slurp(png);
    ASSERT_GE(bytes.size(), 24u);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(bytes.substr(12, 4), "IHDR");
    // The SVG's 760 x 480 at twice its size (engine/calibrate/CalibrationPlot.cpp).
    EXPECT_EQ(pngSize(bytes), std::make_pair(1520u, 960u));
    fs::remove_all(dir);
}
#endif

TEST(CalibrateCommand, APngPlotWithoutItsModuleWritesNothingAndSaysWhatToDo) {
    const fs::path dir = clitest::scratchDir("calibrate-cli-no-png");
    const fs::path missing = dir / "missing-module.so";
    const clitest::ScopedEnv env("ASTROLABE_PNG_MODULE", missing.string());
    const fs::path out = dir / "calibrated.yaml", png = dir / "fit.png";
    const auto r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt"),
                        "--project", hgx(), "--out", out.string(), "--plot", png.string()});
    EXPECT_NE(r.code, 0);
    EXPECT_THAT(r.err, HasSubstr("astrolabe-svg-png.so"));
    EXPECT_THAT(r.err, HasSubstr(missing.string() + ": no such file"));
    EXPECT_THAT(r.err, HasSubstr("name the chart '.svg'"));
    EXPECT_FALSE(fs::exists(out)) << "the project was written although the chart failed";
    EXPECT_FALSE(fs::exists(png));
    fs::remove_all(dir);
}

// A chart that cannot be written leaves the project rewritten in place as it was: a re-run would
// otherwise calibrate the calibrated project. A project that cannot be written takes the chart
// back. Both are found before the fit when the path cannot be taken at all (a missing folder),
// and otherwise when the write fails (a full disk: a link to /dev/full).
TEST(CalibrateCommand, AChartOrProjectThatCannotBeWrittenLeavesTheOtherAsItWas) {
    const fs::path dir = clitest::scratchDir("calibrate-cli-unwritable");
    const fs::path project = dir / "project.yaml";
    fs::copy_file(hgx(), project, fs::copy_options::overwrite_existing);
    const std::string before = slurp(project);
    auto r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt"), "--project",
                  project.string(), "--plot", (dir / "no-such-folder" / "fit.svg").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("fit.svg: cannot write the calibration chart: its folder"));
    EXPECT_EQ(r.out, "") << "the paths are checked before the fit";
    EXPECT_EQ(slurp(project), before);

    const fs::path full = dir / "full.svg";
    fs::create_symlink("/dev/full", full);
    r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt"), "--project",
             project.string(), "--plot", full.string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("full.svg: cannot write the calibration chart"));
    EXPECT_EQ(slurp(project), before) << "the project was rewritten although the chart failed";

    const fs::path svg = dir / "fit.svg";
    const fs::path fullYaml = dir / "full.yaml";
    fs::create_symlink("/dev/full", fullYaml);
    r = cli({"calibrate", "nccl-tests", dataset("a100-oci-1node-all_reduce.txt"), "--project",
             project.string(), "--out", fullYaml.string(), "--plot", svg.string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("full.yaml: cannot write the calibrated project"));
    EXPECT_FALSE(fs::exists(svg)) << "the chart of a calibration that wrote no project";
    EXPECT_EQ(slurp(project), before);
    // No temporary file is left beside either.
    for (const auto& entry : fs::directory_iterator(dir))
        EXPECT_EQ(entry.path().filename().string().find(".astrolabe-"), std::string::npos)
            << entry.path();
}

// No output may be a file the command reads (the measurements), or the other output.
TEST(CalibrateCommand, AnOutputThatIsAnInputIsRefusedBeforeAnythingIsWritten) {
    const fs::path dir = clitest::scratchDir("calibrate-cli-self");
    const fs::path project = dir / "project.yaml";
    const fs::path measured = dir / "measured.txt";
    fs::copy_file(hgx(), project, fs::copy_options::overwrite_existing);
    fs::copy_file(dataset("a100-oci-1node-all_reduce.txt"), measured);
    const std::string before = slurp(measured);
    auto r = cli({"calibrate", "nccl-tests", measured.string(), "--project", project.string(),
                  "--out", measured.string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("cannot write the calibrated project there: it is a "
                                 "measurement file"));
    EXPECT_EQ(slurp(measured), before);
    r = cli({"calibrate", "nccl-tests", measured.string(), "--project", project.string(), "--out",
             (dir / "both.svg").string(), "--plot", (dir / "." / "both.svg").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_THAT(r.err, HasSubstr("cannot write the calibration chart there: it is the "
                                 "calibrated project"));
    EXPECT_FALSE(fs::exists(dir / "both.svg"));
    r = cli({"calibrate", "nccl-tests", measured.string(), "--project", project.string(),
             "--dry-run", "--plot", (dir / "fit.jpg").string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_THAT(r.err, HasSubstr("--plot: expected a file ending in .svg or .png"));
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
