#include "gui/Presets.h"

#include "core/Error.h"

#include <QObject>

namespace astrolabe::gui {

namespace {

constexpr double kGiB = 1073741824.0;
constexpr uint64_t kMiB = 1048576;

SimulationSpec microbenchmark(const std::string& name, std::vector<DimensionSpec> dims,
                              uint64_t allReduceBytes) {
    SimulationSpec spec;
    spec.name = name;
    spec.platform.dimensions = std::move(dims);
    const std::vector<AlgorithmSpec> rings(spec.platform.dimensions.size(), AlgorithmSpec{});
    spec.system.allReduce = spec.system.reduceScatter = spec.system.allGather =
        spec.system.allToAll = rings;
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.collective = 0; // all-reduce
    spec.workload.microbenchmark.sizeBytes = allReduceBytes;
    return spec;
}

std::vector<Preset> makePresets() {
    std::vector<Preset> out;

    // Mirrors projects/quickstart/project.yaml (ASTRA-sim's Ring_8npus example network).
    SimulationSpec quick = microbenchmark(
        "Quick start", {DimensionSpec{BlockKind::Ring, 8, 50 * kGiB, 500.0}}, 1 * kMiB);
    quick.system.schedulingPolicy = SchedulingPolicy::LIFO;
    quick.system.collectiveOptimization = CollectiveOptimization::LocalBWAware;
    quick.system.preferredDatasetSplits = 4;
    quick.system.activeChunksPerDimension = 1;
    quick.system.endpointDelayNs = 10;
    quick.system.endpointDelayFromFile = true;
    quick.system.localMemBandwidthGBps = 50;
    out.push_back({QStringLiteral("quickstart"), QObject::tr("Quick start: 8 NPUs on a ring"),
                   QObject::tr("Eight NPUs connected in a ring (50 GiB/s, 500 ns per link) run "
                               "one 1 MiB all-reduce with the ring algorithm. The smallest "
                               "interesting case: press Run and read the timeline."),
                   quick});

    // ASTRA-sim's validated HGX-H100 example: one NVSwitch, 8 GPUs (400 GB/s in ASTRA-sim's
    // GB = 2^30 convention, 936.25 ns).
    SimulationSpec hgx = microbenchmark(
        "HGX-H100 8 GPUs", {DimensionSpec{BlockKind::Switch, 8, 400 * kGiB, 936.25}}, 64 * kMiB);
    hgx.system.schedulingPolicy = SchedulingPolicy::LIFO;
    hgx.system.collectiveOptimization = CollectiveOptimization::LocalBWAware;
    hgx.system.preferredDatasetSplits = 4;
    hgx.system.activeChunksPerDimension = 2;
    hgx.system.endpointDelayNs = 10;
    hgx.system.endpointDelayFromFile = true;
    hgx.system.localMemBandwidthGBps = 3350;
    hgx.system.peakPerfTFlops = 989;
    out.push_back({QStringLiteral("hgx-h100"), QObject::tr("HGX-H100: 8 GPUs on NVSwitch"),
                   QObject::tr("One HGX-H100 server: eight GPUs behind an NVSwitch, as in "
                               "ASTRA-sim's validated example (400 GiB/s per GPU, 936.25 ns). "
                               "Runs a 64 MiB all-reduce."),
                   hgx});

    // A 4 x 4 torus: two ring dimensions, like a small TPU slice.
    SimulationSpec torus = microbenchmark("2-D torus 4x4",
                                          {DimensionSpec{BlockKind::Ring, 4, 80 * kGiB, 1000.0},
                                           DimensionSpec{BlockKind::Ring, 4, 80 * kGiB, 1000.0}},
                                          16 * kMiB);
    torus.system.schedulingPolicy = SchedulingPolicy::LIFO;
    torus.system.collectiveOptimization = CollectiveOptimization::LocalBWAware;
    torus.system.preferredDatasetSplits = 4;
    torus.system.activeChunksPerDimension = 1;
    torus.system.endpointDelayNs = 10;
    torus.system.endpointDelayFromFile = true;
    torus.system.localMemBandwidthGBps = 50;
    out.push_back({QStringLiteral("torus-2d"), QObject::tr("2-D torus: 4 x 4 NPUs"),
                   QObject::tr("Sixteen NPUs in a 4 x 4 torus (two ring dimensions, 80 GiB/s, "
                               "1 us per link), like a small TPU slice. A 16 MiB all-reduce "
                               "runs over both dimensions in turn."),
                   torus});
    return out;
}

} // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> all = makePresets();
    return all;
}

const Preset& preset(const QString& id) {
    std::vector<std::string> ids;
    for (const Preset& p : presets()) {
        if (p.id == id)
            return p;
        ids.push_back(p.id.toStdString());
    }
    throw Error(ErrorKind::Validation, "unknown preset \"" + id.toStdString() + "\"", {},
                "valid presets: " + joinAlternatives(ids));
}

} // namespace astrolabe::gui
