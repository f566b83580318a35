#pragma once
// Everything one run needs, as plain validated structs. Produced by the project/ and astra/ loaders
// (project YAML, or ASTRA-sim's files and flags) and consumed by Simulation::run.

#include "spec/MemoryConfig.h"
#include "spec/PlatformSpec.h"
#include "spec/ServingSpec.h"
#include "spec/SystemConfig.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace astrolabe {

enum class NetworkBackend : uint8_t { CongestionUnaware, CongestionAware, Packet };
/// "analytical-congestion-unaware", "analytical-congestion-aware", "ns3" (ASTRA-sim's names).
const char* networkBackendName(NetworkBackend backend);

/// The packet-level tier (network/packet, docs/network-models.md): ns-3's TCP over the platform.
enum class PacketTransport : uint8_t { Dctcp, NewReno };
/// ECMP: one path per (sub-)flow by a 5-tuple hash; Spray: each packet its own equal-cost path.
enum class PacketRouting : uint8_t { Ecmp, Spray };

struct PacketOptions {
    PacketTransport transport = PacketTransport::Dctcp;
    PacketRouting routing = PacketRouting::Ecmp;
    int subflows = 1;                        ///< TCP connections each message is split into
    int mtuBytes = 9000;                     ///< IP MTU of every link
    int ackEvery = 2;                        ///< data segments per (delayed) ACK
    uint64_t queueBytes = 1ull << 20;        ///< per output port (traffic-control queue disc)
    uint64_t ecnThresholdBytes = 128 * 1024; ///< DCTCP marks above this instantaneous queue
    double stallTimeoutNs = 100e6; ///< no byte delivered for this long while flows wait: error
    bool operator==(const PacketOptions&) const = default;
};

/// How rate-derived durations become simulated time.
enum class TimingMode : uint8_t {
    AstraCompatible, ///< floor to whole nanoseconds where ASTRA-sim truncates (cycle-identical)
    Precise,         ///< round once to the picosecond
};

/// Communicator groups: group id (> 0) -> member ranks in the listed order.
using CommGroups = std::map<int, std::vector<int>>;

struct MicrobenchmarkSpec {
    /// Chakra CollectiveCommType value: 0 all-reduce, 2 all-gather, 6 all-to-all, 7 reduce-scatter.
    int collective = 0;
    uint64_t sizeBytes = 0;
    int commGroup = 0; ///< 0 = all NPUs
    bool operator==(const MicrobenchmarkSpec&) const = default;
};

struct WorkloadSource {
    enum class Kind : uint8_t { ChakraTrace, Microbenchmark };
    Kind kind = Kind::ChakraTrace;
    std::string tracePrefix; ///< ChakraTrace: NPU i reads tracePrefix + "." + i + ".et"
    MicrobenchmarkSpec microbenchmark;
    bool operator==(const WorkloadSource&) const = default;
};

struct RunOptions {
    NetworkBackend backend = NetworkBackend::CongestionUnaware;
    TimingMode timing = TimingMode::AstraCompatible;
    int numQueuesPerDim = 1;
    double injectionScale = 1.0;
    bool rendezvousProtocol = false;
    /// Dependencies: false = data and control (ASTRA-sim feeder v3), true = data only (feeder v1).
    bool dataDepsOnly = false;
    /// Traces: false = lenient (the documented rules for converted PyTorch traces apply and
    /// what they assumed is reported), true = strict (such traces are refused).
    bool strictTraces = false;
    /// Record per-NPU activity intervals, collective/phase spans and link busy intervals.
    bool recordTimeline = true;
    bool recordLinkIntervals = false;
    /// Record every collective message (RunResult::transfers) for the animation. Simulates every
    /// NPU (no symmetry): meant for small demonstration runs.
    bool recordTransfers = false;
    /// Simulate one representative NPU when every NPU provably behaves the same (identical
    /// traces, translation-symmetric platform and algorithms): results are identical, the run is
    /// up to N times cheaper. See simulation/Symmetry.h.
    bool exploitSymmetry = true;
    PacketOptions packet; ///< used when backend is Packet
    bool operator==(const RunOptions&) const = default;
};

struct SimulationSpec {
    std::string name;
    PlatformSpec platform;
    SystemConfig system;
    RemoteMemoryConfig memory;
    CommGroups commGroups;
    WorkloadSource workload;
    RunOptions options;
    /// LLM inference (the serving: section); enabled only when the project has one.
    ServingSpec serving;
    std::string sourceFile; ///< the project YAML, or empty
    /// Field-by-field; note PlatformSpec's == ignores its sourceFile, the others compare theirs.
    bool operator==(const SimulationSpec&) const = default;
};

} // namespace astrolabe
