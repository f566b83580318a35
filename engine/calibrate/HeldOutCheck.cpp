#include "calibrate/HeldOutCheck.h"

#include "core/Error.h"
#include "core/Units.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace astrolabe {
namespace {

const uint64_t kRangeStarts[] = {0, uint64_t{64} << 10, uint64_t{1} << 20, uint64_t{16} << 20,
                                 uint64_t{256} << 20};
const char* const kRangeNames[] = {"< 64 KiB", "64 KiB - 1 MiB", "1 - 16 MiB", "16 - 256 MiB",
                                   ">= 256 MiB"};

/// Fits on the points `held` rejects and predicts the others; false (with `why`) when the
/// training points cannot be fitted.
bool predictHeldOut(const std::vector<CalibrationPoint>& points, const FitOptions& options,
                    const std::function<bool(const CalibrationPoint&)>& held,
                    std::vector<double>& predicted, std::string& why) {
    std::vector<CalibrationPoint> training;
    for (const CalibrationPoint& p : points)
        if (!held(p))
            training.push_back(p);
    try {
        const FitResult fit = fitCostModel(training, options);
        for (size_t i = 0; i < points.size(); ++i)
            if (held(points[i]))
                predicted[i] =
                    fit.model.timeUs(points[i].collective, points[i].ranks, points[i].sizeBytes);
        return true;
    } catch (const Error& e) {
        why = e.message();
        return false;
    }
}

/// The geometric mean of the measured times of (collective, ranks, size); 0 when none.
double measuredUs(const std::vector<CalibrationPoint>& points, const CalibrationPoint& like,
                  uint64_t sizeBytes) {
    double sum = 0;
    int n = 0;
    for (const CalibrationPoint& p : points)
        if (p.collective == like.collective && p.ranks == like.ranks && p.sizeBytes == sizeBytes) {
            sum += std::log(p.timeUs);
            ++n;
        }
    return n ? std::exp(sum / n) : 0;
}

/// The interpolation baseline of HeldOutReport for the fold [from, to] of `sizes`: each of its
/// points' entry of `interpolatedUs`.
void interpolate(const std::vector<CalibrationPoint>& points, const std::vector<uint64_t>& sizes,
                 size_t from, size_t to, std::vector<double>& interpolatedUs) {
    if (from == 0 || to + 1 >= sizes.size())
        return;
    for (size_t i = 0; i < points.size(); ++i) {
        const CalibrationPoint& p = points[i];
        if (p.sizeBytes < sizes[from] || p.sizeBytes > sizes[to])
            continue;
        const uint64_t below = sizes[from - 1], above = sizes[to + 1];
        const double tb = measuredUs(points, p, below), ta = measuredUs(points, p, above);
        if (!(tb > 0 && ta > 0))
            continue;
        const double f = std::log(static_cast<double>(p.sizeBytes) / static_cast<double>(below)) /
                         std::log(static_cast<double>(above) / static_cast<double>(below));
        interpolatedUs[i] = std::exp(std::log(tb) + f * (std::log(ta) - std::log(tb)));
    }
}

/// predicted / measured busbw = measured / predicted time.
double ratio(const CalibrationPoint& p, double predictedUs) {
    return p.timeUs / predictedUs;
}

} // namespace

int sizeRangeCount() {
    return static_cast<int>(std::size(kRangeStarts));
}

int sizeRangeOf(uint64_t sizeBytes) {
    return static_cast<int>(
               std::upper_bound(std::begin(kRangeStarts), std::end(kRangeStarts), sizeBytes) -
               std::begin(kRangeStarts)) -
           1;
}

std::string sizeRangeName(int range) {
    return kRangeNames[range];
}

ErrorStats errorStats(const std::vector<double>& ratios) {
    ErrorStats s;
    double logSum = 0, logWorst = 0;
    for (const double r : ratios) {
        if (!(r > 0) || !std::isfinite(r))
            continue;
        ++s.points;
        logSum += std::abs(std::log(r));
        logWorst = std::max(logWorst, std::abs(std::log(r)));
    }
    s.geomean = s.points ? std::exp(logSum / s.points) - 1 : 0;
    s.worst = std::exp(logWorst) - 1;
    return s;
}

HeldOutReport checkHeldOut(const std::vector<CalibrationPoint>& points, const FitOptions& options) {
    HeldOutReport report;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    report.predictedUs.assign(points.size(), nan);
    std::vector<NcclCollective> collectives;
    std::vector<uint64_t> sizes;
    for (const CalibrationPoint& p : points) {
        if (std::find(collectives.begin(), collectives.end(), p.collective) == collectives.end())
            collectives.push_back(p.collective);
        sizes.push_back(p.sizeBytes);
    }
    std::sort(collectives.begin(), collectives.end());
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());

    report.interpolatedUs.assign(points.size(), nan);
    // Two sizes a range, wider beyond 2 x kMaxHeldOutRanges sizes: the refits stay bounded.
    const size_t width = std::max<size_t>(
        kSizesPerHeldOutRange, (sizes.size() + kMaxHeldOutRanges - 1) / kMaxHeldOutRanges);
    for (size_t first = 0; first < sizes.size(); first += width) {
        const size_t last = std::min(first + width, sizes.size()) - 1;
        interpolate(points, sizes, first, last, report.interpolatedUs);
        const uint64_t from = sizes[first];
        const uint64_t to = sizes[last];
        const auto inRange = [from, to](const CalibrationPoint& p) {
            return p.sizeBytes >= from && p.sizeBytes <= to;
        };
        std::string why;
        if (!predictHeldOut(points, options, inRange, report.predictedUs, why))
            report.notes.push_back("without " + units::formatSize(from) + " to " +
                                   units::formatSize(to) + ": " + why);
    }
    std::vector<double> interpolatedAll, interpolatedLarge;
    for (size_t i = 0; i < points.size(); ++i)
        if (!std::isnan(report.interpolatedUs[i])) {
            interpolatedAll.push_back(ratio(points[i], report.interpolatedUs[i]));
            if (points[i].sizeBytes >= kLargeMessageBytes)
                interpolatedLarge.push_back(interpolatedAll.back());
        }
    report.interpolationAll = errorStats(interpolatedAll);
    report.interpolationLarge = errorStats(interpolatedLarge);
    std::vector<double> wide(points.size(), nan);
    for (int range = 0; range < sizeRangeCount(); ++range) {
        const auto inRange = [range](const CalibrationPoint& p) {
            return sizeRangeOf(p.sizeBytes) == range;
        };
        std::string why;
        if (std::any_of(points.begin(), points.end(), inRange) &&
            !predictHeldOut(points, options, inRange, wide, why))
            report.notes.push_back("without " + sizeRangeName(range) + ": " + why);
    }
    std::vector<double> wideAll, wideLarge;
    for (size_t i = 0; i < points.size(); ++i)
        if (!std::isnan(wide[i])) {
            wideAll.push_back(ratio(points[i], wide[i]));
            if (points[i].sizeBytes >= kLargeMessageBytes)
                wideLarge.push_back(wideAll.back());
        }
    report.wideRangeAll = errorStats(wideAll);
    report.wideRangeLarge = errorStats(wideLarge);
    std::vector<double> all, large;
    for (const NcclCollective c : collectives)
        for (int range = 0; range < sizeRangeCount(); ++range) {
            std::vector<double> cell;
            for (size_t i = 0; i < points.size(); ++i)
                if (points[i].collective == c && sizeRangeOf(points[i].sizeBytes) == range &&
                    !std::isnan(report.predictedUs[i]))
                    cell.push_back(ratio(points[i], report.predictedUs[i]));
            if (!cell.empty())
                report.bySizeRange.push_back({c, range, errorStats(cell)});
        }
    for (size_t i = 0; i < points.size(); ++i) {
        if (std::isnan(report.predictedUs[i]))
            continue;
        all.push_back(ratio(points[i], report.predictedUs[i]));
        if (points[i].sizeBytes >= kLargeMessageBytes)
            large.push_back(all.back());
    }
    report.sizeRangeAll = errorStats(all);
    report.sizeRangeLarge = errorStats(large);

    for (const NcclCollective c : collectives) {
        CollectiveHoldOut out;
        out.collective = c;
        if (collectives.size() < 2) {
            out.note = "one collective only: nothing to predict it from";
            report.byCollective.push_back(out);
            continue;
        }
        std::vector<double> predicted(points.size(), nan);
        const auto held = [c](const CalibrationPoint& p) { return p.collective == c; };
        if (!predictHeldOut(points, options, held, predicted, out.note)) {
            report.byCollective.push_back(out);
            continue;
        }
        std::vector<double> mine, mineLarge;
        for (size_t i = 0; i < points.size(); ++i)
            if (held(points[i])) {
                mine.push_back(ratio(points[i], predicted[i]));
                if (points[i].sizeBytes >= kLargeMessageBytes)
                    mineLarge.push_back(mine.back());
            }
        out.all = errorStats(mine);
        out.large = errorStats(mineLarge);
        report.byCollective.push_back(out);
    }
    return report;
}

std::vector<HeldOutMiss> heldOutMisses(const std::vector<CalibrationPoint>& points,
                                       const HeldOutReport& report, double bound) {
    std::vector<HeldOutMiss> misses;
    const double limit = std::log1p(bound);
    for (size_t i = 0; i < points.size() && i < report.predictedUs.size(); ++i) {
        const double predicted = report.predictedUs[i] / points[i].timeUs;
        if (!(std::abs(std::log(predicted)) > limit)) // NaN: not predicted
            continue;
        const double interpolated = i < report.interpolatedUs.size()
                                        ? report.interpolatedUs[i] / points[i].timeUs
                                        : std::numeric_limits<double>::quiet_NaN();
        misses.push_back({i, predicted, interpolated, std::abs(std::log(interpolated)) > limit});
    }
    return misses;
}

} // namespace astrolabe
