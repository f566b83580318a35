#include "packet/FlowRouting.h"

#include <ns3/packet.h>

namespace astrolabe::packet {

namespace {

uint64_t mix(uint64_t x) { // splitmix64's finaliser: every input bit moves every output bit
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// TCP and UDP both start with the source and destination ports.
uint32_t portsOf(const ns3::Ptr<const ns3::Packet>& p) {
    if (!p || p->GetSize() < 4)
        return 0;
    uint8_t b[4] = {};
    p->CopyData(b, 4);
    return static_cast<uint32_t>(b[0]) << 24 | static_cast<uint32_t>(b[1]) << 16 |
           static_cast<uint32_t>(b[2]) << 8 | b[3];
}

} // namespace

ns3::TypeId FlowRouting::GetTypeId() {
    static ns3::TypeId tid = ns3::TypeId("astrolabe::packet::FlowRouting")
                                 .SetParent<ns3::Ipv4RoutingProtocol>()
                                 .SetGroupName("Internet")
                                 .AddConstructor<FlowRouting>();
    return tid;
}

void FlowRouting::setup(std::shared_ptr<const RoutingTables> tables, int node) {
    m_tables = std::move(tables);
    m_node = node;
}

int FlowRouting::ecmpPort(const RoutingTables& tables, int node, int dstNpu, uint32_t src,
                          uint32_t dst, uint32_t ports) {
    const auto& choices = tables.nextPorts[static_cast<size_t>(node)][static_cast<size_t>(dstNpu)];
    if (choices.empty())
        return -1;
    const uint64_t key = (static_cast<uint64_t>(src) << 32 | dst) ^
                         mix(static_cast<uint64_t>(ports) << 20 | static_cast<uint64_t>(node));
    return choices[mix(key) % choices.size()];
}

int FlowRouting::npuOf(const ns3::Ipv4Address& address) const {
    const auto it = m_tables->npuOfAddress.find(address.Get());
    return it == m_tables->npuOfAddress.end() ? -1 : it->second;
}

ns3::Ptr<ns3::Ipv4Route> FlowRouting::route(ns3::Ptr<const ns3::Packet> p,
                                            const ns3::Ipv4Header& header, int dstNpu, bool local) {
    const auto& choices =
        m_tables->nextPorts[static_cast<size_t>(m_node)][static_cast<size_t>(dstNpu)];
    if (choices.empty())
        return nullptr;
    int port = 0;
    if (m_tables->spray)
        port = choices[m_sprayNext++ % choices.size()];
    else
        port = ecmpPort(*m_tables, m_node, dstNpu,
                        local ? m_tables->address[static_cast<size_t>(m_node)].Get()
                              : header.GetSource().Get(),
                        header.GetDestination().Get(), portsOf(p));
    return m_tables->ports[static_cast<size_t>(m_node)][static_cast<size_t>(port)].route;
}

ns3::Ptr<ns3::Ipv4Route> FlowRouting::RouteOutput(ns3::Ptr<ns3::Packet> p,
                                                  const ns3::Ipv4Header& header,
                                                  ns3::Ptr<ns3::NetDevice>,
                                                  ns3::Socket::SocketErrno& sockerr) {
    const int dstNpu = npuOf(header.GetDestination());
    ns3::Ptr<ns3::Ipv4Route> r = dstNpu < 0 ? nullptr : route(p, header, dstNpu, true);
    sockerr = r ? ns3::Socket::ERROR_NOTERROR : ns3::Socket::ERROR_NOROUTETOHOST;
    return r;
}

bool FlowRouting::RouteInput(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header& header,
                             ns3::Ptr<const ns3::NetDevice> idev, UnicastForwardCallback ucb,
                             MulticastForwardCallback, LocalDeliverCallback lcb,
                             ErrorCallback ecb) {
    // Every address of the fabric is an NPU's: a packet is this node's when it is addressed to
    // one of its NPU addresses, and forwarded otherwise. Asking ns-3 (IsDestinationAddress)
    // would scan every interface of a switch for every packet it forwards.
    const int dstNpu = npuOf(header.GetDestination());
    if (dstNpu == m_node) {
        if (lcb.IsNull())
            return false;
        lcb(p, header, static_cast<uint32_t>(m_ipv4->GetInterfaceForDevice(idev)));
        return true;
    }
    ns3::Ptr<ns3::Ipv4Route> r = dstNpu < 0 ? nullptr : route(p, header, dstNpu, false);
    if (!r) {
        ecb(p, header, ns3::Socket::ERROR_NOROUTETOHOST);
        return false;
    }
    ucb(r, p, header);
    return true;
}

} // namespace astrolabe::packet
