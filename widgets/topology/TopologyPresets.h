#pragma once
// Named platforms a student can start from. Bandwidths are given in ASTRA-sim's network GB/s
// (2^30 B/s) because that is how the sources state them; latencies in ns.
//   HGX-H100      examples/network/analytical/HGX-H100-validated.yml: Switch 8 @ 400, 936.25 ns
//   DGX cluster   16 HGX-H100 nodes joined by one 400 Gb/s (~50 GB/s) NIC per GPU through a
//                 switch: Switch 8 x Switch 16 (illustrative NIC latency 2 us)
//   TPU tori      a v3-style 2-D torus 32x32 and a v4-style 3-D torus 16x16x16 (4,096 NPUs),
//                 illustrative 50 GB/s, 500 ns links
//   ASTRA-sim 2.0 paper, case study 1: W-1D Switch 512 @ 350; W-2D Switch x Switch 32x16 @
//                 250/250; Conv-3D Ring x FC x Switch 16x8x4 @ 200/100/50; Conv-4D
//                 Ring x FC x Ring x Switch 2x8x8x4 @ 250/200/100/50. The paper gives no
//                 latency: 500 ns, the ASTRA-sim examples' value, is used.
#include "spec/PlatformSpec.h"

#include <QString>
#include <vector>

namespace astrolabe::widgets {

struct TopologyPreset {
    QString name;
    QString description;
    PlatformSpec platform;
};

const std::vector<TopologyPreset>& topologyPresets();
/// The preset with that name, or nullptr.
const TopologyPreset* findTopologyPreset(const QString& name);

/// One dimension with its bandwidth in ASTRA-sim GB/s (2^30 B/s).
DimensionSpec astraDimension(BlockKind kind, int size, double astraGBps, double latencyNs);

} // namespace astrolabe::widgets
