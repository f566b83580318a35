#pragma once
// What the sweep charts draw, computed from the table's rows without a window: the points of a
// one-axis line, the cells of a two-axis heatmap and the costs of the Pareto scatter. Only
// finished (ok) points carry numbers; the others leave gaps.

#include "analysis/AlphaBeta.h"
#include "sweep/SweepResultsModel.h"

#include <optional>
#include <string>
#include <vector>

namespace astrolabe::widgets {

/// The distinct values of axis `axis` in the order they first appear.
std::vector<std::string> distinctAxisValues(const std::vector<SweepRow>& rows, size_t axis);
/// Whether every value of the axis starts with a number (sweepValueOf gives a double).
bool numericAxis(const std::vector<SweepRow>& rows, size_t axis);
/// The number an axis value starts with ("100 GiB/s" -> 100); nullopt for "ring".
std::optional<double> axisNumber(const std::string& value);

/// A grid of end times: columns are the values of one axis, rows those of another. Points that
/// share a cell (other axes vary too) keep the shortest end time.
struct HeatmapData {
    std::string xName, yName;
    std::vector<std::string> xValues, yValues;
    std::vector<std::optional<double>> endPs; ///< row-major: [row * xValues.size() + column]
    int sharedCells = 0;                      ///< cells that more than one point fell into
    std::optional<double> at(size_t column, size_t row) const {
        return endPs.at(row * xValues.size() + column);
    }
    std::optional<double> minPs() const;
    std::optional<double> maxPs() const;
};
HeatmapData heatmapData(const std::vector<std::string>& axisNames,
                        const std::vector<SweepRow>& rows, size_t xAxis, size_t yAxis);

/// The alpha-beta model over a sweep of a microbenchmark's size (lesson 2), fitted to the
/// smallest finished point and sampled at `samples` log-spaced sizes up to the largest. Nullopt
/// unless every finished point has an alpha-beta term, all with the same seconds per byte (one
/// platform and collective), and the sizes take at least two values.
struct AlphaBetaCurve {
    AlphaBetaModel model;
    std::vector<std::pair<double, double>> points; ///< (bytes, seconds), by size
};
std::optional<AlphaBetaCurve> alphaBetaCurve(const std::vector<SweepRow>& rows, int samples = 64);

/// The second cost of the Pareto scatter: the largest exposed communication, or an axis value
/// (a bandwidth, a size: what the design costs).
struct SweepMetric {
    std::string name;
    /// -1: max exposed communication; kServingTpot, kServingInteractivity: a serving sweep's
    /// front (servingScatter); otherwise the axis.
    int axis = -1;
};
inline constexpr int kServingTpot = -2;
inline constexpr int kServingInteractivity = -3;
/// A serving sweep (some finished point is a serving run): TPOT p50 and tokens/s per user.
/// Otherwise: exposed communication, then every numeric axis.
std::vector<SweepMetric> paretoMetrics(const std::vector<std::string>& axisNames,
                                       const std::vector<SweepRow>& rows);
/// The value of `metric` for a finished point (ps for times, the axis number otherwise).
std::optional<double> metricValue(const SweepMetric& metric, const SweepRow& row);

/// A serving sweep's Pareto scatter, as the AFD paper and Vidur plot it: output tokens/s per
/// GPU (higher is better) on y, against TPOT p50 in ms (lower is better) or against
/// interactivity, output tokens/s per user = 1000 / TPOT p50 in ms (higher is better), on x.
struct ServingScatter {
    std::vector<std::pair<double, double>> all;   ///< (x, y) of every finished serving point
    std::vector<size_t> points;                   ///< the point index of each entry of `all`
    std::vector<std::pair<double, double>> front; ///< the non-dominated ones, joined by x
    std::vector<size_t> frontPoints;              ///< their point indexes
};
ServingScatter servingScatter(const std::vector<SweepRow>& rows, bool interactivity);

} // namespace astrolabe::widgets
