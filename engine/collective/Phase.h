#pragma once
// One phase of one chunk on one NPU: an algorithm exchanging messages over a logical ring.

#include "collective/PhasePlan.h"
#include "core/Simulator.h"
#include "network/Timing.h"
#include "network/Transport.h"
#include "record/RunResult.h"

#include <functional>
#include <memory>
#include <string>

namespace astrolabe {

class SwitchAggregator;

/// What a running phase needs from the engine.
struct PhaseContext {
    Simulator* sim = nullptr;
    Transport* transport = nullptr;
    Timing timing;
    int npu = 0;
    uint64_t tag = 0;
    /// The NPU <-> memory-agent hop E before every message step (spec §5.3).
    SimTime endpointDelay;
    /// The collective's bandwidth factor f (SystemConfig::bandwidthFactor): messages cross the
    /// network as wireBytes(x) = x / f bytes (at least 1), so they move at f x the link rate.
    double bandwidthFactor = 1;
    uint64_t wireBytes(uint64_t bytes) const;
    /// local-mem-bw in decimal GB/s (= bytes/ns); reductions cost 3 passes over the buffer.
    double localMemBandwidthGBps = 0;
    /// The file the system settings came from (a project YAML or an ASTRA-sim system JSON),
    /// for the message when a reduction finds no local memory bandwidth; may be null.
    const std::string* systemFile = nullptr;
    /// Symmetric run (only one representative NPU is simulated): each send also stands for the
    /// mirror-image message the peer sends to us, see Simulation's symmetry rule.
    bool symmetric = false;
    /// The switches' side of inSwitch phases (shared by every NPU of a run).
    SwitchAggregator* switches = nullptr;
    std::function<void()> onDone;
    /// Opt-in (RunOptions::recordTransfers): where this phase logs its messages; null when off,
    /// and then sends take the plain path. `transferTemplate` holds the phase's identity.
    std::vector<ChunkTransfer>* transfers = nullptr;
    ChunkTransfer transferTemplate;

    /// Sends `bytes` to `dst` and logs the message (transfers must be set): its end is filled
    /// in when the transport delivers it.
    void sendRecorded(int dst, uint64_t bytes, int step, bool reduce) const;

    /// R(x) = 3 * floor(x / (L * 1e9) * 1e9) ns: one write and two reads of the buffer.
    SimTime reduction(uint64_t bytes) const;
};

class Phase {
public:
    virtual ~Phase() = default;
    virtual void start() = 0;
    /// A one-line description of what it waits for (deadlock report).
    virtual std::string waitingFor() const = 0;
};

std::unique_ptr<Phase> makePhase(const PhaseSpec& spec, PhaseContext context);

} // namespace astrolabe
