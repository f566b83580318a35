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
    if (collective == 0)
        passes = 2;
    else if (collective == 2 || collective == 6 || collective == 7)
        passes = 1;
    else
        return std::nullopt;
    return AlphaBetaTerm{static_cast<double>(spec.workload.microbenchmark.sizeBytes),
                         passes * (n - 1) / n / dim.bandwidthBytesPerSecond};
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
