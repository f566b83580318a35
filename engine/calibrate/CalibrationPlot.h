#pragma once
// The calibration chart as SVG text: bus bandwidth over message size, both on log scales; per
// collective the measurements (dots), the fitted model (line) and each point's held-out
// prediction (cross). Written by the CLI; no Qt, no fonts beyond SVG's generic sans-serif.

#include "calibrate/CostModel.h"

#include <string>
#include <vector>

namespace astrolabe {

/// A collective's colour in the chart ("#1f77b4" for all_reduce): the window's chart uses the
/// same ones.
const char* calibrationColour(NcclCollective collective);

/// heldOutUs: per point, its held-out prediction in us, or NaN for none (HeldOutReport).
std::string calibrationSvg(const std::vector<CalibrationPoint>& points, const CostModel& model,
                           const std::vector<double>& heldOutUs, const std::string& title);

} // namespace astrolabe
