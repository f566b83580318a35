#pragma once
// LIBRA against the simulator (docs/libra.md): fit the convex model to simulated times, solve
// it, confirm the solution by simulating it, and refit there until the confirmation agrees.
//
// Fitting: at a point B the simulator gives T(B); for each dimension d it also runs B with B_d
// scaled by (1 - h) and (1 + h), and c_d is the secant slope of T against 1 / B_d between them
// (the time that dimension's bandwidth costs, as the simulator sees it: exposed time, not busy
// time, so overlap with compute and other dimensions is accounted for). T0 = T(B) - sum c_d/B_d.
// 2D + 1 simulations per fit.
//
// The loop: fit at the best confirmed point, solve, simulate the solution. A better
// confirmation becomes the best point and is refitted; a worse one is halved towards the best
// point (the constraints are convex, so the midpoint is feasible) up to twice. The answer is
// the best confirmed point: never worse, by simulation, than the start.

#include "optimize/AllocationProblem.h"
#include "optimize/LibraModel.h"

#include <functional>
#include <vector>

namespace astrolabe::optimize {

/// The simulated iteration time, in seconds, at per-dimension bandwidths in GB/s. May throw.
using IterationTime = std::function<double(const std::vector<double>& gbps)>;

struct EvaluatedAllocation {
    std::vector<double> gbps;
    double predictedSeconds = 0; ///< the model's time (0 for a start point no model predicted)
    double simulatedSeconds = 0;
    double costDollars = 0;
    /// Performance per cost: iterations per second per dollar, 1 / (time x cost).
    double perfPerCost() const;
};

struct OptimizerSettings {
    int maxRounds = 6;       ///< fits at most
    double step = 0.1;       ///< h, the relative change of B_d when fitting
    double tolerance = 1e-3; ///< stop when a round improves the best time by less than this
};

struct OptimizationReport {
    EvaluatedAllocation start;  ///< the start point, simulated
    EvaluatedAllocation best;   ///< the answer: the best confirmed point
    LibraModel model;           ///< the last fit
    std::vector<double> solved; ///< the model's optimum at the first fit (before refits)
    std::vector<EvaluatedAllocation> confirmed; ///< every candidate simulated, in order
    int simulations = 0;
    double solverSeconds = 0; ///< wall time spent in the model's solvers
};

/// Fits the model at `gbps` (2D + 1 calls of `time`). `simulations` is increased by the calls.
LibraModel fitModel(const IterationTime& time, const std::vector<double>& gbps, double step,
                    int* simulations = nullptr);

/// Runs the loop from `start` (projected into the constraints). problem.validate() first.
OptimizationReport optimizeBandwidth(const AllocationProblem& problem,
                                     const std::vector<double>& start, const IterationTime& time,
                                     const OptimizerSettings& settings = {});

/// Cost against simulated time over `points` budgets spread evenly from the cost of the
/// minimums to that of the time-optimal allocation (objective Time under each budget; under
/// problem.budgetDollars when it is set, so no point costs more); the non-dominated points, by
/// cost. Runs optimizeBandwidth once per budget; the bounds hold at every point.
std::vector<EvaluatedAllocation> paretoFront(const AllocationProblem& problem,
                                             const std::vector<double>& start,
                                             const IterationTime& time, int points,
                                             const OptimizerSettings& settings = {});

/// The equal split of the total, within the bounds.
std::vector<double> equalAllocation(const AllocationProblem& problem);

} // namespace astrolabe::optimize
