#include "sweep/SweepChartData.h"

#include "sweep/ParetoFront.h"
#include "sweep/SweepExpression.h"

#include <algorithm>

namespace astrolabe::widgets {

std::vector<std::string> distinctAxisValues(const std::vector<SweepRow>& rows, size_t axis) {
    std::vector<std::string> values;
    for (const SweepRow& row : rows)
        if (axis < row.values.size() &&
            std::find(values.begin(), values.end(), row.values[axis]) == values.end())
            values.push_back(row.values[axis]);
    return values;
}

std::optional<double> axisNumber(const std::string& value) {
    const SweepValue v = sweepValueOf(value);
    if (const double* number = std::get_if<double>(&v))
        return *number;
    return std::nullopt;
}

bool numericAxis(const std::vector<SweepRow>& rows, size_t axis) {
    return !rows.empty() && std::all_of(rows.begin(), rows.end(), [&](const SweepRow& row) {
        return axis < row.values.size() && axisNumber(row.values[axis]).has_value();
    });
}

std::optional<double> HeatmapData::minPs() const {
    std::optional<double> best;
    for (const std::optional<double>& v : endPs)
        if (v && (!best || *v < *best))
            best = v;
    return best;
}

std::optional<double> HeatmapData::maxPs() const {
    std::optional<double> worst;
    for (const std::optional<double>& v : endPs)
        if (v && (!worst || *v > *worst))
            worst = v;
    return worst;
}

HeatmapData heatmapData(const std::vector<std::string>& axisNames,
                        const std::vector<SweepRow>& rows, size_t xAxis, size_t yAxis) {
    HeatmapData data;
    data.xName = axisNames.at(xAxis);
    data.yName = axisNames.at(yAxis);
    data.xValues = distinctAxisValues(rows, xAxis);
    data.yValues = distinctAxisValues(rows, yAxis);
    data.endPs.assign(data.xValues.size() * data.yValues.size(), std::nullopt);
    std::vector<int> points(data.endPs.size(), 0);
    const auto position = [](const std::vector<std::string>& values, const std::string& v) {
        return static_cast<size_t>(std::find(values.begin(), values.end(), v) - values.begin());
    };
    for (const SweepRow& row : rows) {
        const size_t cell = position(data.yValues, row.values.at(yAxis)) * data.xValues.size() +
                            position(data.xValues, row.values.at(xAxis));
        if (++points[cell] == 2)
            ++data.sharedCells;
        if (row.summary.status != SweepPointStatus::Ok)
            continue;
        const double ps = static_cast<double>(row.summary.endTime.ps());
        if (!data.endPs[cell] || ps < *data.endPs[cell])
            data.endPs[cell] = ps;
    }
    return data;
}

std::optional<AlphaBetaCurve> alphaBetaCurve(const std::vector<SweepRow>& rows, int samples) {
    const SweepRow* smallest = nullptr;
    double largest = 0;
    for (const SweepRow& row : rows) {
        if (row.summary.status != SweepPointStatus::Ok)
            continue;
        if (!row.alphaBeta ||
            (smallest && row.alphaBeta->secondsPerByte != smallest->alphaBeta->secondsPerByte))
            return std::nullopt;
        if (!smallest || row.alphaBeta->sizeBytes < smallest->alphaBeta->sizeBytes)
            smallest = &row;
        largest = std::max(largest, row.alphaBeta->sizeBytes);
    }
    if (!smallest || largest <= smallest->alphaBeta->sizeBytes ||
        smallest->alphaBeta->sizeBytes <= 0)
        return std::nullopt;
    AlphaBetaCurve curve;
    curve.model = AlphaBetaModel::fittedAt(
        smallest->alphaBeta->sizeBytes, smallest->summary.endTime.seconds(), *smallest->alphaBeta);
    for (const double bytes : logSpacedSizes(smallest->alphaBeta->sizeBytes, largest, samples))
        curve.points.emplace_back(bytes, curve.model.seconds(bytes));
    return curve;
}

std::vector<SweepMetric> paretoMetrics(const std::vector<std::string>& axisNames,
                                       const std::vector<SweepRow>& rows) {
    for (const SweepRow& r : rows)
        if (r.summary.status == SweepPointStatus::Ok && r.summary.serving)
            return {{"TPOT p50", kServingTpot}, {"tokens/s per user", kServingInteractivity}};
    std::vector<SweepMetric> metrics{{"max exposed communication", -1}};
    for (size_t a = 0; a < axisNames.size(); ++a)
        if (numericAxis(rows, a))
            metrics.push_back({axisNames[a], static_cast<int>(a)});
    return metrics;
}

std::optional<double> metricValue(const SweepMetric& metric, const SweepRow& row) {
    if (row.summary.status != SweepPointStatus::Ok)
        return std::nullopt;
    if (metric.axis == kServingTpot)
        return row.summary.tpotP50Seconds * 1e3;
    if (metric.axis == kServingInteractivity)
        return row.summary.tpotP50Seconds > 0 ? 1 / row.summary.tpotP50Seconds : 0;
    if (metric.axis < 0)
        return static_cast<double>(row.summary.maxExposedComm.ps());
    return axisNumber(row.values.at(static_cast<size_t>(metric.axis)));
}

ServingScatter servingScatter(const std::vector<SweepRow>& rows, bool interactivity) {
    ServingScatter out;
    std::vector<CostPoint> costs; // both minimized: x (or -x for interactivity) and -y
    for (const SweepRow& r : rows) {
        const SweepPointSummary& s = r.summary;
        if (s.status != SweepPointStatus::Ok || !s.serving || !(s.tpotP50Seconds > 0))
            continue;
        const double x = interactivity ? 1 / s.tpotP50Seconds : s.tpotP50Seconds * 1e3;
        out.all.emplace_back(x, s.outputTokensPerGpuSecond);
        out.points.push_back(s.index);
        costs.push_back({interactivity ? -x : x, -s.outputTokensPerGpuSecond});
    }
    std::vector<size_t> front = paretoFront(costs);
    if (interactivity) // joined by increasing x
        std::reverse(front.begin(), front.end());
    for (const size_t i : front) {
        out.front.push_back(out.all[i]);
        out.frontPoints.push_back(out.points[i]);
    }
    return out;
}

} // namespace astrolabe::widgets
