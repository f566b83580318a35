#pragma once
// The NLopt polish of a fitted split (docs/calibration.md, "How the fit works", step 5): with the
// thresholds fixed every measurement belongs to one regime, so the loss splits into independent
// sums of at most four unknowns each; BOBYQA (bounded, derivative-free) minimises each from the
// least-squares start, and a regime keeps its start when NLopt does not improve on it. The
// collectives' bandwidth factors are kept as the start has them.
//
// The loss is robust: with d = ln(model / measured) per measurement, the pseudo-Huber
//   rho(d) = c^2 (sqrt(1 + (d / c)^2) - 1),  c = kRobustLogScale (1 %),
// which is d^2 / 2 for |d| << c and c |d| beyond it. The held-out check scores mean |d|; a loss
// linear in |d| past the measurements' typical repeatability lets a stray run (one size measured
// 30 % slow) weigh like a point 1 % off instead of pulling the whole regime towards it.

#include "calibrate/CostModel.h"

#include <vector>

namespace astrolabe {

/// c of the robust loss: the size of a log error (1 %) beyond which it counts linearly.
inline constexpr double kRobustLogScale = 0.01;

/// `separates`, per regime: whether its data tells alpha from delta (alpha stays 0 otherwise).
CostModel refine(const CostModel& start, const std::vector<CalibrationPoint>& points,
                 const std::vector<bool>& separates);

} // namespace astrolabe
