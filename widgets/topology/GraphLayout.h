#pragma once
// Where every device of a graph platform sits in the graph editor's scene
// (docs/graph-platforms.md). The arrangement follows what the graph is, so that the picture reads
// like the one in a paper:
//   - generated meshes and hypercubes: a grid; tori: a folded grid (0, 2, 4, ..., 5, 3, 1 along
//     each axis, as tori are built), so that wrap-around links are as short as the others; 3-D:
//     one grid per layer, layers side by side (the links between layers then run across them);
//   - dgx1: the hybrid cube-mesh as a cube, GPUs 0-3 on the front face, 4-7 on the back one;
//   - rail: NPUs in a line node by node, each node's NVSwitch below it, the rail switches above;
//   - a dimension stack converted by "Edit as graph" (several logical dimensions): the stack's
//     own drawing (NetworkLayout), a switch at the centre of the NPUs it joins;
//   - any other graph with switches (fat-trees, dragonflies, hand-made): layers by hop distance
//     from the NPUs, NPUs at the bottom, each layer ordered by its neighbours below;
//   - the rest: a force-directed layout from a circle, deterministic (no random numbers) and with
//     an iteration budget of about 3 * 10^7 node pairs, so 1,024 NPUs lay out in well under a
//     second (GraphLayoutTest measures it).
// Positions are in scene units; neighbouring devices are about kGraphPitch apart.
#include "config/PlatformSpec.h"

#include <QPointF>
#include <vector>

namespace astrolabe::widgets {

constexpr double kGraphPitch = 40.0;

enum class GraphArrangement { Grid, Cube, Rail, Stack, Layered, Force };

struct GraphLayoutResult {
    std::vector<QPointF> positions; ///< one per device: NPUs, then switches
    GraphArrangement arrangement = GraphArrangement::Force;
};

/// Lays out platform.graph (empty result for a stack platform). Devices never share a position.
GraphLayoutResult layoutGraph(const PlatformSpec& platform);

} // namespace astrolabe::widgets
