#pragma once
// Fitting CostModel to measured times (docs/calibration.md, "How the fit works").
//
// 0. With two or more collectives in the data, each collective's bandwidth factor f_c
//    (CostModel.h) comes first: each collective is fitted alone by steps 1-3 (factors 1), and
//    f_c = u / u_c, with u_c its last regime's 1/bandwidth and u the geometric mean of the u_c.
//    Steps 1-3 then fit all the data with the factors fixed. A collective without data of its own
//    (a held-out one) keeps f = 1: the shared bandwidth.
// 1. For a given split of the sizes into regimes, each regime's (alpha, delta, u, w) minimises
//    the sum of squared relative errors: linear least squares with every parameter >= 0
//    (RegimeSplit.h), and the best split for K regimes is found by dynamic programming.
// 2. K, the number of regimes, is chosen by cross-validation on the data given, the same way for
//    every dataset: the sizes are cut into folds of `crossValidationSizes` adjacent sizes, each
//    fold is predicted from the best K-regime split of the others, and the K with the smallest
//    mean |ln(predicted / measured)| wins (the smaller K on a tie). A regime holds >= 3 sizes.
//    A step in the measured curve (NCCL switching protocol, algorithm or channel count) becomes
//    a regime boundary when predicting across it fails, and only then.
// 3. NLopt (BOBYQA, bounded, derivative-free) then minimises a robust loss of the log error
//    (quadratic within 1 %, linear beyond) of the chosen split from that start (CostRefine.h);
//    thresholds sit where the regimes' times meet.
// 4. With two or more collectives, each collective's own fit (step 0) gives its regimes below
//    its own last one (CostModel::own: its thresholds, constants, fill); the shared last regime
//    is fitted again, by least squares, on every collective's points from where its own last
//    regime starts, with the factors fixed and a latency l_c per collective, alternating with
//    the l_c until they settle (CostModel::latencyUs, the fastest 0). The latencies the settings
//    get (CostModel::settingLatencyUs) are the l_c that best fit each collective's times at
//    every size when the last regime runs them, as the simulator does.
// The last regime has w = 0: it is the one the simulator models, in the simulator's form.
// alpha and delta are told apart only when a regime's data holds two or more step counts (two
// collectives, or two rank counts); otherwise alpha is 0 and the constant is per step.
// Points may repeat a size (Calibration merges repeats into their median first).
// Deterministic: no randomness, fixed iteration order. Cost: 1 + (collectives, when 2 or more)
// fits, each of at most 16 folds of O(sizes^2) regime solves (RegimeSplit.h bounds them beyond
// 48 sizes), O(sizes) per NLopt evaluation.

#include "calibrate/CostModel.h"

#include <vector>

namespace astrolabe {

struct FitOptions {
    /// At most this many regimes: NCCL's three protocols, each with algorithm and channel
    /// changes; cross-validation picks how many of them the data supports.
    int maxRegimes = 6;
    double reduceUsPerByte = 0;   ///< the model's known g
    int crossValidationSizes = 1; ///< adjacent sizes a fold of the regime count's check holds
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
