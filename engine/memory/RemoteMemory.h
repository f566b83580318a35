#pragma once
// Remote (disaggregated) memory, astra-memory-analytical semantics (spec §6.2):
//
//   access time A(x) = latency + floor(x / bandwidth)   [ns], x = tensor_size bytes
//
// PER_NPU: independent. MEMORY_POOL: one FIFO server shared by all NPUs. PER_NODE: one FIFO
// server per node of num-npus-per-node NPUs (the intended semantics; upstream crashes).
// NO_MEMORY_EXPANSION: any access is an error.
//
// Pooled (Astrolabe, ASTRA-sim 2.0's HierMem; docs/memory-tiers.md): an access of x bytes
// crosses the NPU's port into the in-node pooled fabric (one FIFO server per NPU at the fabric
// bandwidth F) and the memory group that serves the NPU (NPU r uses group r mod G; one FIFO
// server per group at B, shared by the NPUs mapped to it). The two stages stream: the access
// starts on its port when the port is free, in its group when the group is free too, and ends
// when both have moved x bytes; the latency is added after (it occupies neither). One NPU
// alone: latency + x / min(F, B).
//
// Pooled through out-of-node switches (memory.switch-dimension d): the access also crosses the
// NPU's link to its switch in Switch dimension d — a load comes down the switch's downlink, a
// store goes up the uplink — as a message of x bytes in the network model, so it queues behind
// collectives on that link under the congestion-aware model and they queue behind it. The link
// is a third stage streaming with the other two: the access ends when the pooled stages are done
// (plus the latency) and when the link has carried it, not before link latency + x / link
// bandwidth after its start. One NPU alone: max(latency + x / min(F, B), link latency + x / L).

#include "core/Simulator.h"
#include "network/Timing.h"
#include "spec/MemoryConfig.h"
#include "spec/PlatformSpec.h"

#include <functional>
#include <vector>

namespace astrolabe {

class Transport;

class RemoteMemory {
public:
    RemoteMemory(Simulator& sim, const RemoteMemoryConfig& config, int npuCount, Timing timing);

    /// Pooled memory with a switch dimension: its accesses cross `dimension`'s links through
    /// `transport` (the run's, so they share the links with everything else).
    void routeThroughSwitches(Transport& transport, const DimensionSpec& dimension);

    /// Starts an access now (a load, or a store when `store`); onDone runs when it completes.
    /// Throws astrolabe::Error when the configuration has no remote memory.
    void access(int npu, uint64_t nodeId, uint64_t bytes, bool store, std::function<void()> onDone);

    SimTime accessTime(uint64_t bytes) const;

private:
    Simulator& m_sim;
    RemoteMemoryConfig m_config;
    Timing m_timing;
    std::vector<SimTime> m_serverFree; ///< per FIFO server (pooled: the ports, then the groups)
    SimTime pooledAccess(int npu, uint64_t bytes);
    void switchedAccess(int npu, uint64_t bytes, bool store, std::function<void()> onDone);
    int m_npuCount = 0;
    Transport* m_transport = nullptr; ///< set: pooled accesses cross m_switchDimension's links
    DimensionSpec m_switchDimension;
};

} // namespace astrolabe
