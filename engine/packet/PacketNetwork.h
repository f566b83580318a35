#pragma once
// The packet-level tier (docs/network-models.md): ns-3 is the network. Every message the
// engine sends becomes bytes on TCP connections through ns-3 (one persistent connection per
// NPU pair and sub-flow, as collective libraries keep theirs); its delivery returns to our
// event core when its last byte reaches the destination's socket.
//
// Co-simulation: our Simulator leads. While flows are in flight one "pump" event is pending;
// it runs ns-3 up to our next event time or to the first message completion, whichever comes
// first, so every completion is delivered at the picosecond ns-3 computed and every new
// message starts in ns-3 at the time our engine sends it.
//
// ns-3's Simulator is a process-wide singleton: a PacketNetwork holds a process-wide lock from
// construction to destruction, so packet runs in a thread-pool sweep run one after another
// (the others wait). No ns-3 header is included here.

#include "core/Simulator.h"
#include "network/NetworkModel.h"
#include "spec/SimulationSpec.h"

#include <memory>
#include <string>
#include <vector>

namespace astrolabe {

class LinkRecorder;
class Topology;

class PacketNetwork : public NetworkModel {
public:
    PacketNetwork(Simulator& sim, const Topology& topology, const PacketOptions& options,
                  DeliverySink& sink, LinkRecorder* recorder);
    ~PacketNetwork() override;
    PacketNetwork(const PacketNetwork&) = delete;
    PacketNetwork& operator=(const PacketNetwork&) = delete;

    void transmit(int src, int dst, uint64_t bytes, uint64_t token) override;
    /// In-network collectives are not modelled by the packet tier: throws Unsupported.
    void transmitToSwitch(int npu, int d, uint64_t bytes, uint64_t token) override;
    void transmitFromSwitch(int d, int npu, uint64_t bytes, uint64_t inputBytes,
                            uint64_t token) override;
    const char* name() const override { return "packet-ns3"; }

    /// "[packet] ..." lines for the run report: connections, packets, drops, ECN marks, the
    /// fullest queue, ns-3 events.
    std::vector<std::string> reportLines() const;
    /// Per platform link: the largest queue its port held, in bytes.
    std::vector<uint64_t> maxQueueBytes() const;

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace astrolabe
