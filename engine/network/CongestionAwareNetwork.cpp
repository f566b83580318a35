#include "network/CongestionAwareNetwork.h"

#include "core/Error.h"

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
    // A table of every (src, dst) pair while it stays small (128 NPUs: 128 KiB).
    const auto n = static_cast<size_t>(topology.npuCount());
    if (n <= 512)
        m_routeTable.assign(n * n, 0);
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
    return static_cast<uint32_t>(m_messages.size() - 1);
}

uint32_t CongestionAwareNetwork::pool(std::unordered_map<uint64_t, uint64_t>& cache, uint64_t key,
                                      size_t begin, uint32_t& length) {
    if (m_routeLinks.size() > UINT32_MAX)
        throw Error(ErrorKind::Unsupported, "more than 4 billion route hops in one run");
    length = static_cast<uint32_t>(m_routeLinks.size() - begin);
    const uint64_t packed = static_cast<uint64_t>(begin) << 32 | length;
    if (m_routeTable.empty() || &cache != &m_routeMap)
        cache.emplace(key, packed);
    else
        m_routeTable[key] = packed;
    return static_cast<uint32_t>(begin);
}

uint32_t CongestionAwareNetwork::routeOf(int src, int dst, uint32_t& length) {
    const auto n = static_cast<uint64_t>(m_topology.npuCount());
    const uint64_t key = static_cast<uint64_t>(src) * n + static_cast<uint64_t>(dst);
    uint64_t packed = 0;
    if (!m_routeTable.empty()) {
        packed = m_routeTable[key];
    } else if (const auto it = m_routeMap.find(key); it != m_routeMap.end()) {
        packed = it->second;
    }
    if (packed != 0) { // a route has at least one link
        length = static_cast<uint32_t>(packed);
        return static_cast<uint32_t>(packed >> 32);
    }
    if (m_checkRoute) // folded runs: the route's symmetry is proved once per pair
        m_checkRoute(src, dst);
    const size_t begin = m_routeLinks.size();
    m_topology.appendRoute(src, dst, m_routeLinks);
    return pool(m_routeMap, key, begin, length);
}

void CongestionAwareNetwork::start(uint32_t route, uint32_t length, uint64_t bytes,
                                   uint64_t token) {
    const uint32_t slot = allocate();
    m_messages[slot] = Message{bytes, token, route, length, 0, kNone};
    enqueue(slot);
}

void CongestionAwareNetwork::transmit(int src, int dst, uint64_t bytes, uint64_t token) {
    uint32_t length = 0;
    const uint32_t route = routeOf(src, dst, length);
    if (m_recorder && m_recorder->enabled())
        m_recorder->addTraffic(src, dst, bytes);
    start(route, length, bytes, token);
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
    const uint64_t key =
        (static_cast<uint64_t>(npu) << 32) | static_cast<uint64_t>(d) << 1 | (up ? 1 : 0);
    uint32_t length = 0, route = 0;
    if (const auto it = m_switchRoutes.find(key); it != m_switchRoutes.end()) {
        length = static_cast<uint32_t>(it->second);
        route = static_cast<uint32_t>(it->second >> 32);
    } else {
        const size_t begin = m_routeLinks.size();
        // One link on a stack, a path on a graph.
        m_topology.appendSwitchRoute(npu, d, up, m_routeLinks);
        route = pool(m_switchRoutes, key, begin, length);
    }
    start(route, length, bytes, token);
}

void CongestionAwareNetwork::enqueue(uint32_t message) {
    Message& m = m_messages[message];
    const int32_t link = m_routeLinks[m.route + m.hop];
    Link& l = m_links[static_cast<size_t>(m_serverOf[static_cast<size_t>(link)])];
    if (l.head == kNone && l.busyUntil <= m_sim.now()) {
        serve(link, message);
        return;
    }
    m.next = kNone;
    if (l.head == kNone)
        l.head = message;
    else
        m_messages[l.tail].next = message;
    l.tail = message;
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
    const uint32_t next = l.head;
    l.head = m_messages[next].next;
    if (l.head == kNone)
        l.tail = kNone;
    // In a symmetric run the waiting message may use another link of the same class.
    const Message& m = m_messages[next];
    serve(m_routeLinks[m.route + m.hop], next);
    if (l.head != kNone) {
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
