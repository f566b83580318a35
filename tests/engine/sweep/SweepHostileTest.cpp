// Sweeps under hostile input (issue #54): planning and constraints in bounded time and memory,
// and sweep files that would silently do something else than they say.
#include "engine/sweep/RingProject.h"
#include "project/SweepFile.h"
#include "support/Bounded.h"
#include "support/TempDir.h"
#include "sweep/SweepExpression.h"
#include "sweep/SweepLock.h"
#include "sweep/SweepPlan.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <stdexcept>
#include <unistd.h>

using namespace astrolabe;

namespace {

std::string errorOf(const std::string& text) {
    return test::sweepFileError(text);
}

} // namespace

// Planning is linear in the points and reads few projects: a Latin-hypercube sample of a million
// points over three 1,000-value axes (the documented limits), with a constraint on every point,
// is planned in seconds and tens of megabytes. Each axis value is checked once, in the first
// point that takes it: 3,000 projects read, not a million.
TEST(SweepPlan, AMillionSampledPointsArePlannedInBoundedTimeAndMemory) {
    test::TempDir dir("sweep_million");
    const std::string sweep = test::writeRingSweep(
        dir, "project: project.yaml\naxes:\n"
             "  - {path: system.chunks, range: {from: 1, to: 1000, steps: 1000}}\n"
             "  - {path: system.endpoint-delay, range: {from: 1 ns, to: 1000 ns, "
             "steps: 1000}}\n"
             "  - {name: latency, path: platform.dimensions.0.latency, "
             "range: {from: 1 ns, to: 1000 ns, steps: 1000}}\n"
             "constraints: [chunks <= 900]\n"
             "sample: {method: latin-hypercube, count: 1000000, seed: 7}\n");
    const test::BoundedOutcome outcome = test::runBounded(
        [&] {
            const SweepPlan plan = planSweep(sweep);
            // Every stratum of every axis is used: each value 1,000 times, so a tenth of the
            // points have chunks above 900.
            if (plan.points.size() < 999'000 || plan.runnable() > 905'000 ||
                plan.runnable() < 895'000)
                throw std::runtime_error("planned " + std::to_string(plan.points.size()) +
                                         " points, " + std::to_string(plan.runnable()) +
                                         " runnable");
        },
        60, size_t{512} << 20);
    EXPECT_TRUE(outcome.ok) << outcome.message << " (" << outcome.seconds << " s)";
}

// A constraint of 20,000 terms took 9 s and 2 GB, then ended in std::bad_alloc (each operator
// copied the whole text while evaluating). The text is bounded (4,096 characters) and reading
// and evaluating it are linear: the longest allowed one is evaluated a thousand times at once.
TEST(SweepExpression, LongConstraintsAreRefusedOrEvaluatedInLinearTime) {
    const test::BoundedOutcome outcome = test::runBounded(
        [] {
            std::string huge = "chunks";
            for (int i = 0; i < 20'000; ++i)
                huge += " + chunks";
            try {
                SweepExpression{huge + " > 0"};
                throw std::runtime_error("a 20,000-term constraint was accepted");
            } catch (const Error& e) {
                if (std::string(e.what()).find("more than the limit of 4096") == std::string::npos)
                    throw std::runtime_error(std::string("unclear: ") + e.what());
            }
            std::string longest = "chunks";
            while (longest.size() + 16 < kMaxSweepExpressionLength)
                longest += " + chunks";
            const SweepExpression e(longest + " > 0");
            const auto one = [](const std::string&) -> std::optional<SweepValue> { return 1.0; };
            for (int i = 0; i < 1000; ++i)
                if (!e.holds(one))
                    throw std::runtime_error("the sum of ones is not above 0");
        },
        10, size_t{256} << 20);
    EXPECT_TRUE(outcome.ok) << outcome.message << " (" << outcome.seconds << " s)";
}

// Two axes on one setting used to run with one of them having no effect, the table listing its
// values as distinct points. Both axes are named, with their lines, however the path is spelled.
TEST(SweepFile, TwoAxesOnOneSettingAreRefusedNamingBoth) {
    std::string what = errorOf("project: p.yaml\naxes:\n"
                               "  - {name: a, path: system.chunks, values: [1, 2]}\n"
                               "  - {name: b, path: system.chunks, values: [4, 8]}\n");
    EXPECT_NE(what.find("s.yaml:4:5: axes[1]: the axis \"b\" sets system.chunks, which \"a\" "
                        "(line 3) sets already"),
              std::string::npos)
        << what;
    what = errorOf("project: p.yaml\naxes:\n"
                   "  - {name: a, path: \"platform.dimensions[0].size\", values: [4]}\n"
                   "  - zip:\n"
                   "    - {name: b, path: platform.dimensions.0.size, values: [8]}\n");
    EXPECT_NE(what.find("\"b\" sets platform.dimensions.0.size, which \"a\" (line 3)"),
              std::string::npos)
        << what;
    what = errorOf("project: p.yaml\nset: {system.chunks: 2}\n"
                   "axes:\n  - {path: system.chunks, values: [4, 8]}\n");
    EXPECT_NE(what.find("s.yaml:4:5"), std::string::npos) << what;
    EXPECT_NE(what.find("which \"system.chunks\" (line 2) sets already"), std::string::npos)
        << what;
    EXPECT_EQ(errorOf("project: p.yaml\naxes:\n"
                      "  - {path: system.chunks, values: [1, 2]}\n"
                      "  - {path: system.active-chunks-per-dimension, values: [1, 2]}\n"),
              "no error");
}

// Two processes running the same sweep into one database each stored every point (128 runs for
// 64 points). The second claim is refused with the database and the holder named; another sweep,
// or another database, is not held up; letting go removes the lock file.
TEST(SweepLock, TheSameSweepIntoTheSameDatabaseIsClaimedOnce) {
    test::TempDir dir("sweep_lock");
    const std::string db = dir.path("astrolabe.db");
    {
        const SweepLock first(db, "0123456789abcdef");
        EXPECT_TRUE(std::filesystem::exists(SweepLock::lockPath(db, "0123456789abcdef")));
        try {
            const SweepLock second(db, "0123456789abcdef");
            ADD_FAILURE() << "claimed twice";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("already running into the database " + db), std::string::npos)
                << what;
            EXPECT_NE(what.find("process " + std::to_string(::getpid())), std::string::npos)
                << what;
        }
        EXPECT_NO_THROW(SweepLock(db, "fedcba9876543210"));
        EXPECT_NO_THROW(SweepLock(dir.path("other.db"), "0123456789abcdef"));
    }
    EXPECT_FALSE(std::filesystem::exists(SweepLock::lockPath(db, "0123456789abcdef")));
    EXPECT_NO_THROW(SweepLock(db, "0123456789abcdef"));
}
