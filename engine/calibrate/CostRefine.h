#pragma once
// The NLopt polish of a fitted split (docs/calibration.md, "How the fit works", step 5): with the
// thresholds fixed every measurement belongs to one regime, so the sum of squared log errors
// splits into independent sums of at most four unknowns each; BOBYQA (bounded, derivative-free)
// minimises each from the least-squares start, and a regime keeps its start when NLopt does not
// improve on it. The collectives' bandwidth factors are kept as the start has them.

#include "calibrate/CostModel.h"

#include <vector>

namespace astrolabe {

/// `separates`, per regime: whether its data tells alpha from delta (alpha stays 0 otherwise).
CostModel refine(const CostModel& start, const std::vector<CalibrationPoint>& points,
                 const std::vector<bool>& separates);

} // namespace astrolabe
