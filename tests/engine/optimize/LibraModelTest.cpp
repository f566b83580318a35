// LIBRA's convex model and its solvers (engine/optimize/LibraModel.h), checked against the
// mathematics: minimizing T0 + sum c_d / B_d under sum B_d = S gives c_d / B_d^2 = lambda for
// every d, so B_d = S sqrt(c_d) / sum_e sqrt(c_e).
#include "optimize/LibraModel.h"

#include "core/Error.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace astrolabe::optimize;

namespace {

AllocationProblem problem(std::vector<double> prices, double total) {
    AllocationProblem p;
    p.totalGBps = total;
    p.minGBps.assign(prices.size(), 1.0);
    p.maxGBps.assign(prices.size(), std::numeric_limits<double>::infinity());
    p.dollarsPerGBps = std::move(prices);
    return p;
}

double sum(const std::vector<double>& v) {
    double s = 0;
    for (double x : v)
        s += x;
    return s;
}

} // namespace

TEST(LibraModel, TwoDimensionsFollowTheSquareRootRule) {
    // c = (4, 1): sqrt ratio 2 : 1, so 300 GB/s splits 200 / 100 and T = 1 ms + 4/200 + 1/100.
    const LibraModel m{1e-3, {4.0, 1.0}};
    const AllocationProblem p = problem({1, 1}, 300);
    const std::vector<double> closed = closedFormAllocation(m, p);
    EXPECT_NEAR(closed[0], 200.0, 1e-6);
    EXPECT_NEAR(closed[1], 100.0, 1e-6);
    EXPECT_NEAR(m.predictSeconds(closed), 1e-3 + 0.02 + 0.01, 1e-12);
    // SLSQP from a poor start reaches the same point.
    const std::vector<double> solved = nloptAllocation(m, p, {20, 280});
    EXPECT_NEAR(solved[0], 200.0, 1e-3);
    EXPECT_NEAR(solved[1], 100.0, 1e-3);
}

TEST(LibraModel, ClosedFormAndSlsqpAgreeWithBindingBounds) {
    // c = (9, 4, 1) over 600 GB/s: unbounded 300 / 200 / 100. A maximum of 250 on dimension 0
    // leaves 350 for the others in ratio 2 : 1, and a minimum of 150 on dimension 2 binds then:
    // dimension 1 takes 600 - 250 - 150 = 200.
    const LibraModel m{0, {9.0, 4.0, 1.0}};
    AllocationProblem p = problem({1, 1, 1}, 600);
    const std::vector<double> free = closedFormAllocation(m, p);
    EXPECT_NEAR(free[0], 300, 1e-6);
    EXPECT_NEAR(free[1], 200, 1e-6);
    EXPECT_NEAR(free[2], 100, 1e-6);
    p.maxGBps[0] = 250;
    p.minGBps[2] = 150;
    const std::vector<double> closed = closedFormAllocation(m, p);
    EXPECT_NEAR(closed[0], 250, 1e-6);
    EXPECT_NEAR(closed[1], 200, 1e-6);
    EXPECT_NEAR(closed[2], 150, 1e-6);
    const std::vector<double> solved = nloptAllocation(m, p, {100, 100, 400});
    for (size_t d = 0; d < 3; ++d)
        EXPECT_NEAR(solved[d], closed[d], 1e-3) << "dimension " << d;
}

TEST(LibraModel, BudgetBindsAndSlsqpFindsItsOptimum) {
    // Prices (1, 3) and budget 400 with c = (1, 1) over at most 300 GB/s: the sqrt rule
    // (150 / 150) costs 600, too much. On the budget line B0 + 3 B1 = 400 (and with B0 + B1 <=
    // 300) the Lagrange condition 1/B0^2 = mu, 1/B1^2 = 3 mu gives B0 = sqrt(3) B1, so
    // B1 = 400 / (3 + sqrt 3), B0 = sqrt(3) B1; their sum 230.9 is under the total.
    const LibraModel m{0, {1.0, 1.0}};
    AllocationProblem p = problem({1, 3}, 300);
    p.budgetDollars = 400;
    const std::vector<double> b = solveAllocation(m, p);
    const double b1 = 400 / (3 + std::sqrt(3.0));
    EXPECT_NEAR(b[1], b1, 1e-3);
    EXPECT_NEAR(b[0], std::sqrt(3.0) * b1, 1e-3);
    EXPECT_LE(p.costDollars(b), 400 * (1 + 1e-9));
    EXPECT_LE(sum(b), 300 * (1 + 1e-9));
}

TEST(LibraModel, PerfPerCostBalancesTimeAgainstCost) {
    // One dimension: minimize (T0 + c/B)(F + pB). d/dB = 0 gives p T0 B^2 = c F, so
    // B = sqrt(c F / (p T0)). With T0 = 1, c = 100, F = 400, p = 1: B = 200 (under the cap 1000).
    const LibraModel m{1.0, {100.0}};
    AllocationProblem p = problem({1}, 1000);
    p.objective = Objective::PerfPerCost;
    p.fixedDollars = 400;
    const std::vector<double> b = solveAllocation(m, p);
    EXPECT_NEAR(b[0], 200, 1e-2);
}

TEST(LibraModel, PerfPerCostMatchesAFineSearchOfTheModel) {
    // Two dimensions, cap binding or not: SLSQP's point is at least as good as any point of a
    // 0.5 GB/s grid of the model.
    const LibraModel m{2e-3, {0.4, 0.1}};
    AllocationProblem p = problem({30, 10}, 400);
    p.objective = Objective::PerfPerCost;
    p.fixedDollars = 10000;
    const std::vector<double> b = solveAllocation(m, p);
    double best = std::numeric_limits<double>::infinity();
    for (double b0 = 1; b0 <= 399; b0 += 0.5)
        for (double b1 = 1; b0 + b1 <= 400; b1 += 0.5)
            best = std::min(best, modelObjective(m, p, {b0, b1}));
    EXPECT_LE(modelObjective(m, p, b), best * (1 + 1e-9));
    EXPECT_TRUE(p.feasible(b));
}

TEST(LibraModel, InfeasibleProblemsNameWhatCannotHold) {
    AllocationProblem p = problem({1, 1}, 100);
    p.minGBps = {60, 60};
    EXPECT_THROW(p.validate(), astrolabe::Error);
    p.minGBps = {10, 10};
    p.budgetDollars = 5;
    EXPECT_THROW(p.validate(), astrolabe::Error);
}
