#pragma once
// ASTRA-sim's congestion-unaware analytical model (spec §4.3).
//
//   delay = floor(hops * latency_d + bytes / beta_d)   [ns], computed once in double,
//
// with d the LOWEST dimension whose coordinates differ (higher differences are free: an
// upstream simplification we keep for compatibility), hops per block (Ring min(cw, n-cw),
// FullyConnected 1, Switch 2; serialization counted once). No queuing: messages never
// interact. For the utilization views the bytes are attributed to the links of the
// dimension-d route, each busy for bytes/beta from the send time.
//
// In-network collectives keep the model's view of a switch crossing (two latencies, the bytes
// serialised once): the switch starts combining when a member's data begins to arrive (after
// one latency) and streams the result down as the inputs come in, so the whole exchange costs
// floor(latency) + floor(latency + max(up, down) / beta).
//
// Graph platforms (docs/graph-platforms.md) generalise the formula to the message's route:
//   delay = floor(sum of the route's link latencies + bytes / min over the route of beta),
// i.e. hops times latency and one serialization at the bottleneck, as for a Switch crossing.

#include "core/Simulator.h"
#include "network/NetworkModel.h"
#include "network/Timing.h"
#include "record/LinkRecorder.h"
#include "topology/Topology.h"

#include <utility>
#include <vector>

namespace astrolabe {

class CongestionUnawareNetwork : public NetworkModel {
public:
    CongestionUnawareNetwork(Simulator& sim, const Topology& topology, Timing timing,
                             DeliverySink& sink, LinkRecorder* recorder);

    void transmit(int src, int dst, uint64_t bytes, uint64_t token) override;
    void transmitToSwitch(int npu, int d, uint64_t bytes, uint64_t token) override;
    void transmitFromSwitch(int d, int npu, uint64_t bytes, uint64_t inputBytes,
                            uint64_t token) override;
    const char* name() const override { return "analytical-congestion-unaware"; }

    /// The delay of one message, as the model computes it (exposed for tests and closed forms).
    SimTime delay(int src, int dst, uint64_t bytes) const;

private:
    /// Graphs: the delay over the route, which is left in `route`.
    SimTime graphDelay(int src, int dst, uint64_t bytes, std::vector<int32_t>& route) const;
    /// A non-empty route's summed latency (ns, exact in picoseconds) and bottleneck (B/ns).
    std::pair<double, double> routeCost(const std::vector<int32_t>& route) const;
    /// In-network collectives: the link busy for bytes/beta from now (utilization views).
    void recordSwitchLink(int32_t link, const DimensionSpec& dim, uint64_t bytes);
    /// Graphs: every link of m_route busy for bytes over its bandwidth from now (recorder on).
    void recordRoute(uint64_t bytes);
    /// Graphs: the route npu -> its line's switch in d (`up`) or back; each link recorded busy
    /// for bytes over its bandwidth from now. Returns (summed latency in ns, bottleneck B/ns).
    std::pair<double, double> recordSwitchRoute(int npu, int d, bool up, uint64_t bytes);

    Simulator& m_sim;
    const Topology& m_topology;
    Timing m_timing;
    DeliverySink& m_sink;
    LinkRecorder* m_recorder;
    std::vector<int32_t> m_route;
};

} // namespace astrolabe
