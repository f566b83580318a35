#pragma once
// A multi-dimensional platform as the engine sees it: NPU ids <-> coordinates (dimension 0
// varies fastest), hop counts per building block, and the physical device/link graph the
// congestion-aware model and the utilization views use.
//
// Devices: NPUs 0..N-1, then one switch per (Switch dimension, line). A "line" of dimension d
// is the set of NPUs that share every coordinate except d; it has size n_d and there are N/n_d.
// Links are unidirectional. Per line: Ring 2n links (i->i+1 and i->i-1; n = 2 gives 2), Fully
// connected n(n-1), Switch 2n (NPU->switch, switch->NPU).
// Memory: O(N + links); every lookup is O(1) arithmetic, no per-pair tables.
//
// A graph platform (PlatformSpec::graph, docs/graph-platforms.md) has logical dimensions for the
// collectives (by default one of all NPUs; NPU ids map to coordinates as above) over the graph's
// devices and links (a bidirectional link becomes two, forward first, in file
// order). Routes are shortest paths by (sum of link latencies, hop count); among equal next
// steps the lowest link id wins (GraphRouting::Shortest), which on a graph made from a dimension
// stack (graphOfStack()) reproduces the stack's dimension-ordered routes; with
// GraphRouting::Ecmp each flow (src, dst) picks by ecmpHash() among them at every device. Distances
// to a destination are computed by Dijkstra the first time a route to it is asked for and cached
// (O(devices) per destination used; the cache makes route queries non-thread-safe, like the rest of
// a run's state).

#include "record/RunResult.h"
#include "spec/PlatformSpec.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace astrolabe {

class Topology {
public:
    explicit Topology(const PlatformSpec& spec);

    int npuCount() const { return m_npus; }
    int dimensionCount() const { return static_cast<int>(m_dims.size()); }
    const DimensionSpec& dimension(int d) const { return m_dims[d]; }
    int size(int d) const { return m_dims[d].size; }
    int stride(int d) const { return m_strides[d]; }
    int coordinate(int npu, int d) const { return (npu / m_strides[d]) % m_dims[d].size; }
    /// The NPU whose coordinate in d is (coordinate(npu, d) + steps) mod n_d.
    int neighbour(int npu, int d, int steps) const;
    /// Lowest dimension whose coordinates differ; -1 when a == b.
    int lowestDifferingDimension(int a, int b) const;

    /// Hops within one block between positions i and j (congestion-unaware model):
    /// Ring min(cw, n-cw), FullyConnected 1, Switch 2.
    static int hops(BlockKind kind, int n, int i, int j);

    // Physical graph.
    bool isGraph() const { return m_graph; }
    int deviceCount() const { return m_devices; }
    /// Per link: latency in ns and beta in bytes per ns (bandwidth / 1e9), as the models use them.
    double linkLatencyNs(int id) const { return m_linkLatencyNs[static_cast<size_t>(id)]; }
    double linkBytesPerNs(int id) const {
        return m_links[static_cast<size_t>(id)].bandwidthBytesPerSecond / 1e9;
    }
    int linkCount() const { return static_cast<int>(m_links.size()); }
    const LinkInfo& link(int id) const { return m_links[id]; }
    const std::vector<LinkInfo>& links() const { return m_links; }
    /// Links crossed inside dimension d from NPU a to NPU b (which differ only in d), appended.
    /// Ring: shortest direction, ties clockwise (increasing coordinate).
    void appendRouteWithin(int d, int a, int b, std::vector<int32_t>& route) const;
    /// Links that the platform's translations (coordinate-wise shifts) map onto each other share
    /// a class: per dimension, Ring clockwise / anticlockwise, Switch up / down, FullyConnected
    /// by offset (j - i) mod n. Used to spread a symmetric run's link load over all links.
    int linkClass(int link) const;
    int linkClassCount() const { return m_classCount; }
    /// The NPU with coordinates a + b (coordinate-wise, modulo each dimension's size).
    int translate(int a, int b) const;
    /// Switch dimension d: the switch device of npu's line, and the links npu -> switch and
    /// switch -> npu (in-network collectives address the switch itself). On a graph, logical
    /// dimension d's line combines at the switch whose farthest member (by routing distance, to
    /// and from it) is nearest, lowest id among equals; computed on first use and cached; throws
    /// astrolabe::Error when no switch reaches every member (docs/graph-platforms.md).
    int switchDevice(int npu, int d) const {
        return m_graph ? graphLineSwitch(npu, d) : m_switchBase[d] + lineOf(npu, d);
    }
    /// The links from npu up to switchDevice(npu, d) (`up`) or back down, appended: one link on
    /// a stack (switchUplink / switchDownlink), the routed path on a graph.
    void appendSwitchRoute(int npu, int d, bool up, std::vector<int32_t>& route) const;
    int switchUplink(int npu, int d) const {
        return m_linkBase[d] + lineOf(npu, d) * 2 * m_dims[d].size + 2 * coordinate(npu, d);
    }
    int switchDownlink(int npu, int d) const { return switchUplink(npu, d) + 1; }
    /// Dimension-ordered route from the lowest dimension up (see docs/network-models.md).
    void appendRoute(int src, int dst, std::vector<int32_t>& route) const;
    /// Graphs: per NPU (index = source), its route to NPU dst through switches only: at least
    /// one switch and no other NPU on the way, the shortest such path by the same (latency,
    /// hops) as appendRoute with the same choice among equal next steps (lowest link id, or
    /// ecmpHash per flow), so it is appendRoute's route whenever that one passes through
    /// switches only (with ECMP: and no equally short path passes through an NPU, as on
    /// fat-trees and dragonflies). Empty for dst itself, when no such path exists, and on stacks or
    /// graphs without switches. One Dijkstra restricted to switches, not cached: O((devices +
    /// links) log devices + the routes' length); used by TACOS (docs/tacos.md).
    std::vector<std::vector<int32_t>> routesThroughSwitchesTo(int dst) const;

private:
    void buildGraph(const PlatformSpec& spec);
    void appendGraphRoute(int src, int dst, std::vector<int32_t>& route) const;
    int graphLineSwitch(int npu, int d) const;
    /// (latency in ps, hops) from every device to dst; computed on first use.
    const std::vector<std::pair<int64_t, int32_t>>& distancesTo(int dst) const;
    /// Dijkstra to dst over reversed links; switchesOnly: paths whose inner devices are switches.
    void computeDistancesTo(int dst, bool switchesOnly,
                            std::vector<std::pair<int64_t, int32_t>>& dist) const;
    /// Follows `dist` from src (whose cost is `here`) to dst, appending the links.
    void walkGraphRoute(int src, int dst, const std::vector<std::pair<int64_t, int32_t>>& dist,
                        std::pair<int64_t, int32_t> here, bool switchesOnly,
                        std::vector<int32_t>& route) const;
    int lineOf(int npu, int d) const;
    int ringLink(int d, int line, int position, bool clockwise) const;

    std::vector<DimensionSpec> m_dims;
    std::vector<int> m_strides;
    std::vector<int> m_linkBase;   ///< first link id of dimension d
    std::vector<int> m_switchBase; ///< first switch device id of dimension d (Switch only)
    std::vector<LinkInfo> m_links;
    std::vector<int> m_classBase;
    int m_classCount = 0;
    int m_npus = 0;
    int m_devices = 0;
    bool m_graph = false;
    bool m_ecmp = false; ///< graphs: GraphRouting::Ecmp
    std::vector<double> m_linkLatencyNs;
    std::vector<int64_t> m_linkLatencyPs;         ///< graphs: the routing weight
    std::vector<std::vector<int32_t>> m_outLinks; ///< graphs: per device, ascending link ids
    std::vector<std::vector<int32_t>> m_inLinks;
    mutable std::vector<std::vector<std::pair<int64_t, int32_t>>> m_distanceTo; ///< per device
    mutable std::map<std::pair<int, int>, int> m_lineSwitch; ///< graphs: (d, line) -> switch
};

/// The graph of a dimension stack's devices and links (unidirectional, same ids and order), so
/// that graphPlatform(graphOfStack(p)) routes and times messages exactly as p does.
GraphSpec graphOfStack(const PlatformSpec& stack);
/// The stack as a graph platform that keeps the stack's dimensions as its logical dimensions:
/// the same collective phases, the same routes, the same link timing (docs/graph-platforms.md).
PlatformSpec stackAsGraph(const PlatformSpec& stack);

} // namespace astrolabe
