#include "analysis/AlphaBeta.h"

#include <cmath>

namespace astrolabe {

std::optional<AlphaBetaTerm> alphaBetaTerm(const SimulationSpec& spec) {
    if (spec.workload.kind != WorkloadSource::Kind::Microbenchmark ||
        spec.platform.dimensions.size() != 1 || spec.platform.graph)
        return std::nullopt;
    const DimensionSpec& dim = spec.platform.dimensions.front();
    if (dim.size < 2 || dim.bandwidthBytesPerSecond <= 0)
        return std::nullopt;
    const double n = dim.size;
    // Chakra CollectiveCommType: 0 all-reduce, 2 all-gather, 6 all-to-all, 7 reduce-scatter.
    const int collective = spec.workload.microbenchmark.collective;
    double passes = 0;
    bool reduces = false;
    CollectiveKind kind = CollectiveKind::AllReduce;
    switch (collective) {
    case 0:
        passes = 2;
        reduces = true;
        break;
    case 2:
        passes = 1;
        kind = CollectiveKind::AllGather;
        break;
    case 6:
        passes = 1;
        kind = CollectiveKind::AllToAll;
        break;
    case 7:
        passes = 1;
        reduces = true;
        kind = CollectiveKind::ReduceScatter;
        break;
    default:
        return std::nullopt;
    }
    AlphaBetaTerm term;
    term.sizeBytes = static_cast<double>(spec.workload.microbenchmark.sizeBytes);
    const double factor = spec.system.bandwidthFactor[static_cast<size_t>(kind)];
    term.linkSecondsPerByte = passes * (n - 1) / n / (factor * dim.bandwidthBytesPerSecond);
    const double memory = spec.system.localMemBandwidthGBps * 1e9; // bytes per second
    if (reduces && memory > 0)
        term.reductionSecondsPerByte = 3 * (n - 1) / n / memory;
    term.secondsPerByte = term.linkSecondsPerByte + term.reductionSecondsPerByte;
    return term;
}

std::vector<double> logSpacedSizes(double from, double to, int count) {
    std::vector<double> out;
    if (count < 2 || from <= 0 || to <= from) {
        out.push_back(from);
        return out;
    }
    const double step = std::log(to / from) / (count - 1);
    for (int i = 0; i < count; ++i)
        out.push_back(i == count - 1 ? to : from * std::exp(step * i));
    return out;
}

} // namespace astrolabe
