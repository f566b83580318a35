#pragma once
// Fitting CostModel to measured times (docs/calibration.md, "How the fit works").
//
// 1. For a given split of the sizes into regimes, each regime's (alpha, delta, u) minimises the
//    sum of squared relative errors sum(((t_model - t) / t)^2): a linear least-squares problem,
//    solved exactly with alpha, delta, u >= 0 (the best of the unconstrained solutions on each
//    subset of free parameters that stays feasible). Per-size sums make a regime O(1).
// 2. The split: every placement of 0, 1 or 2 thresholds between measured sizes with at least
//    three sizes per regime. A further regime is taken only where needed: when the fit with one
//    regime fewer misses by more than `regimeNeededAbove` (root mean square relative error) and
//    the Bayesian information criterion prefers it.
// 3. NLopt (BOBYQA, bounded, derivative-free) then minimises the squared log error of the chosen
//    split from that start; thresholds sit at the geometric mean of the sizes on either side.
// The last regime has w = 0: it is the one the simulator models, in the simulator's form.
// alpha and delta are told apart only when a regime's data holds two or more step counts (two
// collectives, or two rank counts); otherwise alpha is 0 and the constant is per step.
// Deterministic: no randomness, fixed iteration order. Cost O(sizes^2) splits, O(points) sums.

#include "calibrate/CostModel.h"

#include <vector>

namespace astrolabe {

struct FitOptions {
    int maxRegimes = 3;              ///< NCCL has three protocols: LL, LL128, Simple
    double reduceUsPerByte = 0;      ///< the model's known g
    double regimeNeededAbove = 0.02; ///< rms relative error over which another regime is tried
};

struct FitResult {
    CostModel model;
    double rmsRelativeError = 0; ///< in-sample, of the time (= of busbw to first order)
    int points = 0;
    int sizes = 0;               ///< distinct message sizes
    bool stepsSeparated = false; ///< alpha and delta told apart in the last regime
};

/// Throws astrolabe::Error (Validation) saying what the data lacks: no usable rows, fewer than
/// three message sizes, or no size range where the time grows with the size.
FitResult fitCostModel(const std::vector<CalibrationPoint>& points, const FitOptions& options = {});

} // namespace astrolabe
