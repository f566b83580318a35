#pragma once
// ns-3 side of the packet tier (included only by engine/packet/*.cpp): an IPv4 routing protocol
// that forwards over the platform's equal-cost shortest paths, chosen per flow (ECMP: a hash of
// the 5-tuple and the node, as a switch with its own seed does) or per packet (spraying: the
// next equal-cost port in turn). The tables are computed once per run by PacketFabric.

#include <cstdint>
#include <memory>
#include <ns3/ipv4-route.h>
#include <ns3/ipv4-routing-protocol.h>
#include <ns3/ipv4.h>
#include <ns3/net-device.h>
#include <unordered_map>
#include <vector>

namespace astrolabe::packet {

/// One output port of a node: its IPv4 interface, device and the address of the far end.
struct Port {
    uint32_t interface = 0;
    ns3::Ptr<ns3::NetDevice> device;
    ns3::Ipv4Address gateway;
    int neighbour = -1;
    int32_t link = -1; ///< the platform's link id for this direction (-1: none)
    /// The route every packet leaving by this port gets (shared: ns-3 forwards by the gateway and
    /// device only, so one object per port spares an allocation per packet and hop).
    ns3::Ptr<ns3::Ipv4Route> route;
};

/// Shared by every node's FlowRouting; filled after the addresses are assigned.
struct RoutingTables {
    std::vector<std::vector<Port>> ports;  ///< per node
    std::vector<ns3::Ipv4Address> address; ///< per NPU node: the address flows use
    std::unordered_map<uint32_t, int> npuOfAddress;
    /// nextPorts[node][dstNpu]: indices into ports[node] on equal-cost shortest paths.
    std::vector<std::vector<std::vector<uint16_t>>> nextPorts;
    bool spray = false;
};

class FlowRouting : public ns3::Ipv4RoutingProtocol {
public:
    static ns3::TypeId GetTypeId();
    FlowRouting() = default;
    void setup(std::shared_ptr<const RoutingTables> tables, int node);

    ns3::Ptr<ns3::Ipv4Route> RouteOutput(ns3::Ptr<ns3::Packet> p, const ns3::Ipv4Header& header,
                                         ns3::Ptr<ns3::NetDevice> oif,
                                         ns3::Socket::SocketErrno& sockerr) override;
    bool RouteInput(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header& header,
                    ns3::Ptr<const ns3::NetDevice> idev, UnicastForwardCallback ucb,
                    MulticastForwardCallback mcb, LocalDeliverCallback lcb,
                    ErrorCallback ecb) override;
    void NotifyInterfaceUp(uint32_t) override {}
    void NotifyInterfaceDown(uint32_t) override {}
    void NotifyAddAddress(uint32_t, ns3::Ipv4InterfaceAddress) override {}
    void NotifyRemoveAddress(uint32_t, ns3::Ipv4InterfaceAddress) override {}
    void SetIpv4(ns3::Ptr<ns3::Ipv4> ipv4) override { m_ipv4 = ipv4; }
    void PrintRoutingTable(ns3::Ptr<ns3::OutputStreamWrapper>, ns3::Time::Unit) const override {}

    /// The port a packet of this 5-tuple leaves `node` by (ECMP); -1 when there is no route.
    static int ecmpPort(const RoutingTables& tables, int node, int dstNpu, uint32_t src,
                        uint32_t dst, uint32_t ports);

private:
    /// The NPU an address belongs to, or -1 (not an address of the fabric).
    int npuOf(const ns3::Ipv4Address& address) const;
    ns3::Ptr<ns3::Ipv4Route> route(ns3::Ptr<const ns3::Packet> p, const ns3::Ipv4Header& header,
                                   int dstNpu, bool local);

    std::shared_ptr<const RoutingTables> m_tables;
    ns3::Ptr<ns3::Ipv4> m_ipv4;
    int m_node = -1;
    uint64_t m_sprayNext = 0;
};

} // namespace astrolabe::packet
