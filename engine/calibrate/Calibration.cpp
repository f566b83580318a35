#include "calibrate/Calibration.h"

#include "core/Error.h"
#include "core/Units.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>

namespace astrolabe {
namespace {

std::string percent(double fraction) {
    return units::formatFixed(100 * fraction, 1) + " %";
}

std::string padded(std::string text, size_t width) {
    if (text.size() < width)
        text.resize(width, ' ');
    return text + " ";
}

std::string statsText(const ErrorStats& s) {
    return "geomean " + percent(s.geomean) + ", worst " + percent(s.worst) + " (" +
           units::countOf(static_cast<uint64_t>(s.points), "point") + ")";
}

} // namespace

Calibration calibrate(std::vector<NcclRun> runs, const FitOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    Calibration c;
    c.runs = std::move(runs);
    const std::vector<CalibrationPoint> measured = calibrationPoints(c.runs);
    c.measurements = static_cast<int>(measured.size());
    c.points = mergeRepeats(measured);
    try {
        c.fit = fitCostModel(c.points, options);
    } catch (const Error& e) {
        std::string files;
        for (const NcclRun& r : c.runs)
            files +=
                (files.empty() ? "" : ", ") + std::filesystem::path(r.file).filename().string();
        throw Error(e.kind(), files + ": " + e.message(), e.where(), e.hint());
    }
    c.heldOut = checkHeldOut(c.points, options);
    std::vector<double> pairs;
    for (const NcclRun& run : c.runs)
        for (const NcclRow& row : run.rows)
            if (row.sizeBytes > 0 && row.outOfPlaceUs > 0 && row.inPlaceUs > 0)
                pairs.push_back(row.outOfPlaceUs / row.inPlaceUs);
    c.repeatability = errorStats(pairs);
    // Each measurement's point (mergeRepeats keeps the order of first measurements).
    std::vector<size_t> pointOf;
    std::vector<int> repeats(c.points.size(), 0);
    for (const CalibrationPoint& m : measured) {
        const auto it = std::find_if(c.points.begin(), c.points.end(), [&m](const auto& p) {
            return p.collective == m.collective && p.ranks == m.ranks && p.sizeBytes == m.sizeBytes;
        });
        pointOf.push_back(static_cast<size_t>(it - c.points.begin()));
        ++repeats[pointOf.back()];
    }
    std::vector<double> spread;
    for (size_t i = 0; i < measured.size(); ++i)
        if (repeats[pointOf[i]] > 1)
            spread.push_back(measured[i].timeUs / c.points[pointOf[i]].timeUs);
    c.spread = errorStats(spread);
    std::vector<double> every, everyLarge, floor, floorLarge;
    for (size_t i = 0; i < measured.size(); ++i) {
        const double predicted = c.heldOut.predictedUs[pointOf[i]];
        if (!(predicted > 0))
            continue; // its fold had no fit
        const bool large = measured[i].sizeBytes >= kLargeMessageBytes;
        every.push_back(measured[i].timeUs / predicted);
        floor.push_back(measured[i].timeUs / c.points[pointOf[i]].timeUs);
        if (large) {
            everyLarge.push_back(every.back());
            floorLarge.push_back(floor.back());
        }
    }
    c.everyMeasurementAll = errorStats(every);
    c.everyMeasurementLarge = errorStats(everyLarge);
    c.noiseFloorAll = errorStats(floor);
    c.noiseFloorLarge = errorStats(floorLarge);
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return c;
}

namespace {

/// The held-out points off by more than 15 %, each with the interpolation baseline beside it:
/// which misses are the data's steps and which are the model's.
std::string missesText(const Calibration& c) {
    const std::vector<HeldOutMiss> misses = heldOutMisses(c.points, c.heldOut);
    const std::string bound = units::formatPlain(100 * kHeldOutMissBound, 3) + " %";
    if (misses.empty())
        return "  no held-out point is predicted more than " + bound + " off\n";
    std::string out = "  held-out points predicted more than " + bound +
                      " off (time predicted / measured; "
                      "step: interpolating between its measured neighbours misses too, so they "
                      "do not show it):\n";
    for (const HeldOutMiss& m : misses) {
        const CalibrationPoint& p = c.points[m.point];
        out += "    " + padded(ncclCollectiveName(p.collective), 15) +
               padded(units::formatSize(p.sizeBytes), 11) +
               padded(units::formatPlain(p.timeUs, 4) + " us", 13) + "predicted " +
               units::formatFixed(m.predicted, 2) + " x, " +
               (std::isnan(m.interpolated)
                    ? std::string("no neighbour on both sides to interpolate")
                    : "interpolated " + units::formatFixed(m.interpolated, 2) + " x") +
               (m.step ? "  step" : "") + "\n";
    }
    return out;
}

} // namespace

std::string calibrationReportText(const Calibration& c) {
    std::set<std::string> groups;
    for (const NcclRun& r : c.runs)
        groups.insert(std::string(ncclCollectiveName(r.collective)) + " over " +
                      std::to_string(r.ranks) + " ranks");
    std::string kinds;
    for (const std::string& g : groups)
        kinds += (kinds.empty() ? "" : ", ") + g;
    std::string out = "calibrate: " + units::countOf(c.runs.size(), "file") + ", " +
                      std::to_string(c.measurements) + " measurements, " +
                      std::to_string(c.fit.points) + " points at " + std::to_string(c.fit.sizes) +
                      " sizes (" + kinds + "; repeats of a size as their median)\n";
    const CostModel& m = c.fit.model;
    out += "fit: " + units::countOf(m.regimes.size(), "protocol regime") +
           ", in-sample rms error " + percent(c.fit.rmsRelativeError) +
           (c.fit.stepsSeparated ? "" : "; one step count, so alpha is folded into the step cost") +
           "\n";
    for (size_t k = 0; k < m.regimes.size(); ++k) {
        const RegimeCost& r = m.regimes[k];
        out += "  regime " + std::to_string(k + 1) + " sizes " +
               (k == 0 ? std::string("from 0") : "from " + thresholdText(m.thresholdBytes[k - 1])) +
               ": " + regimeText(r) + "\n";
    }
    std::string factors;
    for (size_t k = 0; k < kNcclCollectiveCount; ++k)
        if (m.bandwidthFactor[k] != 1)
            factors += std::string(factors.empty() ? "" : ", ") +
                       ncclCollectiveName(static_cast<NcclCollective>(k)) + " " +
                       units::formatPlain(m.bandwidthFactor[k], 4);
    if (!factors.empty())
        out += "bandwidth factor per collective (its bytes move at factor x the ring link): " +
               factors + "\n";
    for (size_t k = 0; k < kNcclCollectiveCount; ++k) {
        const OwnRegimes& o = m.own[k];
        if (!o.fitted || o.lastFrom == 0)
            continue; // the last regime at every size
        out += std::string("  ") + ncclCollectiveName(static_cast<NcclCollective>(k)) +
               "'s own regimes, fitted from it alone, below " + thresholdText(o.lastFrom) +
               " (from there the last one above):\n";
        for (size_t r = 0; r < o.regimes.size(); ++r)
            if (r == 0 || o.thresholdBytes[r - 1] < o.lastFrom)
                out += "    sizes from " +
                       (r == 0 ? std::string("0") : thresholdText(o.thresholdBytes[r - 1])) + ": " +
                       regimeText(o.regimes[r]) + "\n";
    }
    // "all_reduce 1.7 us, alltoall 3.05 us": the collectives whose value is not zero.
    const auto perCollectiveUs = [](const auto& values) {
        std::string text;
        for (size_t k = 0; k < kNcclCollectiveCount; ++k)
            if (values[k] != 0)
                text += std::string(text.empty() ? "" : ", ") +
                        ncclCollectiveName(static_cast<NcclCollective>(k)) + " " +
                        units::formatPlain(values[k], 4) + " us";
        return text;
    };
    const std::string latencies = perCollectiveUs(m.latencyUs);
    if (!latencies.empty())
        out += "latency per collective in the last regime (added to its alpha; the fastest has "
               "0): " +
               latencies + "\n";
    const std::string settings = perCollectiveUs(m.settingLatencyUs);
    if (!settings.empty())
        out += "latency per collective for the simulator (the last regime at every size, fitted "
               "to all sizes): " +
               settings + "\n";
    if (c.repeatability.points > 0)
        out += "repeatability, out-of-place against in-place of the same size: " +
               statsText(c.repeatability) + "\n";
    if (c.spread.points > 0)
        out += "repeats about their median (on sizes measured more than once): " +
               statsText(c.spread) + "\n";
    out += "held out, two adjacent sizes at a time (error of bus bandwidth):\n";
    out += "  " + padded("collective", 15) + padded("size range", 16) + padded("points", 7) +
           padded("geomean", 9) + "worst\n";
    for (const HeldOutCell& cell : c.heldOut.bySizeRange)
        out += "  " + padded(ncclCollectiveName(cell.collective), 15) +
               padded(sizeRangeName(cell.range), 16) +
               padded(std::to_string(cell.stats.points), 7) +
               padded(percent(cell.stats.geomean), 9) + percent(cell.stats.worst) + "\n";
    out += "  all sizes: " + statsText(c.heldOut.sizeRangeAll) + "\n";
    out += "  >= 1 MiB:  " + statsText(c.heldOut.sizeRangeLarge) + "\n";
    out += "  baseline, each held-out size interpolated between its measured neighbours: all "
           "sizes " +
           statsText(c.heldOut.interpolationAll) + "; >= 1 MiB " +
           statsText(c.heldOut.interpolationLarge) + "\n";
    out += "  against every measurement, not the medians: all sizes " +
           statsText(c.everyMeasurementAll) + "; >= 1 MiB " + statsText(c.everyMeasurementLarge) +
           "\n";
    out += "  noise floor of that (every measurement against its median): all sizes " +
           statsText(c.noiseFloorAll) + "; >= 1 MiB " + statsText(c.noiseFloorLarge) + "\n";
    out += missesText(c);
    out += "held out, each of the ranges above whole:\n";
    out += "  all sizes: " + statsText(c.heldOut.wideRangeAll) + "\n";
    out += "  >= 1 MiB:  " + statsText(c.heldOut.wideRangeLarge) + "\n";
    for (const std::string& note : c.heldOut.notes)
        out += "  not checked: " + note + "\n";
    out += "held out, one collective at a time (a fit without it has no bandwidth factor or "
           "latency of its own: predicted at the shared ones, factor 1, latency 0):\n";
    for (const CollectiveHoldOut& h : c.heldOut.byCollective)
        out +=
            "  " + padded(ncclCollectiveName(h.collective), 15) +
            (h.note.empty() ? "all sizes: " + statsText(h.all) + "; >= 1 MiB: " + statsText(h.large)
                            : h.note) +
            "\n";
    return out;
}

} // namespace astrolabe
