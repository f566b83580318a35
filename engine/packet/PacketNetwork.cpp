#include "packet/PacketNetwork.h"

#include "core/Error.h"
#include "core/Units.h"
#include "packet/PacketFabric.h"
#include "record/LinkRecorder.h"
#include "topology/Topology.h"

#include <deque>
#include <mutex>
#include <ns3/inet-socket-address.h>
#include <ns3/simulator.h>
#include <ns3/socket.h>
#include <ns3/tcp-l4-protocol.h>
#include <ns3/tcp-socket-base.h>
#include <ns3/tcp-socket-factory.h>
#include <ns3/tcp-socket-state.h>
#include <ns3/tcp-tx-buffer.h>
#include <unordered_map>

namespace astrolabe {

namespace {

constexpr uint16_t kPort = 5000;

std::mutex& ns3Lock() {
    static std::mutex lock;
    return lock;
}

void stopNs3() {
    ns3::Simulator::Stop();
}

} // namespace

class PacketNetwork::Impl {
public:
    Impl(Simulator& sim, const Topology& topology, const PacketOptions& options, DeliverySink& sink)
        : m_guard(ns3Lock())
        , m_sim(sim)
        , m_topology(topology)
        , m_options(options)
        , m_sink(sink) {}

    ~Impl() {
        m_connections.clear();
        m_accepted.clear();
        m_listeners.clear();
        m_fabric.reset();
        ns3::Simulator::Destroy();
    }

    void build(LinkRecorder* recorder) {
        packet::configureNs3(m_options);
        m_fabric = std::make_unique<packet::PacketFabric>(m_topology, m_options, recorder);
        for (int npu = 0; npu < m_topology.npuCount(); ++npu) {
            ns3::Ptr<ns3::Socket> s =
                ns3::Socket::CreateSocket(m_fabric->node(npu), ns3::TcpSocketFactory::GetTypeId());
            s->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), kPort));
            s->Listen();
            s->SetAcceptCallback(
                ns3::MakeNullCallback<bool, ns3::Ptr<ns3::Socket>, const ns3::Address&>(),
                ns3::Callback<void, ns3::Ptr<ns3::Socket>, const ns3::Address&>(
                    [this](ns3::Ptr<ns3::Socket> socket, const ns3::Address& from) {
                        accepted(socket, from);
                    }));
            m_listeners.push_back(s);
        }
        // ns-3 initialises nodes (and their traffic-control layers) in events at time 0: run
        // them before the first flow is sent.
        ns3::Simulator::Schedule(ns3::Time(0), &stopNs3);
        ns3::Simulator::Run();
    }

    void transmit(int src, int dst, uint64_t bytes, uint64_t token);
    void pump();
    std::vector<std::string> reportLines() const;
    const packet::PacketFabric& fabric() const { return *m_fabric; }

private:
    struct Message {
        uint64_t token = 0;
        int src = 0, dst = 0;
        uint64_t bytes = 0, received = 0;
        int partsLeft = 0;
        SimTime start;
    };
    struct Part {
        uint32_t message;
        uint64_t unsent, unreceived;
    };
    struct Connection {
        int src = 0, dst = 0;
        uint16_t port = 0;
        ns3::Ptr<ns3::Socket> socket;
        std::deque<Part> parts;
        size_t cursor = 0; ///< first part with bytes left to send
        // For the stall report: TCP's state and congestion state (traced on change) and whether
        // the destination has accepted the connection.
        ns3::TcpSocket::TcpStates_t state = ns3::TcpSocket::CLOSED;
        ns3::TcpSocketState::TcpCongState_t congState = ns3::TcpSocketState::CA_OPEN;
        bool accepted = false;
        uint32_t cwnd = 0, ssthresh = 0, rwnd = 0;
    };
    std::string describe(uint32_t c) const;

    uint32_t connection(int src, int dst, int index);
    void send(uint32_t c);
    void accepted(ns3::Ptr<ns3::Socket> socket, const ns3::Address& from);
    void received(uint32_t c, ns3::Ptr<ns3::Socket> socket);
    void runNs3Until(SimTime limit);
    /// ns-3 gave a connection up: stop, and let pump() report it.
    void failed(uint32_t c, const char* what) {
        if (m_failure.empty())
            m_failure = std::string("the TCP connection ") + std::to_string(c) + " from NPU " +
                        std::to_string(m_connections[c].src) + " to NPU " +
                        std::to_string(m_connections[c].dst) + " " + what;
        ns3::Simulator::Stop();
    }
    [[noreturn]] void stalled() const;

    std::unique_lock<std::mutex> m_guard;
    Simulator& m_sim;
    const Topology& m_topology;
    PacketOptions m_options;
    DeliverySink& m_sink;
    std::unique_ptr<packet::PacketFabric> m_fabric;
    std::vector<ns3::Ptr<ns3::Socket>> m_listeners, m_accepted;
    std::vector<Connection> m_connections;
    std::unordered_map<uint64_t, uint32_t> m_connectionOf; ///< (src, dst, index) -> connection
    std::unordered_map<uint64_t, uint32_t> m_bySourcePort; ///< (src, port) -> connection
    std::vector<Message> m_messages;
    std::vector<std::pair<SimTime, uint64_t>> m_completed; ///< since the last pump
    size_t m_inFlight = 0;
    SimTime m_lastProgress;
    bool m_pumpPending = false;
    std::string m_failure; ///< set when ns-3 gave a connection up
};

uint32_t PacketNetwork::Impl::connection(int src, int dst, int index) {
    const uint64_t key = static_cast<uint64_t>(src) << 40 | static_cast<uint64_t>(dst) << 16 |
                         static_cast<uint64_t>(index);
    if (const auto it = m_connectionOf.find(key); it != m_connectionOf.end())
        return it->second;
    const auto c = static_cast<uint32_t>(m_connections.size());
    Connection& conn = m_connections.emplace_back();
    conn.src = src;
    conn.dst = dst;
    conn.socket =
        ns3::Socket::CreateSocket(m_fabric->node(src), ns3::TcpSocketFactory::GetTypeId());
    conn.socket->Bind();
    ns3::Address local;
    conn.socket->GetSockName(local);
    conn.port = ns3::InetSocketAddress::ConvertFrom(local).GetPort();
    conn.socket->SetSendCallback(ns3::Callback<void, ns3::Ptr<ns3::Socket>, uint32_t>(
        [this, c](ns3::Ptr<ns3::Socket>, uint32_t) { send(c); }));
    conn.socket->SetConnectCallback(
        ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>>(),
        ns3::Callback<void, ns3::Ptr<ns3::Socket>>(
            [this, c](ns3::Ptr<ns3::Socket>) { failed(c, "could not be opened"); }));
    conn.socket->SetCloseCallbacks(
        ns3::Callback<void, ns3::Ptr<ns3::Socket>>([this, c](ns3::Ptr<ns3::Socket>) {
            failed(c, "was closed (reset by its destination)");
        }),
        ns3::Callback<void, ns3::Ptr<ns3::Socket>>([this, c](ns3::Ptr<ns3::Socket>) {
            failed(c, "was closed by an error (retransmissions exhausted)");
        }));
    conn.socket->TraceConnectWithoutContext(
        "State", ns3::Callback<void, ns3::TcpSocket::TcpStates_t, ns3::TcpSocket::TcpStates_t>(
                     [this, c](ns3::TcpSocket::TcpStates_t, ns3::TcpSocket::TcpStates_t now) {
                         m_connections[c].state = now;
                     }));
    conn.socket->TraceConnectWithoutContext("CongState",
                                            ns3::Callback<void, ns3::TcpSocketState::TcpCongState_t,
                                                          ns3::TcpSocketState::TcpCongState_t>(
                                                [this, c](ns3::TcpSocketState::TcpCongState_t,
                                                          ns3::TcpSocketState::TcpCongState_t now) {
                                                    m_connections[c].congState = now;
                                                }));
    const auto traceValue = [this, c](const char* name, uint32_t Connection::*field) {
        m_connections[c].socket->TraceConnectWithoutContext(
            name, ns3::Callback<void, uint32_t, uint32_t>(
                      [this, c, field](uint32_t, uint32_t now) { m_connections[c].*field = now; }));
    };
    traceValue("CongestionWindow", &Connection::cwnd);
    traceValue("SlowStartThreshold", &Connection::ssthresh);
    traceValue("RWND", &Connection::rwnd);
    conn.socket->Connect(
        ns3::InetSocketAddress(m_fabric->tables().address[static_cast<size_t>(dst)], kPort));
    m_connectionOf.emplace(key, c);
    m_bySourcePort.emplace(static_cast<uint64_t>(src) << 16 | conn.port, c);
    return c;
}

void PacketNetwork::Impl::send(uint32_t c) {
    Connection& conn = m_connections[c];
    while (conn.cursor < conn.parts.size()) {
        Part& part = conn.parts[conn.cursor];
        const uint32_t room = conn.socket->GetTxAvailable();
        if (room == 0)
            return;
        const auto n = static_cast<uint32_t>(std::min<uint64_t>(room, part.unsent));
        if (conn.socket->Send(ns3::Create<ns3::Packet>(n)) < 0)
            return;
        part.unsent -= n;
        if (part.unsent == 0)
            ++conn.cursor;
    }
}

void PacketNetwork::Impl::accepted(ns3::Ptr<ns3::Socket> socket, const ns3::Address& from) {
    const ns3::InetSocketAddress peer = ns3::InetSocketAddress::ConvertFrom(from);
    const auto& npuOf = m_fabric->tables().npuOfAddress;
    const auto npu = npuOf.find(peer.GetIpv4().Get());
    if (npu == npuOf.end())
        return;
    const auto it = m_bySourcePort.find(static_cast<uint64_t>(npu->second) << 16 | peer.GetPort());
    if (it == m_bySourcePort.end())
        return;
    const uint32_t c = it->second;
    m_connections[c].accepted = true;
    socket->SetRecvCallback(ns3::Callback<void, ns3::Ptr<ns3::Socket>>(
        [this, c](ns3::Ptr<ns3::Socket> s) { received(c, s); }));
    const auto closed = [this, c](const char* what) {
        return ns3::Callback<void, ns3::Ptr<ns3::Socket>>(
            [this, c, what](ns3::Ptr<ns3::Socket>) { failed(c, what); });
    };
    socket->SetCloseCallbacks(closed("was closed at its destination"),
                              closed("was closed by an error at its destination"));
    m_accepted.push_back(socket);
}

void PacketNetwork::Impl::received(uint32_t c, ns3::Ptr<ns3::Socket> socket) {
    Connection& conn = m_connections[c];
    while (ns3::Ptr<ns3::Packet> p = socket->Recv()) {
        uint64_t n = p->GetSize();
        if (n > 0)
            m_lastProgress = packet::fromNs3(ns3::Simulator::Now());
        while (n > 0 && !conn.parts.empty()) {
            Part& part = conn.parts.front();
            const uint64_t take = std::min(n, part.unreceived);
            part.unreceived -= take;
            n -= take;
            Message& m = m_messages[part.message];
            m.received += take;
            if (part.unreceived > 0)
                continue;
            if (--m.partsLeft == 0) {
                m_completed.emplace_back(packet::fromNs3(ns3::Simulator::Now()), m.token);
                --m_inFlight;
                ns3::Simulator::Stop(); // hand the completion to our event core now
            }
            conn.parts.pop_front();
            --conn.cursor;
        }
    }
}

void PacketNetwork::Impl::transmit(int src, int dst, uint64_t bytes, uint64_t token) {
    runNs3Until(m_sim.now()); // an idle ns-3 lags behind; nothing completes meanwhile
    if (bytes == 0) {
        m_sim.scheduleAt(m_sim.now(), [this, token] { m_sink.onDelivered(token); });
        return;
    }
    if (m_inFlight == 0)
        m_lastProgress = m_sim.now();
    const auto id = static_cast<uint32_t>(m_messages.size());
    const int parts = static_cast<int>(
        std::min<uint64_t>(static_cast<uint64_t>(std::max(1, m_options.subflows)), bytes));
    m_messages.push_back({token, src, dst, bytes, 0, parts, m_sim.now()});
    ++m_inFlight;
    for (int k = 0; k < parts; ++k) {
        const uint64_t share = bytes / static_cast<uint64_t>(parts) +
                               (static_cast<uint64_t>(k) < bytes % static_cast<uint64_t>(parts));
        const uint32_t c = connection(src, dst, k);
        m_connections[c].parts.push_back({id, share, share});
        send(c);
    }
    if (!m_pumpPending) {
        m_pumpPending = true;
        m_sim.scheduleAt(m_sim.now(), [this] { pump(); });
    }
}

void PacketNetwork::Impl::runNs3Until(SimTime limit) {
    const SimTime now3 = packet::fromNs3(ns3::Simulator::Now());
    if (limit <= now3)
        return;
    const ns3::EventId stop = ns3::Simulator::Schedule(packet::toNs3(limit - now3), &stopNs3);
    ns3::Simulator::Run();
    ns3::Simulator::Cancel(stop);
}

void PacketNetwork::Impl::pump() {
    m_pumpPending = false;
    const SimTime deadline = m_lastProgress + SimTime::fromNsRounded(m_options.stallTimeoutNs);
    runNs3Until(std::min(m_sim.nextEventTime(), deadline));
    for (const auto& [at, token] : m_completed)
        m_sim.scheduleAt(at, [this, token = token] { m_sink.onDelivered(token); });
    m_completed.clear();
    if (m_inFlight == 0)
        return;
    const SimTime now3 = packet::fromNs3(ns3::Simulator::Now());
    if (now3 >= deadline || !m_failure.empty())
        stalled();
    m_pumpPending = true;
    m_sim.scheduleAt(std::max(now3, m_sim.now()), [this] { pump(); });
}

void PacketNetwork::Impl::stalled() const {
    const Message* worst = nullptr;
    for (const Message& m : m_messages)
        if (m.partsLeft > 0 && (!worst || m.start < worst->start))
            worst = &m;
    std::string what =
        (m_failure.empty()
             ? "the packet tier delivered no byte for " +
                   units::formatTime(SimTime::fromNsRounded(m_options.stallTimeoutNs)) +
                   " of simulated time (run.packet-stall-timeout)"
             : m_failure) +
        " at " + units::formatTime(packet::fromNs3(ns3::Simulator::Now())) + " with " +
        std::to_string(m_inFlight) + " message(s) in flight";
    if (worst) {
        const int32_t first = m_fabric->firstLink(worst->src, worst->dst, 0);
        what += "; the oldest: " + std::to_string(worst->bytes) + " bytes from NPU " +
                std::to_string(worst->src) + " to NPU " + std::to_string(worst->dst) +
                ", started at " + units::formatTime(worst->start) + ", " +
                std::to_string(worst->received) + " bytes received";
        for (uint32_t c = 0; c < m_connections.size(); ++c)
            if (m_connections[c].src == worst->src && m_connections[c].dst == worst->dst &&
                !m_connections[c].parts.empty()) {
                what += "; " + describe(c);
                break;
            }
        if (first >= 0)
            what += ", first link " + std::to_string(first) + " (device " +
                    std::to_string(m_topology.link(first).src) + " -> " +
                    std::to_string(m_topology.link(first).dst) + ")";
    }
    const auto& counters = m_fabric->counters();
    size_t lossiest = 0;
    for (size_t l = 1; l < counters.size(); ++l)
        if (counters[l].drops > counters[lossiest].drops)
            lossiest = l;
    if (!counters.empty() && counters[lossiest].drops > 0)
        what += "; most drops on link " + std::to_string(lossiest) + " (device " +
                std::to_string(m_topology.link(static_cast<int>(lossiest)).src) + " -> " +
                std::to_string(m_topology.link(static_cast<int>(lossiest)).dst) +
                "): " + std::to_string(counters[lossiest].drops) + " packets";
    throw Error(ErrorKind::Deadlock, what, SourceLocation{.keyPath = "run.packet-stall-timeout"},
                "raise run.packet-queue when queues drop for ever, or run.packet-stall-timeout "
                "when flows are merely slow");
}

std::string PacketNetwork::Impl::describe(uint32_t c) const {
    const Connection& conn = m_connections[c];
    std::string out = "its TCP connection " + std::to_string(c) + " is " +
                      ns3::TcpSocket::TcpStateName[conn.state] + " (congestion state " +
                      ns3::TcpSocketState::TcpCongStateName[conn.congState] + "), " +
                      (conn.accepted ? "accepted" : "not accepted") + " by NPU " +
                      std::to_string(conn.dst);
    if (const auto tcp = ns3::DynamicCast<ns3::TcpSocketBase>(conn.socket))
        out += ", " + std::to_string(tcp->GetTxBuffer()->BytesInFlight()) +
               " bytes unacknowledged of " + std::to_string(tcp->GetTxBuffer()->Size()) +
               " buffered";
    out += ", window " + std::to_string(conn.cwnd) + " bytes (threshold " +
           std::to_string(conn.ssthresh) + ", receiver's " + std::to_string(conn.rwnd) + ")";
    return out;
}

std::vector<std::string> PacketNetwork::Impl::reportLines() const {
    uint64_t packets = 0, drops = 0, marks = 0;
    size_t fullest = 0;
    const auto& counters = m_fabric->counters();
    for (size_t l = 0; l < counters.size(); ++l) {
        packets += counters[l].packets;
        drops += counters[l].drops;
        marks += counters[l].marks;
        if (counters[l].maxQueueBytes > counters[fullest].maxQueueBytes)
            fullest = l;
    }
    std::vector<std::string> lines;
    lines.push_back("[packet] ns-3 " + std::to_string(m_connections.size()) + " TCP connections, " +
                    std::to_string(m_messages.size()) + " messages, " + std::to_string(packets) +
                    " packets sent on links, " + std::to_string(drops) + " dropped, " +
                    std::to_string(marks) + " ECN-marked, " +
                    std::to_string(ns3::Simulator::GetEventCount()) + " ns-3 events");
    if (!counters.empty())
        lines.push_back(
            "[packet] fullest queue: " + std::to_string(counters[fullest].maxQueueBytes) +
            " bytes on link " + std::to_string(fullest) + " (device " +
            std::to_string(m_topology.link(static_cast<int>(fullest)).src) + " -> " +
            std::to_string(m_topology.link(static_cast<int>(fullest)).dst) + ")");
    return lines;
}

PacketNetwork::PacketNetwork(Simulator& sim, const Topology& topology, const PacketOptions& options,
                             DeliverySink& sink, LinkRecorder* recorder)
    : m_impl(std::make_unique<Impl>(sim, topology, options, sink)) {
    m_impl->build(recorder);
}

PacketNetwork::~PacketNetwork() = default;

void PacketNetwork::transmit(int src, int dst, uint64_t bytes, uint64_t token) {
    m_impl->transmit(src, dst, bytes, token);
}

void PacketNetwork::transmitToSwitch(int, int, uint64_t, uint64_t) {
    throw Error(ErrorKind::Unsupported,
                "the packet tier (run.backend: packet) does not model in-network collectives",
                SourceLocation{.keyPath = "run.backend"},
                "use congestion-aware for in-switch collectives and switch-routed memory");
}

void PacketNetwork::transmitFromSwitch(int, int, uint64_t, uint64_t, uint64_t) {
    transmitToSwitch(0, 0, 0, 0);
}

std::vector<std::string> PacketNetwork::reportLines() const {
    return m_impl->reportLines();
}

std::vector<uint64_t> PacketNetwork::maxQueueBytes() const {
    std::vector<uint64_t> out;
    for (const packet::LinkCounters& c : m_impl->fabric().counters())
        out.push_back(c.maxQueueBytes);
    return out;
}

} // namespace astrolabe
