#include "serving/CommCost.h"

#include "core/Error.h"
#include "simulation/Simulation.h"

#include <algorithm>
#include <numeric>

namespace astrolabe::serving {
namespace {

double simulatedSeconds(SimulationSpec spec, int collective, double bytes, int gpus) {
    spec.serving = ServingSpec{};
    spec.workload = WorkloadSource{};
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.collective = collective;
    spec.workload.microbenchmark.sizeBytes = static_cast<uint64_t>(bytes);
    spec.commGroups.clear();
    if (gpus < spec.platform.npuCount()) {
        std::vector<int> ranks(size_t(gpus), 0);
        std::iota(ranks.begin(), ranks.end(), 0);
        spec.commGroups[1] = ranks;
        spec.workload.microbenchmark.commGroup = 1;
    }
    spec.options.recordTimeline = false;
    spec.options.recordLinkIntervals = false;
    spec.options.recordTransfers = false;
    return runSimulation(spec)->endTime.seconds();
}

} // namespace

LinearTime fitCollective(const SimulationSpec& spec, int collective, int gpus,
                         const std::string& key) {
    if (gpus <= 1)
        return {};
    const int npus = spec.platform.npuCount();
    if (npus < gpus)
        throw Error(ErrorKind::Validation,
                    "a replica needs " + std::to_string(gpus) + " GPUs, the platform has " +
                        std::to_string(npus),
                    SourceLocation{spec.sourceFile, 0, 0, key},
                    "the platform describes one replica's network (or more): give it at least as "
                    "many NPUs as the largest replica");
    // Two sizes a step's collectives span: 1 MiB and 64 MiB per GPU.
    const double small = 1 << 20, large = 64 << 20;
    const double t0 = simulatedSeconds(spec, collective, small, gpus);
    const double t1 = simulatedSeconds(spec, collective, large, gpus);
    LinearTime line;
    line.secondsPerByte = std::max(0.0, (t1 - t0) / (large - small));
    line.alphaSeconds = std::max(0.0, t0 - small * line.secondsPerByte);
    return line;
}

LinkFigures scaleOutLink(const PlatformSpec& platform) {
    if (platform.graph) {
        const DimensionSpec d = graphDimension(*platform.graph);
        return {d.bandwidthBytesPerSecond, d.latencyNs * 1e-9};
    }
    if (platform.dimensions.empty())
        return {1e12, 0};
    const DimensionSpec& d = platform.dimensions.back();
    return {d.bandwidthBytesPerSecond, d.latencyNs * 1e-9};
}

} // namespace astrolabe::serving
