#include "utilization/UtilizationData.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::widgets {

std::vector<SeriesPoint> downsampleMinMax(std::span<const float> values, double x0, double dx,
                                          int columns) {
    std::vector<SeriesPoint> points;
    const size_t n = values.size();
    if (columns <= 0 || n <= 2 * static_cast<size_t>(columns)) {
        points.reserve(n);
        for (size_t i = 0; i < n; ++i)
            points.push_back({x0 + static_cast<double>(i) * dx, values[i]});
        return points;
    }
    points.reserve(2 * static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) {
        const size_t begin = n * static_cast<size_t>(c) / static_cast<size_t>(columns);
        const size_t end = n * (static_cast<size_t>(c) + 1) / static_cast<size_t>(columns);
        if (begin >= end)
            continue;
        size_t lo = begin, hi = begin;
        for (size_t i = begin; i < end; ++i) {
            if (values[i] < values[lo])
                lo = i;
            if (values[i] > values[hi])
                hi = i;
        }
        const size_t first = std::min(lo, hi);
        const size_t second = std::max(lo, hi);
        points.push_back({x0 + static_cast<double>(first) * dx, values[first]});
        if (second != first)
            points.push_back({x0 + static_cast<double>(second) * dx, values[second]});
    }
    return points;
}

int linkDimensionCount(const RunResult& result) {
    int count = 0;
    for (const LinkInfo& link : result.links)
        count = std::max(count, link.dimension + 1);
    return count;
}

std::vector<float> dimensionSeries(const RunResult& result, int dimension) {
    std::vector<double> sum;
    int64_t links = 0;
    if (result.linkSeries.empty()) {
        // A stored run with grouped link detail: the mean over the groups weighted by their
        // link counts is the mean over the links.
        for (const LinkGroupSeries& g : result.linkGroupSeries) {
            if (g.dimension != dimension)
                continue;
            if (sum.size() < g.mean.size())
                sum.resize(g.mean.size(), 0.0);
            for (size_t b = 0; b < g.mean.size(); ++b)
                sum[b] += static_cast<double>(g.mean[b]) * g.linkCount;
            links += g.linkCount;
        }
    }
    for (size_t l = 0; l < result.links.size() && l < result.linkSeries.size(); ++l) {
        if (result.links[l].dimension != dimension)
            continue;
        const std::vector<float>& series = result.linkSeries[l];
        if (sum.size() < series.size())
            sum.resize(series.size(), 0.0);
        for (size_t b = 0; b < series.size(); ++b)
            sum[b] += series[b];
        ++links;
    }
    std::vector<float> mean(sum.size());
    for (size_t b = 0; b < sum.size(); ++b)
        mean[b] = static_cast<float>(sum[b] / static_cast<double>(links));
    return mean;
}

std::vector<float> aggregateMax(std::span<const float> grid, int rows, int cols, int outRows,
                                int outCols) {
    outRows = std::clamp(outRows, 1, std::max(rows, 1));
    outCols = std::clamp(outCols, 1, std::max(cols, 1));
    std::vector<float> out(static_cast<size_t>(outRows) * outCols, 0.0f);
    for (int r = 0; r < rows; ++r) {
        const int orow = static_cast<int>(static_cast<int64_t>(r) * outRows / rows);
        for (int c = 0; c < cols; ++c) {
            const int ocol = static_cast<int>(static_cast<int64_t>(c) * outCols / cols);
            float& cell = out[static_cast<size_t>(orow) * outCols + ocol];
            cell = std::max(cell, grid[static_cast<size_t>(r) * cols + c]);
        }
    }
    return out;
}

std::vector<CollectiveTime> collectiveBreakdown(const RunResult& result) {
    constexpr int kTypes = 10;
    std::vector<CollectiveTime> all(kTypes);
    for (int t = 0; t < kTypes; ++t)
        all[t].type = static_cast<CollectiveType>(t);
    for (const CollectiveSpan& c : result.collectives) {
        const int t = static_cast<int>(c.type);
        if (t < 0 || t >= kTypes)
            continue;
        ++all[t].count;
        all[t].totalPs += (c.end - c.start).ps();
        all[t].bytes += c.sizeBytes;
    }
    std::vector<CollectiveTime> used;
    const int npus = std::max(result.npuCount, 1);
    for (CollectiveTime& entry : all) {
        if (entry.count == 0)
            continue;
        entry.meanPerNpuPs = entry.totalPs / npus;
        used.push_back(entry);
    }
    return used;
}

RunSummaryFigures summarize(const RunResult& result) {
    RunSummaryFigures f;
    f.endPs = result.endTime.ps();
    if (result.npus.empty())
        return f;
    int64_t compute = 0, exposed = 0, overlap = 0, idle = 0, comm = 0;
    for (const NpuSummary& s : result.npus) {
        compute += s.computeUnion.ps();
        exposed += s.exposedComm.ps();
        overlap += s.overlap.ps();
        idle += s.idle.ps();
        comm += s.commUnion.ps();
        f.maxComputePs = std::max(f.maxComputePs, s.computeUnion.ps());
        f.maxExposedCommPs = std::max(f.maxExposedCommPs, s.exposedComm.ps());
        f.maxOverlapPs = std::max(f.maxOverlapPs, s.overlap.ps());
    }
    const auto n = static_cast<int64_t>(result.npus.size());
    f.meanComputePs = compute / n;
    f.meanExposedCommPs = exposed / n;
    f.meanOverlapPs = overlap / n;
    f.meanIdlePs = idle / n;
    f.overlapPercentOfComm = comm > 0 ? 100.0 * static_cast<double>(overlap) / comm : 0.0;
    return f;
}

double achievedBandwidth(const DimensionStats& stats, SimTime end) {
    return end.ps() > 0 ? static_cast<double>(stats.bytes) / end.seconds() : 0.0;
}

} // namespace astrolabe::widgets
