#include "network/CongestionUnawareNetwork.h"

#include <algorithm>
#include <cmath>

namespace astrolabe {

CongestionUnawareNetwork::CongestionUnawareNetwork(Simulator& sim, const Topology& topology,
                                                   Timing timing, DeliverySink& sink,
                                                   LinkRecorder* recorder)
    : m_sim(sim)
    , m_topology(topology)
    , m_timing(timing)
    , m_sink(sink)
    , m_recorder(recorder) {}

SimTime CongestionUnawareNetwork::graphDelay(int src, int dst, uint64_t bytes,
                                             std::vector<int32_t>& route) const {
    route.clear();
    m_topology.appendRoute(src, dst, route);
    if (route.empty())
        return SimTime::zero();
    const auto [latencyNs, bytesPerNs] = routeCost(route);
    return m_timing.fromNs(latencyNs + static_cast<double>(bytes) / bytesPerNs);
}

std::pair<double, double>
CongestionUnawareNetwork::routeCost(const std::vector<int32_t>& route) const {
    // Latencies are summed in whole picoseconds (exact), bytes cross the bottleneck once.
    int64_t latencyPs = 0;
    double bytesPerNs = m_topology.linkBytesPerNs(route.front());
    for (int32_t l : route) {
        latencyPs += std::llround(m_topology.linkLatencyNs(l) * 1e3);
        bytesPerNs = std::min(bytesPerNs, m_topology.linkBytesPerNs(l));
    }
    return {static_cast<double>(latencyPs) / 1e3, bytesPerNs};
}

SimTime CongestionUnawareNetwork::delay(int src, int dst, uint64_t bytes) const {
    if (m_topology.isGraph()) {
        std::vector<int32_t> route;
        return graphDelay(src, dst, bytes, route);
    }
    const int d = m_topology.lowestDifferingDimension(src, dst);
    if (d < 0)
        return SimTime::zero();
    const DimensionSpec& dim = m_topology.dimension(d);
    const int hops = Topology::hops(dim.kind, dim.size, m_topology.coordinate(src, d),
                                    m_topology.coordinate(dst, d));
    return m_timing.fromNs(hops * dim.latencyNs + static_cast<double>(bytes) / dim.bytesPerNs());
}

void CongestionUnawareNetwork::transmit(int src, int dst, uint64_t bytes, uint64_t token) {
    if (m_topology.isGraph()) {
        const SimTime arrival = m_sim.now() + graphDelay(src, dst, bytes, m_route);
        if (m_recorder && m_recorder->enabled()) {
            recordRoute(bytes);
            m_recorder->addTraffic(src, dst, bytes);
        }
        m_sim.scheduleAt(arrival, [this, token] { m_sink.onDelivered(token); });
        return;
    }
    const SimTime arrival = m_sim.now() + delay(src, dst, bytes);
    if (m_recorder && m_recorder->enabled()) {
        const int d = m_topology.lowestDifferingDimension(src, dst);
        // The model only looks at dimension d, so the bytes cross d's links and no others.
        const int shift = m_topology.coordinate(dst, d) - m_topology.coordinate(src, d);
        m_route.clear();
        m_topology.appendRouteWithin(d, src, m_topology.neighbour(src, d, shift), m_route);
        const DimensionSpec& dim = m_topology.dimension(d);
        const SimTime busy = m_timing.fromNs(static_cast<double>(bytes) / dim.bytesPerNs());
        for (int32_t link : m_route)
            m_recorder->add(link, m_sim.now(), m_sim.now() + busy, bytes);
        m_recorder->addTraffic(src, dst, bytes);
    }
    m_sim.scheduleAt(arrival, [this, token] { m_sink.onDelivered(token); });
}

void CongestionUnawareNetwork::recordSwitchLink(int32_t link, const DimensionSpec& dim,
                                                uint64_t bytes) {
    if (m_recorder && m_recorder->enabled())
        m_recorder->add(
            link, m_sim.now(),
            m_sim.now() + m_timing.fromNs(static_cast<double>(bytes) / dim.bytesPerNs()), bytes);
}

void CongestionUnawareNetwork::transmitToSwitch(int npu, int d, uint64_t bytes, uint64_t token) {
    if (m_topology.isGraph()) {
        const double latencyNs = recordSwitchRoute(npu, d, true, bytes).first;
        m_sim.scheduleAt(m_sim.now() + m_timing.fromNs(latencyNs),
                         [this, token] { m_sink.onDelivered(token); });
        return;
    }
    const DimensionSpec& dim = m_topology.dimension(d);
    recordSwitchLink(m_topology.switchUplink(npu, d), dim, bytes);
    m_sim.scheduleAt(m_sim.now() + m_timing.fromNs(dim.latencyNs),
                     [this, token] { m_sink.onDelivered(token); });
}

void CongestionUnawareNetwork::transmitFromSwitch(int d, int npu, uint64_t bytes,
                                                  uint64_t inputBytes, uint64_t token) {
    const double streamed = static_cast<double>(std::max(bytes, inputBytes));
    if (m_topology.isGraph()) {
        const auto [latencyNs, bytesPerNs] = recordSwitchRoute(npu, d, false, bytes);
        m_sim.scheduleAt(m_sim.now() + m_timing.fromNs(latencyNs + streamed / bytesPerNs),
                         [this, token] { m_sink.onDelivered(token); });
        return;
    }
    const DimensionSpec& dim = m_topology.dimension(d);
    recordSwitchLink(m_topology.switchDownlink(npu, d), dim, bytes);
    m_sim.scheduleAt(m_sim.now() + m_timing.fromNs(dim.latencyNs + streamed / dim.bytesPerNs()),
                     [this, token] { m_sink.onDelivered(token); });
}

std::pair<double, double> CongestionUnawareNetwork::recordSwitchRoute(int npu, int d, bool up,
                                                                      uint64_t bytes) {
    m_route.clear();
    m_topology.appendSwitchRoute(npu, d, up, m_route);
    if (m_recorder && m_recorder->enabled())
        recordRoute(bytes);
    return routeCost(m_route);
}

void CongestionUnawareNetwork::recordRoute(uint64_t bytes) {
    // Each link of the route busy for bytes over its own bandwidth from the send time.
    for (int32_t link : m_route)
        m_recorder->add(link, m_sim.now(),
                        m_sim.now() + m_timing.fromNs(static_cast<double>(bytes) /
                                                      m_topology.linkBytesPerNs(link)),
                        bytes);
}

} // namespace astrolabe
