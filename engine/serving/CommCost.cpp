#include "serving/CommCost.h"

#include "core/Error.h"
#include "simulation/Simulation.h"

#include <algorithm>
#include <numeric>

namespace astrolabe::serving {
namespace {

constexpr int kAllToAll = 6; // Chakra's CollectiveCommType

/// The platform cut down to a replica of `gpus` placed as ServingTraffic.h places it (dimension
/// 0 fastest: whole inner dimensions, then part of the next one), so that its collectives
/// cross the links a replica's do. False when `gpus` is not such a block (a graph platform,
/// or a count that does not divide): the caller runs it as a communicator group instead.
bool cutPlatform(PlatformSpec& platform, int gpus) {
    if (platform.graph)
        return false;
    int inner = 1;
    for (size_t d = 0; d < platform.dimensions.size(); ++d) {
        const int size = platform.dimensions[d].size;
        if (gpus <= inner * size) {
            if (gpus % inner != 0)
                return false;
            const int part = gpus / inner;
            platform.dimensions.resize(part > 1 ? d + 1 : d);
            if (part > 1)
                platform.dimensions[d].size = part;
            return !platform.dimensions.empty();
        }
        inner *= size;
    }
    return false;
}

double simulatedSeconds(SimulationSpec spec, int collective, double bytes, int gpus, bool placed) {
    spec.serving = ServingSpec{};
    spec.workload = WorkloadSource{};
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.collective = collective;
    spec.workload.microbenchmark.sizeBytes = static_cast<uint64_t>(bytes);
    spec.commGroups.clear();
    const bool cut = placed && gpus < spec.platform.npuCount() && cutPlatform(spec.platform, gpus);
    if (cut) {
        const size_t dims = spec.platform.dimensions.size();
        for (auto* list : {&spec.system.allReduce, &spec.system.reduceScatter,
                           &spec.system.allGather, &spec.system.allToAll})
            if (list->size() > dims)
                list->resize(dims);
    } else if (gpus < spec.platform.npuCount()) {
        std::vector<int> ranks(size_t(gpus), 0);
        std::iota(ranks.begin(), ranks.end(), 0);
        spec.commGroups[1] = ranks;
        spec.workload.microbenchmark.commGroup = 1;
    }
    // An all-to-all is every GPU sending to every other at once: on the congestion-unaware
    // backend each of those messages would take a whole link, n - 1 times the link's bandwidth,
    // so it is timed where messages sharing a link share its bandwidth.
    if (placed && collective == kAllToAll &&
        spec.options.backend == NetworkBackend::CongestionUnaware)
        spec.options.backend = NetworkBackend::CongestionAware;
    spec.options.recordTimeline = false;
    spec.options.recordLinkIntervals = false;
    spec.options.recordTransfers = false;
    return runSimulation(spec)->endTime.seconds();
}

} // namespace

LinearTime fitCollective(const SimulationSpec& spec, int collective, int gpus,
                         const std::string& key, bool placed) {
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
    const double t0 = simulatedSeconds(spec, collective, small, gpus, placed);
    const double t1 = simulatedSeconds(spec, collective, large, gpus, placed);
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
