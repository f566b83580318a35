#pragma once
// LIBRA's iteration-time model and its solvers (docs/libra.md).
//
// With no overlap between dimensions, an iteration takes
//
//     T(B) = T0 + sum_d c_d / B_d          (seconds; B_d in GB/s, c_d in seconds x GB/s)
//
// where c_d / B_d is the time dimension d's bandwidth costs and T0 the rest (compute, latency).
// T is convex in B on B > 0, the constraints (sum B_d <= total, bounds, a linear budget) are
// linear, so a local minimum is the minimum. With only the total and bounds, the Lagrange
// condition c_d / B_d^2 = lambda gives the closed form B_d = clamp(sqrt(c_d / lambda), min, max)
// (B_d proportional to sqrt(c_d) when no bound binds), lambda set by bisection so the sum is
// the total. Otherwise NLopt's SLSQP solves it; for perf-per-cost it minimizes
// log T(B) + log cost(B).

#include "optimize/AllocationProblem.h"

#include <vector>

namespace astrolabe::optimize {

struct LibraModel {
    double fixedSeconds = 0;          ///< T0
    std::vector<double> coefficients; ///< c_d >= 0, seconds x GB/s
    double predictSeconds(const std::vector<double>& gbps) const;
};

/// The model's objective at gbps: seconds (Time) or time x cost, seconds x dollars (PerfPerCost).
double modelObjective(const LibraModel& model, const AllocationProblem& problem,
                      const std::vector<double>& gbps);

/// The closed form for the Time objective with the total and bounds (the budget is ignored).
/// O(D x 200) for the bisection.
std::vector<double> closedFormAllocation(const LibraModel& model, const AllocationProblem& problem);

/// NLopt SLSQP from `start` (projected into the bounds). Throws astrolabe::Error (Internal) if
/// NLopt fails outright. Every constraint of the problem is honoured.
std::vector<double> nloptAllocation(const LibraModel& model, const AllocationProblem& problem,
                                    const std::vector<double>& start);

/// The model's best allocation: the closed form when it applies (Time, no budget), else the
/// best of SLSQP started from the closed form, the equal split and the bounds' midpoint,
/// whichever meets the constraints with the lowest modelObjective.
std::vector<double> solveAllocation(const LibraModel& model, const AllocationProblem& problem);

/// The feasible allocation with the lowest cost that spends the whole total where the budget
/// allows (cheapest dimensions first): the left end of a Pareto front.
std::vector<double> cheapestAllocation(const AllocationProblem& problem);

} // namespace astrolabe::optimize
