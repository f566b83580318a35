#include "network/CongestionAwareNetwork.h"

namespace astrolabe {

CongestionAwareNetwork::CongestionAwareNetwork(Simulator& sim, const Topology& topology,
                                               Timing timing, DeliverySink& sink,
                                               LinkRecorder* recorder)
    : m_sim(sim)
    , m_topology(topology)
    , m_timing(timing)
    , m_sink(sink)
    , m_recorder(recorder)
    , m_links(static_cast<size_t>(topology.linkCount()))
    , m_serverOf(static_cast<size_t>(topology.linkCount())) {
    setSymmetric(false);
}

void CongestionAwareNetwork::setSymmetric(bool symmetric) {
    for (int l = 0; l < m_topology.linkCount(); ++l)
        m_serverOf[static_cast<size_t>(l)] = symmetric ? m_topology.linkClass(l) : l;
}

void CongestionAwareNetwork::setServers(std::vector<int32_t> serverOf,
                                        std::function<void(int, int)> checkRoute) {
    m_serverOf = std::move(serverOf);
    m_checkRoute = std::move(checkRoute);
}

uint32_t CongestionAwareNetwork::allocate() {
    if (!m_freeMessages.empty()) {
        const uint32_t slot = m_freeMessages.back();
        m_freeMessages.pop_back();
        return slot;
    }
    m_messages.emplace_back();
    m_routeOf.emplace_back();
    return static_cast<uint32_t>(m_messages.size() - 1);
}

void CongestionAwareNetwork::transmit(int src, int dst, uint64_t bytes, uint64_t token) {
    const uint32_t slot = allocate();
    if (m_checkRoute)
        m_checkRoute(src, dst);
    std::vector<int32_t>& route = m_routeOf[slot];
    route.clear();
    m_topology.appendRoute(src, dst, route);
    m_messages[slot] = Message{bytes, token, static_cast<uint32_t>(route.size()), 0};
    if (m_recorder && m_recorder->enabled())
        m_recorder->addTraffic(src, dst, bytes);
    enqueue(slot);
}

void CongestionAwareNetwork::transmitToSwitch(int npu, int d, uint64_t bytes, uint64_t token) {
    transmitViaSwitch(npu, d, true, bytes, token);
}

void CongestionAwareNetwork::transmitFromSwitch(int d, int npu, uint64_t bytes, uint64_t,
                                                uint64_t token) {
    transmitViaSwitch(npu, d, false, bytes, token);
}

void CongestionAwareNetwork::transmitViaSwitch(int npu, int d, bool up, uint64_t bytes,
                                               uint64_t token) {
    const uint32_t slot = allocate();
    std::vector<int32_t>& route = m_routeOf[slot];
    route.clear();
    m_topology.appendSwitchRoute(npu, d, up, route); // one link on a stack, a path on a graph
    m_messages[slot] = Message{bytes, token, static_cast<uint32_t>(route.size()), 0};
    enqueue(slot);
}

void CongestionAwareNetwork::enqueue(uint32_t message) {
    const int32_t link = m_routeOf[message][m_messages[message].hop];
    Link& l = m_links[static_cast<size_t>(m_serverOf[static_cast<size_t>(link)])];
    if (l.waiting.empty() && l.busyUntil <= m_sim.now()) {
        serve(link, message);
        return;
    }
    l.waiting.push_back(message);
    if (!l.wakeupPending) {
        l.wakeupPending = true;
        m_sim.scheduleAt(l.busyUntil, [this, link] { linkFree(link); });
    }
}

void CongestionAwareNetwork::serve(int32_t link, uint32_t message) {
    Link& l = m_links[static_cast<size_t>(m_serverOf[static_cast<size_t>(link)])];
    const Message& m = m_messages[message];
    // Per link (a dimension's values in a stack, the link's own in a graph).
    const double serializationNs = static_cast<double>(m.bytes) / m_topology.linkBytesPerNs(link);
    const SimTime busyFor = m_timing.fromNs(serializationNs);
    const SimTime arriveIn = m_timing.fromNs(m_topology.linkLatencyNs(link) + serializationNs);
    const SimTime now = m_sim.now();
    l.busyUntil = now + busyFor;
    if (m_recorder && m_recorder->enabled())
        m_recorder->add(link, now, now + busyFor, m.bytes);
    m_sim.scheduleAt(now + arriveIn, [this, message] { arrive(message); });
}

void CongestionAwareNetwork::linkFree(int32_t link) {
    Link& l = m_links[static_cast<size_t>(m_serverOf[static_cast<size_t>(link)])];
    l.wakeupPending = false;
    const uint32_t next = l.waiting.front();
    l.waiting.pop_front();
    // In a symmetric run the waiting message may use another link of the same class.
    serve(m_routeOf[next][m_messages[next].hop], next);
    if (!l.waiting.empty()) {
        l.wakeupPending = true;
        m_sim.scheduleAt(l.busyUntil, [this, link] { linkFree(link); });
    }
}

void CongestionAwareNetwork::arrive(uint32_t message) {
    Message& m = m_messages[message];
    if (++m.hop < m.routeLength) {
        enqueue(message);
        return;
    }
    const uint64_t token = m.token;
    m_freeMessages.push_back(message);
    m_sink.onDelivered(token);
}

} // namespace astrolabe
