// `astrolabe-cli optimize bandwidth`: LIBRA on the 4 x 4 torus example, its tables and JSON,
// its constraints, and errors that name the flag and what was expected.
#include "CliRunner.h"
#include "TestPaths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using clitest::cli;

namespace {

const std::string kTorus = std::string(ASTROLABE_SOURCE_DIR) + "/projects/torus-2d/project.yaml";

} // namespace

TEST(OptimizeCommand, PrintsCurrentEqualAndOptimizedAllocations) {
    const auto r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "200"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("dim0 Ring 4 (GB/s)"), std::string::npos) << r.out;
    for (const char* row : {"current", "equal", "optimized", "speedup", "simulations"})
        EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
}

TEST(OptimizeCommand, JsonAnswerMeetsTheConstraintsAndIsNoSlowerThanEqual) {
    const auto r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth=200 GB/s", "--max",
                        "0=90", "--min", "1=40", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const std::vector<double> b = j["optimized"]["gbps"];
    ASSERT_EQ(b.size(), 2u);
    EXPECT_LE(b[0], 90 * (1 + 1e-9));
    EXPECT_GE(b[1], 40 * (1 - 1e-9));
    EXPECT_LE(b[0] + b[1], 200 * (1 + 1e-9));
    EXPECT_LE(j["optimized"]["simulated_seconds"].get<double>(),
              j["equal"]["simulated_seconds"].get<double>());
}

TEST(OptimizeCommand, BudgetAndParetoFront) {
    const auto r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "200", "--objective",
                        "perf-per-cost", "--pareto", "3", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("pareto"));
    double lastCost = 0, lastTime = 1e300;
    for (const auto& p : j["pareto"]) {
        EXPECT_GT(p["cost_dollars"].get<double>(), lastCost);
        EXPECT_LT(p["simulated_seconds"].get<double>(), lastTime);
        lastCost = p["cost_dollars"];
        lastTime = p["simulated_seconds"];
    }
    const double budget = j["optimized"]["cost_dollars"].get<double>() * 0.999;
    const auto b = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "200", "--budget",
                        std::to_string(budget), "--json"});
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_LE(nlohmann::json::parse(b.out)["optimized"]["cost_dollars"].get<double>(),
              budget * (1 + 1e-6));
}

TEST(OptimizeCommand, ErrorsNameTheFlagAndWhatWasExpected) {
    auto r = cli({"optimize", "bandwidth", kTorus});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--total-bandwidth"), std::string::npos) << r.err;
    r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "fast"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--total-bandwidth: expected a bandwidth in GB/s"), std::string::npos)
        << r.err;
    r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "200", "--min", "5=10"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--min: expected DIM=VALUE with DIM a dimension 0..1"), std::string::npos)
        << r.err;
    r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "200", "--min", "0=150", "--min",
             "1=150"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("minimums add up to more than the total"), std::string::npos) << r.err;
    // A dimension given twice in one flag: the second used to replace the first without a word.
    r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "200", "--price", "1=3",
             "--price", "1=5"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--price gives dimension 1 twice (1=3 and 1=5)"), std::string::npos)
        << r.err;
    r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "200", "--objective", "speed"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--objective: unknown objective \"speed\""), std::string::npos) << r.err;
    r = cli({"optimize", "latency", kTorus, "--total-bandwidth", "200"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("expected \"bandwidth\""), std::string::npos) << r.err;
}

// The optimizer's bandwidths are held to the limits of every other bandwidth (docs/limits.md): a
// total of 1e-300 GB/s once ended in "simulated time overflow in multiplication".
TEST(OptimizeCommand, BandwidthsOutsideTheLimitsAreRefusedWithTheFlag) {
    for (const char* total : {"1e-300", "0.0000001", "1e10", "1 B/s", "2000000 TB/s"}) {
        const auto r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", total});
        EXPECT_EQ(r.code, 2) << total;
        EXPECT_NE(r.err.find("--total-bandwidth: "), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("from 1 KB/s to 1000000 TB/s"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    }
    const auto r =
        cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "200", "--max", "0=1e-300"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--max: expected a bandwidth from 1 KB/s"), std::string::npos) << r.err;
}

// Every dimension capped at 1 GB/s under a total of 100 GB/s: the optimum is the caps, 2 GB/s in
// all, and the total is out of reach. That used to go unsaid.
TEST(OptimizeCommand, ATotalTheMaximumsCannotReachIsSaid) {
    const auto r = cli({"optimize", "bandwidth", kTorus, "--total-bandwidth", "100", "--max", "0=1",
                        "--max", "1=1", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: optimize bandwidth: the dimensions' maximums add up to 2.00 "
                         "GB/s per NPU, less than the total of 100.00 GB/s: the total cannot be "
                         "reached"),
              std::string::npos)
        << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const std::vector<double> b = j["optimized"]["gbps"];
    ASSERT_EQ(b.size(), 2u);
    EXPECT_LE(b[0] + b[1], 2 * (1 + 1e-6));
    const auto fine = cli(
        {"optimize", "bandwidth", kTorus, "--total-bandwidth", "100", "--max", "0=60", "--json"});
    EXPECT_EQ(fine.err.find("cannot be reached"), std::string::npos) << fine.err;
}
