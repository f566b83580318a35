// The rate search (serving/RateSearch.h) against a fine grid over the same project: the grid's
// answer is the highest grid rate whose attainment meets the target; bisection must land within
// 2% of it in at most a third of the grid's simulations.
#include "serving/RateSearch.h"

#include "ServingTestSupport.h"
#include "core/Error.h"
#include "serving/ServingRun.h"

#include <gtest/gtest.h>
#include <iostream>

using namespace astrolabe;
using namespace astrolabe::serving;

namespace {

/// One H100 serving Llama 3 8B, prompts of 500-1500 tokens and 50-150 output tokens, SLOs of
/// 300 ms TTFT and 25 ms TPOT over 30 s of Poisson arrivals.
SimulationSpec project(double rate) {
    return servingtest::project("model: llama3-8b\n  gpu: h100\n  rate: " + std::to_string(rate) +
                                "\n  duration: 30 s\n  ttft-slo: 300 ms\n  tpot-slo: 25 ms\n"
                                "  input-distribution: uniform\n  input-min: 500\n"
                                "  input-max: 1500\n  output-distribution: uniform\n"
                                "  output-min: 50\n  output-max: 150\n");
}

} // namespace

TEST(RateSearch, FindsTheFineGridRateInAThirdOfItsSimulations) {
    // The grid: 1 to 40 requests/s in steps of 0.25 (157 simulations).
    double gridRate = 0;
    int gridRuns = 0;
    for (double rate = 1; rate <= 40 + 1e-9; rate += 0.25) {
        ++gridRuns;
        if (runServing(project(rate)).summary.sloAttainment >= 0.9)
            gridRate = rate;
    }
    ASSERT_GT(gridRate, 1.0) << "the grid must bracket the answer";
    ASSERT_LT(gridRate, 40.0) << "the grid must bracket the answer";
    const RateSearchResult found = searchRate(project(4), RateSearchOptions{0.9, 0.01, 40});
    EXPECT_TRUE(found.converged);
    std::cout << "[ measured ] grid " << gridRate << " requests/s in " << gridRuns
              << " simulations; bisection " << found.rate << " requests/s in "
              << found.probes.size() << "\n";
    EXPECT_NEAR(found.rate, gridRate, 0.02 * gridRate)
        << "grid " << gridRate << " requests/s, bisection " << found.rate << " in "
        << found.probes.size() << " simulations";
    EXPECT_LE(int(found.probes.size()) * 3, gridRuns);
    // The probes agree with the answer: the answer met the target, and the lowest failing probe
    // lies above it.
    double lowestFail = 1e300;
    for (const RateProbe& p : found.probes)
        if (!p.meets)
            lowestFail = std::min(lowestFail, p.rate);
    EXPECT_GT(lowestFail, found.rate);
    EXPECT_LE(lowestFail - found.rate, 0.01 * found.rate + 1e-12);
}

TEST(RateSearch, RefusesWhatItCannotSearch) {
    EXPECT_THROW(searchRate(project(4), RateSearchOptions{1.5, 0.01, 40}), Error);
    EXPECT_THROW(searchRate(project(4), RateSearchOptions{0.9, 0, 40}), Error);
    SimulationSpec closed = project(4);
    closed.serving.arrival = "concurrency";
    EXPECT_THROW(searchRate(closed, RateSearchOptions{}), Error);
}
