#pragma once
// Graph platforms made from parameters (docs/graph-platforms.md, "Generators"). Every link is
// bidirectional. NPU ids: meshes and tori number coordinate 0 fastest; trees, dragonflies and
// rail clusters number NPUs under the same switch consecutively. Switches follow the NPUs.
//
//   name       size                      NPUs          switches         bidirectional links
//   mesh2d     [x, y]                    x y           0                (x-1)y + x(y-1)
//   mesh3d     [x, y, z]                 x y z         0                sum over axes
//   torus2d/3d as mesh, with wrap-around (an axis of size 2 gets no second link)
//   hypercube  [d]                       2^d           0                d 2^(d-1)
//   dgx1       []                        8             0                16 (DGX-1V cube-mesh)
//   fattree    [k] (k even)              k^3/4         5k^2/4           3k^3/4
//   dragonfly  [p, a, h]                 p a g         a g              p a g + g a(a-1)/2
//                                                                       + g(g-1)/2, g = a h + 1
//   rail       [nodes] or [nodes, gpus]  nodes gpus    nodes + gpus     2 nodes gpus
//   fred       [k, g]                    k g           g + 1 (g > 1)    k g + g
//
// dgx1: the pair bandwidth is `bandwidth` times the pair's NVLink count (1 or 2, DGX-1V).
// dragonfly: `second` bandwidth/latency are the global (inter-group) links; rail: they are the
// GPU-to-rail-switch links; fred: they are the level-1 to level-2 switch links. Zero means "same
// as the first".

#include "spec/GraphSpec.h"

#include <string>
#include <vector>

namespace astrolabe {

struct GraphGeneratorSpec {
    std::string name;
    std::vector<int64_t> size;
    double bandwidthBytesPerSecond = 0;
    double latencyNs = 0;
    double secondBandwidthBytesPerSecond = 0;
    double secondLatencyNs = -1; ///< < 0: same as latencyNs
};

const std::vector<std::string>& graphGeneratorNames();
/// Throws astrolabe::Error (Validation) naming the parameter when it is out of range: an
/// unknown name (listing the valid ones), a wrong number of sizes, a size too small, or more
/// than kMaxGraphDevices devices. O(devices + links).
GraphSpec generateGraph(const GraphGeneratorSpec& spec);

} // namespace astrolabe
