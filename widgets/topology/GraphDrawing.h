#pragma once
// A graph platform (docs/graph-platforms.md) drawn as the graph editor draws it, for the views
// that are not the editor: the Watch tab's replay and the project thumbnails. Devices sit where
// the editor puts them (the saved positions, else layoutGraph()), NPUs as disks and switches as
// squares, a torus' wrap-around links as two stubs. A message's path is the engine's own route
// (Topology::appendRoute: shortest by latency and hops, or ECMP per flow, as the run chose), so
// a message between two corners of a 4 x 4 mesh walks the hops it took, and one between two
// GPUs behind a switch goes up to the switch and down again.
//
// Built once per platform: positions O(layout); the engine's Topology only on the first route
// asked for (a thumbnail never asks), then one Dijkstra per destination, cached by it. GUI thread
// only, like the Topology it holds.
#include "spec/PlatformSpec.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <memory>
#include <vector>

class QPainter;

namespace astrolabe {
class Topology;
}

namespace astrolabe::widgets {

struct NetworkViewState;

class GraphDrawing {
public:
    /// The drawn radius of a device, in scene units (the editor's: 8 on a pitch of 40).
    static constexpr double kDeviceRadius = 8.0;

    GraphDrawing();
    /// Lays out platform.graph; empty() for a stack platform or a graph without devices.
    explicit GraphDrawing(const PlatformSpec& platform);
    ~GraphDrawing();
    GraphDrawing(GraphDrawing&&) noexcept;
    GraphDrawing& operator=(GraphDrawing&&) noexcept;

    bool empty() const { return m_positions.empty(); }
    int npuCount() const { return m_npus; }
    int deviceCount() const { return static_cast<int>(m_positions.size()); }
    QPointF position(int device) const { return m_positions.at(static_cast<size_t>(device)); }
    const std::vector<QPointF>& positions() const { return m_positions; }
    /// Every device, with room for its radius.
    QRectF bounds() const { return m_bounds; }
    /// One segment per link (a bidirectional pair once); a wrap-around link is its two stubs.
    const std::vector<QLineF>& segments() const { return m_segments; }

    /// The devices a message from NPU src to NPU dst passes, src and dst included, as the engine
    /// routes it; {src, dst} when the engine cannot route it (the drawing stays straight).
    std::vector<int> route(int src, int dst) const;
    /// An in-network collective's message between NPU npu and the switch where its logical
    /// dimension's line combines: up (npu first) or down (the switch first). Empty when the graph
    /// has no such switch.
    std::vector<int> switchRoute(int npu, int dimension, bool up) const;

    /// The device drawn under scene point `p` (-1: none).
    int deviceAt(QPointF p) const;
    /// "npu3 — 3 links: npu2, npu7, sw0": for the hover box.
    QString describeDevice(int device) const;

    /// Links, then devices, at the view's scale and offset; NPU numbers when they fit.
    void paint(QPainter& painter, const NetworkViewState& state) const;

private:
    std::vector<int> devicesOf(int from, const std::vector<int32_t>& links) const;
    /// The engine's routing for this platform, built on first use; null if it refuses the graph.
    const Topology* topology() const;

    PlatformSpec m_platform;
    GraphSpec m_graph;
    int m_npus = 0;
    std::vector<QPointF> m_positions;
    std::vector<QLineF> m_segments;
    QRectF m_bounds;
    mutable std::unique_ptr<Topology> m_topology;
    mutable bool m_topologyTried = false;
};

} // namespace astrolabe::widgets
