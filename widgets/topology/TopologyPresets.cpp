#include "topology/TopologyPresets.h"

#include <QObject>

namespace astrolabe::widgets {

DimensionSpec astraDimension(BlockKind kind, int size, double astraGBps, double latencyNs) {
    return DimensionSpec{kind, size, astraGBps * 1073741824.0, latencyNs};
}

namespace {
PlatformSpec platformOf(std::vector<DimensionSpec> dimensions) {
    PlatformSpec p;
    p.dimensions = std::move(dimensions);
    return p;
}
} // namespace

const std::vector<TopologyPreset>& topologyPresets() {
    using K = BlockKind;
    static const std::vector<TopologyPreset> presets{
        {QObject::tr("HGX-H100 (Switch 8)"),
         QObject::tr("8 H100 GPUs on NVSwitch, ASTRA-sim's validated example"),
         platformOf({astraDimension(K::Switch, 8, 400, 936.25)})},
        {QObject::tr("DGX cluster (Switch 8 x Switch 16)"),
         QObject::tr("16 HGX-H100 nodes; one 400 Gb/s NIC per GPU into a switch"),
         platformOf(
             {astraDimension(K::Switch, 8, 400, 936.25), astraDimension(K::Switch, 16, 50, 2000)})},
        {QObject::tr("TPU-style 2-D torus (Ring 32 x Ring 32)"),
         QObject::tr("1,024 NPUs, each linked to four neighbours with wrap-around"),
         platformOf({astraDimension(K::Ring, 32, 50, 500), astraDimension(K::Ring, 32, 50, 500)})},
        {QObject::tr("TPU-style 3-D torus (Ring 16 x Ring 16 x Ring 16)"),
         QObject::tr("4,096 NPUs, six neighbours each"),
         platformOf({astraDimension(K::Ring, 16, 50, 500), astraDimension(K::Ring, 16, 50, 500),
                     astraDimension(K::Ring, 16, 50, 500)})},
        {QObject::tr("W-1D (Switch 512)"),
         QObject::tr("ASTRA-sim 2.0 paper: wafer-scale, one very fast dimension"),
         platformOf({astraDimension(K::Switch, 512, 350, 500)})},
        {QObject::tr("W-2D (Switch 32 x Switch 16)"),
         QObject::tr("ASTRA-sim 2.0 paper: wafer-scale, two fast dimensions"),
         platformOf(
             {astraDimension(K::Switch, 32, 250, 500), astraDimension(K::Switch, 16, 250, 500)})},
        {QObject::tr("Conv-3D (Ring 16 x FC 8 x Switch 4)"),
         QObject::tr("ASTRA-sim 2.0 paper: conventional, bandwidth falls with the dimension"),
         platformOf({astraDimension(K::Ring, 16, 200, 500),
                     astraDimension(K::FullyConnected, 8, 100, 500),
                     astraDimension(K::Switch, 4, 50, 500)})},
        {QObject::tr("Conv-4D (Ring 2 x FC 8 x Ring 8 x Switch 4)"),
         QObject::tr("ASTRA-sim 2.0 paper: conventional, four dimensions"),
         platformOf({astraDimension(K::Ring, 2, 250, 500),
                     astraDimension(K::FullyConnected, 8, 200, 500),
                     astraDimension(K::Ring, 8, 100, 500), astraDimension(K::Switch, 4, 50, 500)})},
    };
    return presets;
}

const TopologyPreset* findTopologyPreset(const QString& name) {
    for (const TopologyPreset& p : topologyPresets())
        if (p.name == name)
            return &p;
    return nullptr;
}

} // namespace astrolabe::widgets
