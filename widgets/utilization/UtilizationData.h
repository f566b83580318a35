#pragma once
// Pure computations behind the utilization views: series downsampling, per-dimension averages,
// grid aggregation for heatmaps, per-collective time and the run summary. No Qt; unit-tested.

#include "record/RunResult.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace astrolabe::widgets {

struct SeriesPoint {
    double x = 0;
    double y = 0;
    bool operator==(const SeriesPoint&) const = default;
};

/// values[i] sits at x = x0 + i * dx. At most two points per column (the column's minimum and
/// maximum, in the order they occur), so peaks survive; all points when there are few.
std::vector<SeriesPoint> downsampleMinMax(std::span<const float> values, double x0, double dx,
                                          int columns);

/// Mean utilization of the links of one dimension, per bucket (empty when it has no links).
std::vector<float> dimensionSeries(const RunResult& result, int dimension);
/// Number of dimensions the links span (max dimension + 1).
int linkDimensionCount(const RunResult& result);

/// Aggregates a rows x cols grid (row-major) into outRows x outCols cells by the maximum, so a
/// single saturated link or bucket stays visible. Output row-major.
std::vector<float> aggregateMax(std::span<const float> grid, int rows, int cols, int outRows,
                                int outCols);

struct CollectiveTime {
    CollectiveType type = CollectiveType::AllReduce;
    int count = 0;            ///< spans (one per NPU per collective)
    int64_t totalPs = 0;      ///< summed over NPUs
    int64_t meanPerNpuPs = 0; ///< totalPs / npuCount
    uint64_t bytes = 0;       ///< summed sizes
};
/// Time spent per collective type, in CollectiveType order, types that occur only.
std::vector<CollectiveTime> collectiveBreakdown(const RunResult& result);

struct RunSummaryFigures {
    int64_t endPs = 0;
    int64_t meanComputePs = 0, maxComputePs = 0;
    int64_t meanExposedCommPs = 0, maxExposedCommPs = 0;
    int64_t meanOverlapPs = 0, maxOverlapPs = 0;
    int64_t meanIdlePs = 0;
    double overlapPercentOfComm = 0; ///< mean overlap / mean communication union, in percent
};
RunSummaryFigures summarize(const RunResult& result);

/// Achieved bandwidth of a dimension over the run: bytes / end time, in bytes per second.
double achievedBandwidth(const DimensionStats& stats, SimTime end);

} // namespace astrolabe::widgets
