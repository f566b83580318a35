#pragma once
// How well a fit predicts what it did not see (docs/calibration.md, "Held-out checks").
//
// Leave one size range out: the measured sizes, in order, are cut into ranges of two adjacent
// sizes (a factor of 4 in a doubling sweep); for each range, fit on every other point and predict
// that range's points. The same is also done with the report's five wide ranges (a factor of 16
// and more each), a harsher test. Leave one collective out: every point of one collective held
// out (all_reduce predicted from all_gather and reduce_scatter, ...). Errors are of the bus
// bandwidth, which for a given size is the error of the time: with r = predicted / measured,
//   geomean error = exp(mean |ln r|) - 1   (the geometric mean of max(r, 1/r), minus 1)
//   worst error   = max(r, 1/r) - 1 over the points (so geomean <= worst; 10 % either way
//                   means predicted 1.1 x or 1/1.1 x the measured).

#include "calibrate/CostFit.h"

#include <string>
#include <vector>

namespace astrolabe {

/// The report's size ranges: < 64 KiB, 64 KiB-1 MiB, 1-16 MiB, 16-256 MiB, >= 256 MiB.
int sizeRangeCount();
int sizeRangeOf(uint64_t sizeBytes);
std::string sizeRangeName(int range);
/// Messages of at least this many bytes count as large (1 MiB) in the summary.
inline constexpr uint64_t kLargeMessageBytes = uint64_t{1} << 20;

struct ErrorStats {
    int points = 0;
    double geomean = 0;
    double worst = 0;
};
/// Of the ratios predicted / measured.
ErrorStats errorStats(const std::vector<double>& ratios);

struct HeldOutCell {
    NcclCollective collective = NcclCollective::AllReduce;
    int range = 0;
    ErrorStats stats;
};

struct CollectiveHoldOut {
    NcclCollective collective = NcclCollective::AllReduce;
    ErrorStats all, large;
    std::string note; ///< why there is no figure, when there is none
};

/// Adjacent sizes per held-out range.
inline constexpr int kSizesPerHeldOutRange = 2;
/// At most this many held-out ranges: beyond 64 sizes a range holds ceil(sizes / 32) sizes.
inline constexpr size_t kMaxHeldOutRanges = 32;

struct HeldOutReport {
    /// Leave-one-size-range-out (ranges of kSizesPerHeldOutRange sizes), per collective and
    /// report range.
    std::vector<HeldOutCell> bySizeRange;
    ErrorStats sizeRangeAll, sizeRangeLarge; ///< over every point so predicted; large: >= 1 MiB
    ErrorStats wideRangeAll, wideRangeLarge; ///< the same with each report range held out whole
    /// A model-free baseline on the same folds: each held-out size's time interpolated in
    /// log-log between the nearest measured sizes on either side (same collective and ranks;
    /// sizes without a neighbour on both sides are not counted). A step in the measured curve
    /// that its neighbours do not show is missed by any predictor that has only the neighbours.
    ErrorStats interpolationAll, interpolationLarge;
    std::vector<CollectiveHoldOut> byCollective; ///< leave-one-collective-out
    /// Per point, its leave-one-size-range-out prediction in us; NaN when its fold had no fit.
    std::vector<double> predictedUs;
    /// Per point, the interpolation baseline's time in us; NaN without a measured neighbour on
    /// both sides of its fold.
    std::vector<double> interpolatedUs;
    std::vector<std::string> notes; ///< folds that could not be fitted, and why
};

/// A held-out point predicted off by more than a bound, in time (predicted / measured; the
/// bus bandwidth's ratio is the inverse).
struct HeldOutMiss {
    size_t point = 0; ///< index into the points
    double predicted = 0;
    double interpolated = 0; ///< the interpolation baseline's; NaN when it has none
    /// The baseline misses by more than the bound too: the measured curve steps where its
    /// neighbours do not announce it (a protocol, algorithm or channel switch, or noise), and
    /// no predictor that sees only the neighbours would do better.
    bool step = false;
};

/// How far off a held-out prediction is a miss: above 1.15 x or below 1 / 1.15 x the measured
/// time.
inline constexpr double kHeldOutMissBound = 0.15;
/// The points of `report` (checkHeldOut over `points`) whose leave-one-size-range-out
/// prediction is off by more than `bound`, in the points' order.
std::vector<HeldOutMiss> heldOutMisses(const std::vector<CalibrationPoint>& points,
                                       const HeldOutReport& report,
                                       double bound = kHeldOutMissBound);

/// Cost: one fit per size range and per collective present.
HeldOutReport checkHeldOut(const std::vector<CalibrationPoint>& points,
                           const FitOptions& options = {});

} // namespace astrolabe
