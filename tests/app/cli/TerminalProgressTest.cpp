// Progress of long runs: a self-rewriting line on a terminal after the first second, a line a
// second in a log when asked for, nothing otherwise; the run and astra commands take --progress.
#include "cli/TerminalProgress.h"

#include "TestPaths.h"
#include "cli/CliRunner.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using namespace astrolabe;
using namespace astrolabe::cli;

namespace {
Progress at(double wallSeconds) {
    Progress p;
    p.now = SimTime::fromUs(1500);
    p.eventsProcessed = 4'200'000;
    p.eventsPerSecond = 2'310'000;
    p.wallSeconds = wallSeconds;
    return p;
}
} // namespace

TEST(TerminalProgress, ALogGetsALineASecondWhenAskedFor) {
    std::ostringstream err;
    {
        TerminalProgress progress(err, ProgressMode::Always, false);
        for (double t : {0.0, 0.5, 1.2, 1.3, 2.5})
            progress.onProgress(at(t));
        EXPECT_EQ(progress.lines(), 3);
    }
    EXPECT_EQ(err.str().find('\r'), std::string::npos);
    EXPECT_NE(err.str().find("astrolabe-cli: simulating: 1.5 ms simulated, 4.2 M events at "
                             "2.3 M/s, 2.5 s\n"),
              std::string::npos)
        << err.str();
}

TEST(TerminalProgress, APipeGetsNothingUnlessAskedFor) {
    std::ostringstream err;
    {
        TerminalProgress progress(err, ProgressMode::Auto, false);
        for (double t : {0.0, 1.5, 30.0})
            progress.onProgress(at(t));
        EXPECT_EQ(progress.lines(), 0);
    }
    EXPECT_EQ(err.str(), "");
}

TEST(TerminalProgress, ATerminalLineAppearsAfterASecondAndIsClearedAtTheEnd) {
    std::ostringstream err;
    {
        TerminalProgress progress(err, ProgressMode::Auto, true);
        progress.onProgress(at(0.5)); // a short run prints nothing
        EXPECT_EQ(err.str(), "");
        progress.onProgress(at(1.1));
        progress.onProgress(at(1.2));
        EXPECT_EQ(progress.lines(), 2);
    }
    const std::string text = err.str();
    EXPECT_EQ(text.front(), '\r');
    EXPECT_EQ(text.find('\n'), std::string::npos); // rewritten in place
    EXPECT_EQ(text.back(), '\r');                  // and blanked for the report that follows
}

TEST(TerminalProgress, RunAndAstraTakeTheOption) {
    const std::string project = ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml";
    const clitest::Result r = clitest::cli({"run", project, "--no-store", "--progress", "always"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("astrolabe-cli: simulating: 117.78 us simulated"), std::string::npos)
        << r.err;
    const clitest::Result quiet = clitest::cli({"run", project, "--no-store"});
    EXPECT_EQ(quiet.err, "");
    const clitest::Result bad = clitest::cli({"run", project, "--no-store", "--progress", "often"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--progress: expected auto, always or never"), std::string::npos);
    EXPECT_NE(clitest::cli({"astra", "--help"}).out.find("--progress"), std::string::npos);
}
