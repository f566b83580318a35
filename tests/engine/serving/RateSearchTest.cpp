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

// A queue can grow for a whole short run before it breaks the TTFT SLO, so a 60 s search lands
// above what the deployment sustains (Llama-3 8B on one H100, 2,048 / 128 tokens, TTFT <= 2 s:
// 18.4 requests/s found, 17.0 completed when overloaded). The confirmation over 4 x the duration
// shows it; the found rate then completes less than it offers.
TEST(RateSearch, AConfirmationOverALongerRunShowsARateThatIsNotSustained) {
    SimulationSpec spec = servingtest::project(
        "model: llama3-8b\n  gpu: h100\n  compute-model: roofline\n  rate: 5\n  duration: 60 s\n"
        "  input-distribution: fixed\n  input-mean: 2048\n  output-distribution: fixed\n"
        "  output-mean: 128\n  ttft-slo: 2 s\n  tpot-slo: 100 ms\n");
    RateSearchOptions options{0.9, 0.01, 40};
    options.confirmFactor = 4;
    const RateSearchResult found = searchRate(spec, options);
    ASSERT_TRUE(found.converged);
    ASSERT_TRUE(found.confirmation.has_value());
    EXPECT_DOUBLE_EQ(found.confirmationDurationSeconds, 240.0);
    EXPECT_FALSE(found.sustained());
    const ServingSummary& longer = found.confirmation->summary;
    EXPECT_LT(longer.sloAttainment, 0.9);
    EXPECT_LT(longer.requestsPerSecond, 0.95 * found.rate) << "overloaded: completes less";
    // Half the rate is sustained: the longer run still meets the target.
    spec.serving.rate = found.rate / 2;
    spec.serving.durationNs = 240e9;
    EXPECT_GE(runServing(spec).summary.sloAttainment, 0.9);
    // Without the option there is no confirmation run.
    EXPECT_FALSE(searchRate(spec, RateSearchOptions{0.9, 0.01, 40}).confirmation.has_value());
}
