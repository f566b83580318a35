#pragma once
// ns-3 side of the packet tier (included only by engine/packet/*.cpp): the platform as ns-3
// nodes. Every device (NPU or switch) is a node with the IPv4 stack; each pair of opposite
// links is one point-to-point channel whose two directions keep their own bandwidth; every
// output port has a finite traffic-control queue (RED marking ECN for DCTCP, a FIFO for
// NewReno) in front of a one-packet device queue; FlowRouting forwards over equal-cost paths.

#include "core/SimTime.h"
#include "packet/FlowRouting.h"
#include "spec/SimulationSpec.h"

#include <memory>
#include <ns3/node-container.h>
#include <ns3/nstime.h>
#include <ns3/queue-disc.h>
#include <vector>

namespace astrolabe {
class LinkRecorder;
class Topology;
} // namespace astrolabe

namespace astrolabe::packet {

inline ns3::Time toNs3(SimTime t) {
    return ns3::Time::FromInteger(t.ps(), ns3::Time::PS);
}
inline SimTime fromNs3(const ns3::Time& t) {
    return SimTime::fromPs(t.GetPicoSeconds());
}

/// Process-wide ns-3 settings (TCP variant, segment size, timers, ACKs), applied under the ns-3
/// lock before each run builds its sockets.
void configureNs3(const PacketOptions& options);

/// What a platform link saw, from the traces of its port.
struct LinkCounters {
    uint64_t maxQueueBytes = 0;
    uint64_t drops = 0;
    uint64_t marks = 0;
    uint64_t packets = 0;
};

class PacketFabric {
public:
    /// Builds the nodes, channels, queues and routing tables. The caller holds the ns-3 lock.
    PacketFabric(const Topology& topology, const PacketOptions& options, LinkRecorder* recorder);

    ns3::Ptr<ns3::Node> node(int device) const {
        return m_nodes.Get(static_cast<uint32_t>(device));
    }
    const RoutingTables& tables() const { return *m_tables; }
    const std::vector<LinkCounters>& counters() const { return m_counters; }
    /// The platform link a flow of this 5-tuple takes first out of src (ECMP), or -1.
    int32_t firstLink(int src, int dst, uint32_t ports) const;

private:
    void connect(int32_t forward, int32_t backward);
    void addQueue(ns3::Ptr<ns3::NetDevice> device, int32_t link);
    void computeRoutes();

    const Topology& m_topology;
    PacketOptions m_options;
    LinkRecorder* m_recorder;
    ns3::NodeContainer m_nodes;
    std::shared_ptr<RoutingTables> m_tables;
    std::vector<LinkCounters> m_counters; ///< per platform link
    /// The next random stream a queue takes (addQueue): numbered in construction order, so a
    /// run draws the same numbers whatever ran before it in the process (ns-3 otherwise hands
    /// out streams from one process-wide counter).
    int64_t m_nextStream = 0;
    std::vector<std::pair<ns3::Ptr<ns3::NetDevice>, ns3::Ptr<ns3::NetDevice>>> m_channels;
    std::vector<std::pair<int32_t, int32_t>> m_channelLinks; ///< (a -> b, b -> a or -1)
};

} // namespace astrolabe::packet
