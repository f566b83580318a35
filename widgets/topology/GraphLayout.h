#pragma once
// Where every device of a graph platform sits in the graph editor's scene
// (docs/graph-platforms.md). The arrangement follows what the graph is, so that the picture reads
// like the one in a paper:
//   - generated meshes and tori: a grid; 3-D: the layers interleaved in an oblique view (layer c
//     shifted c half-pitch steps right and up), so links between layers are short diagonals and
//     no link crosses a device; a torus' wrap-around links are drawn as two stubs out of the
//     grid (wrapLinks), as the stack drawing draws a ring's (NetworkLayout::wrapStubs);
//   - hypercubes of 3-5 dimensions: a projection, one vector per dimension (a cube in oblique
//     view, then larger turned cubes), no link through a device; others a grid (from 6
//     dimensions its longer links run along rows through devices);
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
#include "spec/PlatformSpec.h"

#include <QPointF>
#include <QRectF>
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

/// The device positions saved with the graph (from the editor), as points; empty when it has none.
std::vector<QPointF> givenPositions(const GraphSpec& graph);

/// The smallest rectangle holding every point (QRectF::united skips zero-size rectangles).
QRectF pointsBounds(const std::vector<QPointF>& points);

/// Per link, whether it is a torus' wrap-around link (generator torus*: it joins the two ends of
/// a row, column or line through the layers): the view draws it as two stubs pointing out of
/// the grid instead of a line across the whole row.
std::vector<char> wrapLinks(const GraphSpec& graph, const std::vector<QPointF>& positions);

} // namespace astrolabe::widgets
