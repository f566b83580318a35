#include "packet/PacketFabric.h"

#include "record/LinkRecorder.h"
#include "topology/Topology.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <ns3/boolean.h>
#include <ns3/config.h>
#include <ns3/double.h>
#include <ns3/internet-stack-helper.h>
#include <ns3/ipv4-address-generator.h>
#include <ns3/ipv4-address-helper.h>
#include <ns3/ipv4-routing-helper.h>
#include <ns3/object-factory.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/queue-size.h>
#include <ns3/red-queue-disc.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-dctcp.h>
#include <ns3/tcp-l4-protocol.h>
#include <ns3/tcp-recovery-ops.h>
#include <ns3/tcp-socket-base.h>
#include <ns3/traffic-control-helper.h>
#include <ns3/uinteger.h>
#include <queue>

namespace astrolabe::packet {

namespace {

/// Gives every node a FlowRouting over the shared tables.
class FlowRoutingHelper : public ns3::Ipv4RoutingHelper {
public:
    explicit FlowRoutingHelper(std::shared_ptr<RoutingTables> tables, uint32_t firstNode)
        : m_tables(std::move(tables))
        , m_firstNode(firstNode) {}
    FlowRoutingHelper* Copy() const override { return new FlowRoutingHelper(*this); }
    ns3::Ptr<ns3::Ipv4RoutingProtocol> Create(ns3::Ptr<ns3::Node> node) const override {
        auto routing = ns3::CreateObject<FlowRouting>();
        routing->setup(m_tables, static_cast<int>(node->GetId() - m_firstNode));
        return routing;
    }

private:
    std::shared_ptr<RoutingTables> m_tables;
    uint32_t m_firstNode;
};

ns3::DataRate rateOf(const Topology& topology, int32_t link) {
    return ns3::DataRate(static_cast<uint64_t>(std::llround(topology.linkBytesPerNs(link) * 8e9)));
}

/// ns-3's DCTCP with Linux's floor on the slow-start threshold. ns-3 3.37 cuts the window to
/// (1 - alpha / 2) cwnd with no floor (Linux's dctcp_ssthresh keeps at least 2 segments): a
/// connection holding one segment whose ACK carries ECN-Echo drops below one segment, and once
/// nothing is in flight no ACK and no timer wakes it, so it never sends again (the two stalled
/// runs of the packet-spraying case study, docs/case-studies.md).
class FlooredDctcp : public ns3::TcpDctcp {
public:
    static ns3::TypeId GetTypeId() {
        static ns3::TypeId tid = ns3::TypeId("astrolabe::packet::FlooredDctcp")
                                     .SetParent<ns3::TcpDctcp>()
                                     .SetGroupName("Internet")
                                     .AddConstructor<FlooredDctcp>();
        return tid;
    }
    uint32_t GetSsThresh(ns3::Ptr<const ns3::TcpSocketState> tcb, uint32_t inFlight) override {
        return std::max(ns3::TcpDctcp::GetSsThresh(tcb, inFlight), 2 * tcb->m_segmentSize);
    }
    ns3::Ptr<ns3::TcpCongestionOps> Fork() override { return ns3::CopyObject<FlooredDctcp>(this); }
};

constexpr uint32_t kSocketBufferBytes = 8u << 20;

} // namespace

/// Process-wide ns-3 settings, applied under the lock before each run builds its sockets.
void configureNs3(const PacketOptions& o) {
    static std::once_flag resolution;
    std::call_once(resolution, [] { ns3::Time::SetResolution(ns3::Time::PS); });
    // A binary heap in one vector: the fewest cache misses of ns-3's schedulers once tens of
    // thousands of events are pending (each ACK re-arms its connection's retransmission timer,
    // and a cancelled timer stays queued until its time). Results do not depend on it.
    ns3::Simulator::SetScheduler(ns3::ObjectFactory("ns3::PriorityQueueScheduler"));
    ns3::RngSeedManager::SetSeed(1);
    ns3::RngSeedManager::SetRun(1);
    const ns3::TypeId tcp = o.transport == PacketTransport::Dctcp ? FlooredDctcp::GetTypeId()
                                                                  : ns3::TcpNewReno::GetTypeId();
    ns3::Config::SetDefault("ns3::TcpL4Protocol::SocketType", ns3::TypeIdValue(tcp));
    // An ECN-Echo (or loss) cuts the window to the threshold at once, as the DCTCP paper does.
    // ns-3 3.37's default, proportional rate reduction, can leave a connection in CA_CWR with a
    // window below one segment once nothing is in flight: it then never sends again (the
    // stalled sprayed all-reduce of the case study, docs/case-studies.md).
    ns3::Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                            ns3::TypeIdValue(ns3::TcpClassicRecovery::GetTypeId()));
    // IPv4 (20) + TCP (20): the segment fills the MTU. No timestamp option: RoCE carries none,
    // and ns-3 builds an option object for every header it reads (15 % of the run's CPU).
    ns3::Config::SetDefault("ns3::TcpSocketBase::Timestamp", ns3::BooleanValue(false));
    ns3::Config::SetDefault("ns3::TcpSocket::SegmentSize",
                            ns3::UintegerValue(static_cast<uint64_t>(o.mtuBytes - 40)));
    ns3::Config::SetDefault("ns3::TcpSocket::SndBufSize", ns3::UintegerValue(kSocketBufferBytes));
    ns3::Config::SetDefault("ns3::TcpSocket::RcvBufSize", ns3::UintegerValue(kSocketBufferBytes));
    ns3::Config::SetDefault("ns3::TcpSocket::InitialCwnd", ns3::UintegerValue(10));
    ns3::Config::SetDefault("ns3::TcpSocket::DelAckCount",
                            ns3::UintegerValue(static_cast<uint64_t>(o.ackEvery)));
    ns3::Config::SetDefault("ns3::TcpSocket::DelAckTimeout", ns3::TimeValue(ns3::MicroSeconds(10)));
    ns3::Config::SetDefault("ns3::TcpSocket::ConnTimeout", ns3::TimeValue(ns3::MilliSeconds(1)));
    // ns-3 gives a connection up after 6 timeouts in a row (a SYN or a segment lost each time),
    // which incast at a full queue reaches; the stall watchdog bounds the run instead.
    ns3::Config::SetDefault("ns3::TcpSocket::ConnCount", ns3::UintegerValue(1000));
    ns3::Config::SetDefault("ns3::TcpSocket::DataRetries", ns3::UintegerValue(1000));
    // Datacenter timers: ns-3's defaults (1 s minimum RTO, 1 ms clock) are WAN values.
    ns3::Config::SetDefault("ns3::TcpSocketBase::MinRto", ns3::TimeValue(ns3::MicroSeconds(200)));
    ns3::Config::SetDefault("ns3::TcpSocketBase::ClockGranularity",
                            ns3::TimeValue(ns3::MicroSeconds(1)));
}

PacketFabric::PacketFabric(const Topology& topology, const PacketOptions& options,
                           LinkRecorder* recorder)
    : m_topology(topology)
    , m_options(options)
    , m_recorder(recorder)
    , m_tables(std::make_shared<RoutingTables>())
    , m_counters(static_cast<size_t>(topology.linkCount())) {
    const int devices = topology.deviceCount();
    m_nodes.Create(static_cast<uint32_t>(devices));
    ns3::InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.SetRoutingHelper(FlowRoutingHelper(m_tables, m_nodes.Get(0)->GetId()));
    stack.Install(m_nodes);
    m_tables->spray = options.routing == PacketRouting::Spray;

    // Pair each link with an unpaired opposite one: one channel carries both directions.
    std::map<std::pair<int, int>, std::vector<int32_t>> unpaired;
    for (int32_t l = 0; l < topology.linkCount(); ++l) {
        const LinkInfo& info = topology.link(l);
        auto& opposite = unpaired[{info.dst, info.src}];
        if (!opposite.empty()) {
            m_channelLinks.emplace_back(opposite.back(), l);
            opposite.pop_back();
        } else {
            unpaired[{info.src, info.dst}].push_back(l);
        }
    }
    for (const auto& [ends, links] : unpaired)
        for (int32_t l : links)
            m_channelLinks.emplace_back(l, -1);
    std::sort(m_channelLinks.begin(), m_channelLinks.end());

    ns3::Ipv4AddressGenerator::Reset();
    ns3::Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.252");
    for (const auto& [forward, backward] : m_channelLinks) {
        connect(forward, backward);
        addresses.Assign(
            ns3::NetDeviceContainer(m_channels.back().first, m_channels.back().second));
        addresses.NewNetwork();
    }
    m_tables->ports.resize(static_cast<size_t>(devices));
    m_tables->address.resize(static_cast<size_t>(topology.npuCount()));
    for (size_t c = 0; c < m_channels.size(); ++c) {
        const auto& [a, b] = m_channels[c];
        const auto [forward, backward] = m_channelLinks[c];
        const auto addressOf = [](const ns3::Ptr<ns3::NetDevice>& d) {
            auto ipv4 = d->GetNode()->GetObject<ns3::Ipv4>();
            return ipv4->GetAddress(static_cast<uint32_t>(ipv4->GetInterfaceForDevice(d)), 0)
                .GetLocal();
        };
        const int from = topology.link(forward).src, to = topology.link(forward).dst;
        const auto port = [&](const ns3::Ptr<ns3::NetDevice>& d,
                              const ns3::Ptr<ns3::NetDevice>& far, int neighbour, int32_t link) {
            auto ipv4 = d->GetNode()->GetObject<ns3::Ipv4>();
            return Port{static_cast<uint32_t>(ipv4->GetInterfaceForDevice(d)), d, addressOf(far),
                        neighbour, link};
        };
        m_tables->ports[static_cast<size_t>(from)].push_back(port(a, b, to, forward));
        m_tables->ports[static_cast<size_t>(to)].push_back(port(b, a, from, backward));
        for (const auto& [device, owner] : {std::pair{a, from}, std::pair{b, to}})
            if (owner < topology.npuCount()) {
                const ns3::Ipv4Address local = addressOf(device);
                m_tables->npuOfAddress[local.Get()] = owner;
                if (m_tables->address[static_cast<size_t>(owner)] == ns3::Ipv4Address())
                    m_tables->address[static_cast<size_t>(owner)] = local;
            }
    }
    // One route per port. Its source is the node's one address when the node is an NPU (every
    // packet of an NPU carries it, whichever port it leaves by); switches only forward, and
    // forwarding reads the gateway and the device alone.
    for (size_t node = 0; node < m_tables->ports.size(); ++node)
        for (Port& p : m_tables->ports[node]) {
            p.route = ns3::Create<ns3::Ipv4Route>();
            p.route->SetGateway(p.gateway);
            p.route->SetOutputDevice(p.device);
            if (node < m_tables->address.size())
                p.route->SetSource(m_tables->address[node]);
        }
    computeRoutes();
}

void PacketFabric::connect(int32_t forward, int32_t backward) {
    const LinkInfo& info = m_topology.link(forward);
    ns3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", ns3::DataRateValue(rateOf(m_topology, forward)));
    p2p.SetDeviceAttribute("Mtu", ns3::UintegerValue(static_cast<uint64_t>(m_options.mtuBytes)));
    p2p.SetChannelAttribute(
        "Delay", ns3::TimeValue(toNs3(SimTime::fromNsRounded(m_topology.linkLatencyNs(forward)))));
    // The device queue holds one packet: the traffic-control queue in front of it is the port's
    // buffer, where ECN marks and drops happen.
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue("1p"));
    ns3::NetDeviceContainer pair = p2p.Install(node(info.src), node(info.dst));
    if (backward >= 0)
        pair.Get(1)->SetAttribute("DataRate", ns3::DataRateValue(rateOf(m_topology, backward)));
    m_channels.emplace_back(pair.Get(0), pair.Get(1));
    addQueue(pair.Get(0), forward);
    addQueue(pair.Get(1), backward);
}

void PacketFabric::addQueue(ns3::Ptr<ns3::NetDevice> device, int32_t link) {
    const ns3::QueueSize size(ns3::QueueSizeUnit::BYTES, static_cast<uint32_t>(std::min<uint64_t>(
                                                             m_options.queueBytes, UINT32_MAX)));
    ns3::TrafficControlHelper tc;
    if (m_options.transport == PacketTransport::Dctcp) {
        const double threshold = static_cast<double>(m_options.ecnThresholdBytes);
        // RED with an instantaneous queue (QW 1) and min = max threshold marks every packet
        // that finds more than the threshold queued: DCTCP's marking.
        tc.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", ns3::QueueSizeValue(size), "QW",
                            ns3::DoubleValue(1.0), "MinTh", ns3::DoubleValue(threshold), "MaxTh",
                            ns3::DoubleValue(threshold + 1), "UseEcn", ns3::BooleanValue(true),
                            "UseHardDrop", ns3::BooleanValue(false), "MeanPktSize",
                            ns3::UintegerValue(static_cast<uint64_t>(m_options.mtuBytes)),
                            "LinkBandwidth",
                            ns3::DataRateValue(link >= 0 ? rateOf(m_topology, link)
                                                         : ns3::DataRate(uint64_t{1000000000})));
    } else {
        tc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", ns3::QueueSizeValue(size));
    }
    ns3::QueueDiscContainer discs = tc.Install(device);
    if (const auto red = ns3::DynamicCast<ns3::RedQueueDisc>(discs.Get(0)))
        m_nextStream += red->AssignStreams(m_nextStream);
    if (link < 0)
        return;
    ns3::Ptr<ns3::QueueDisc> disc = discs.Get(0);
    LinkCounters* counters = &m_counters[static_cast<size_t>(link)];
    disc->TraceConnectWithoutContext(
        "BytesInQueue", ns3::Callback<void, uint32_t, uint32_t>([counters](uint32_t, uint32_t now) {
            counters->maxQueueBytes = std::max<uint64_t>(counters->maxQueueBytes, now);
        }));
    disc->TraceConnectWithoutContext(
        "Drop", ns3::Callback<void, ns3::Ptr<const ns3::QueueDiscItem>>(
                    [counters](ns3::Ptr<const ns3::QueueDiscItem>) { ++counters->drops; }));
    disc->TraceConnectWithoutContext(
        "Mark",
        ns3::Callback<void, ns3::Ptr<const ns3::QueueDiscItem>, const char*>(
            [counters](ns3::Ptr<const ns3::QueueDiscItem>, const char*) { ++counters->marks; }));
    const double bytesPerNs = m_topology.linkBytesPerNs(link);
    LinkRecorder* recorder = m_recorder;
    device->TraceConnectWithoutContext(
        "PhyTxBegin", ns3::Callback<void, ns3::Ptr<const ns3::Packet>>(
                          [counters, recorder, link, bytesPerNs](ns3::Ptr<const ns3::Packet> p) {
                              ++counters->packets;
                              if (!recorder || !recorder->enabled())
                                  return;
                              const SimTime start = fromNs3(ns3::Simulator::Now());
                              const double ns = static_cast<double>(p->GetSize()) / bytesPerNs;
                              recorder->add(link, start, start + SimTime::fromNsRounded(ns),
                                            p->GetSize());
                          }));
}

void PacketFabric::computeRoutes() {
    // Per destination NPU, Dijkstra over reversed ports by (latency, hops): a port u -> v is on
    // an equal-cost shortest path when cost(u) = latency(u -> v) + cost(v).
    using Cost = std::pair<int64_t, int32_t>;
    const size_t devices = m_tables->ports.size();
    std::vector<std::vector<std::pair<int, size_t>>> into(devices); // v <- (u, port of u)
    for (size_t u = 0; u < devices; ++u)
        for (size_t p = 0; p < m_tables->ports[u].size(); ++p)
            if (m_tables->ports[u][p].link >= 0)
                into[static_cast<size_t>(m_tables->ports[u][p].neighbour)].emplace_back(
                    static_cast<int>(u), p);
    const auto weight = [&](int32_t link) {
        return SimTime::fromNsRounded(m_topology.linkLatencyNs(link)).ps();
    };
    m_tables->nextPorts.assign(
        devices, std::vector<std::vector<uint16_t>>(static_cast<size_t>(m_topology.npuCount())));
    const Cost unreached{INT64_MAX, INT32_MAX};
    for (int dst = 0; dst < m_topology.npuCount(); ++dst) {
        std::vector<Cost> cost(devices, unreached);
        using Entry = std::pair<Cost, int>;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
        cost[static_cast<size_t>(dst)] = {0, 0};
        heap.push({{0, 0}, dst});
        while (!heap.empty()) {
            const auto [c, v] = heap.top();
            heap.pop();
            if (c != cost[static_cast<size_t>(v)])
                continue;
            for (const auto& [u, p] : into[static_cast<size_t>(v)]) {
                const int32_t link = m_tables->ports[static_cast<size_t>(u)][p].link;
                const Cost through{c.first + weight(link), c.second + 1};
                if (through < cost[static_cast<size_t>(u)]) {
                    cost[static_cast<size_t>(u)] = through;
                    heap.push({through, u});
                }
            }
        }
        for (size_t u = 0; u < devices; ++u) {
            if (static_cast<int>(u) == dst || cost[u] == unreached)
                continue;
            const auto& ports = m_tables->ports[u];
            for (size_t p = 0; p < ports.size(); ++p) {
                if (ports[p].link < 0)
                    continue;
                const Cost& next = cost[static_cast<size_t>(ports[p].neighbour)];
                if (next != unreached &&
                    Cost{next.first + weight(ports[p].link), next.second + 1} == cost[u])
                    m_tables->nextPorts[u][static_cast<size_t>(dst)].push_back(
                        static_cast<uint16_t>(p));
            }
        }
    }
}

int32_t PacketFabric::firstLink(int src, int dst, uint32_t ports) const {
    const RoutingTables& t = *m_tables;
    const int port =
        t.spray ? (t.nextPorts[static_cast<size_t>(src)][static_cast<size_t>(dst)].empty()
                       ? -1
                       : t.nextPorts[static_cast<size_t>(src)][static_cast<size_t>(dst)][0])
                : FlowRouting::ecmpPort(t, src, dst, t.address[static_cast<size_t>(src)].Get(),
                                        t.address[static_cast<size_t>(dst)].Get(), ports);
    return port < 0 ? -1 : t.ports[static_cast<size_t>(src)][static_cast<size_t>(port)].link;
}

} // namespace astrolabe::packet
