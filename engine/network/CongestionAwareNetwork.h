#pragma once
// ASTRA-sim's congestion-aware analytical model (spec §4.4), extended to multi-dimensional
// platforms.
//
// Links are unidirectional FIFO servers. A message is stored and forwarded whole: on each link
// of its route it waits until the link is free; when the link starts serving it at t, the link
// is busy until t + floor(bytes/beta) and the message reaches the next device at
// t + floor(latency + bytes/beta). An uncontended k-link route therefore costs
// k * floor(latency + bytes/beta).
//
// Routing (docs/network-models.md): dimension by dimension from the lowest; inside a Ring the
// shorter direction (ties clockwise), FullyConnected direct, Switch up and down. On 1-D
// platforms this is exactly ASTRA-sim's model; ASTRA-sim refuses multi-dimensional ones.
//
// In-network collectives use the same FIFO servers: a member's data is stored at the switch
// (uplink), combined, and the result forwarded on each downlink: 2 * floor(latency + bytes/beta)
// uncontended, like any message through a switch.
//
// Events: one arrival event per hop; a "link free" event only while messages wait for a busy
// link (at most one pending per link).
//
// Routes are computed once per (src, dst) pair and kept in one pool (a message holds its
// route's offset); a link's waiting messages are an intrusive FIFO through the message slots.

#include "core/Simulator.h"
#include "network/NetworkModel.h"
#include "network/Timing.h"
#include "record/LinkRecorder.h"
#include "topology/Topology.h"

#include <functional>
#include <unordered_map>
#include <vector>

namespace astrolabe {

class CongestionAwareNetwork : public NetworkModel {
public:
    CongestionAwareNetwork(Simulator& sim, const Topology& topology, Timing timing,
                           DeliverySink& sink, LinkRecorder* recorder);

    void transmit(int src, int dst, uint64_t bytes, uint64_t token) override;

    void transmitToSwitch(int npu, int d, uint64_t bytes, uint64_t token) override;
    void transmitFromSwitch(int d, int npu, uint64_t bytes, uint64_t inputBytes,
                            uint64_t token) override;

    /// Symmetric runs: only one NPU's messages are simulated, so each link class (links the
    /// platform's translations map onto each other) becomes one FIFO server that sees every
    /// message any NPU would put on any link of the class.
    void setSymmetric(bool symmetric);
    /// Folded runs (simulation/RankFolding.h): link -> the FIFO server of its orbit, and a check
    /// called with every message's (src, dst) before it is routed (it throws when the folding's
    /// symmetries do not map that route onto routes).
    void setServers(std::vector<int32_t> serverOf, std::function<void(int, int)> checkRoute);
    const char* name() const override { return "analytical-congestion-aware"; }

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    struct Message {
        uint64_t bytes;
        uint64_t token;
        uint32_t route; ///< offset of its route in m_routeLinks
        uint32_t routeLength;
        uint32_t hop = 0;
        uint32_t next = kNone; ///< the next message waiting for the same link
    };
    struct Link {
        uint32_t head = kNone; ///< message slots waiting, first in first out
        uint32_t tail = kNone;
        SimTime busyUntil;
        bool wakeupPending = false;
    };

    /// The route of (src, dst): computed, checked and pooled on first use. Returns its offset
    /// and sets length.
    uint32_t routeOf(int src, int dst, uint32_t& length);
    /// Pools the route just appended past `begin` in m_routeLinks under `key`.
    uint32_t pool(std::unordered_map<uint64_t, uint64_t>& cache, uint64_t key, size_t begin,
                  uint32_t& length);
    void start(uint32_t route, uint32_t length, uint64_t bytes, uint64_t token);
    /// In-network collectives: npu up to its line's switch in d (`up`) or back down.
    void transmitViaSwitch(int npu, int d, bool up, uint64_t bytes, uint64_t token);
    void enqueue(uint32_t message);
    void serve(int32_t link, uint32_t message);
    void linkFree(int32_t link);
    void arrive(uint32_t message);
    uint32_t allocate();

    Simulator& m_sim;
    const Topology& m_topology;
    Timing m_timing;
    DeliverySink& m_sink;
    LinkRecorder* m_recorder;
    std::vector<Link> m_links;
    std::vector<int32_t> m_serverOf; ///< link -> FIFO server (itself, its class or orbit)
    std::function<void(int, int)> m_checkRoute;
    std::vector<Message> m_messages;
    std::vector<uint32_t> m_freeMessages;
    std::vector<int32_t> m_routeLinks; ///< every route used so far, end to end
    /// (src, dst) -> offset << 32 | length in m_routeLinks; a table on small platforms
    /// (offset + 1, 0 = not yet), a map on large ones.
    std::vector<uint64_t> m_routeTable;
    std::unordered_map<uint64_t, uint64_t> m_routeMap;
    std::unordered_map<uint64_t, uint64_t> m_switchRoutes; ///< (npu, d, up) -> as above
};

} // namespace astrolabe
