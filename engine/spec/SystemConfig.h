#pragma once
// The system layer: collective algorithms, chunking, scheduling, endpoint and memory costs.
// Mirrors ASTRA-sim 2.x's system JSON (spec §3) plus the settings 2.x ignores but we honour
// (intra/inter-dimension scheduling, spec §5.10).

#include "core/Collectives.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe {

enum class SchedulingPolicy : uint8_t { LIFO, FIFO, Explicit };
enum class CollectiveOptimization : uint8_t { Baseline, LocalBWAware };
enum class IntraDimensionScheduling : uint8_t { FIFO, RG, SmallestFirst, LessRemainingPhaseFirst };
/// themisGreedy is Themis' greedy rule as published (ISCA'22); themis searches the dimension
/// orders in a replay of the collective (Astrolabe's); offlineGreedy/offlineGreedyFlex are
/// ASTRA-sim's own code, kept cycle-exact (see DimensionScheduler.h and docs/themis.md).
enum class InterDimensionScheduling : uint8_t {
    Ascending,
    RoundRobin,
    Themis,
    OfflineGreedy,
    OfflineGreedyFlex,
    ThemisGreedy,
};

enum class AlgorithmKind : uint8_t {
    Ring,
    OneRing,
    Direct,
    OneDirect,
    HalvingDoubling,
    OneHalvingDoubling,
    DoubleBinaryTree,
    InSwitch, ///< Astrolabe: the Switch dimension's switch reduces in the network
};

/// One entry of a "*-implementation" list, e.g. "ring", "direct4", "oneHalvingDoubling".
struct AlgorithmSpec {
    AlgorithmKind kind = AlgorithmKind::Ring;
    int window = 0; ///< direct/oneDirect only: 0 means n-1 (no number in the name)
    bool operator==(const AlgorithmSpec&) const = default;
};

/// Parses an ASTRA-sim algorithm name; throws astrolabe::Error listing the valid names.
AlgorithmSpec parseAlgorithm(const std::string& name);
std::string algorithmName(const AlgorithmSpec& spec);
/// The names of a list joined by `separator`: "ring, direct4".
std::string algorithmNames(const std::vector<AlgorithmSpec>& list, const char* separator = ", ");
/// The inverse: "ring, direct4" (commas, blanks around names ignored) to a list; throws
/// astrolabe::Error listing the valid names for an unknown one.
std::vector<AlgorithmSpec> parseAlgorithmNames(const std::string& text);

struct SystemConfig {
    SchedulingPolicy schedulingPolicy = SchedulingPolicy::LIFO;
    CollectiveOptimization collectiveOptimization = CollectiveOptimization::Baseline;
    IntraDimensionScheduling intraDimensionScheduling = IntraDimensionScheduling::FIFO;
    InterDimensionScheduling interDimensionScheduling = InterDimensionScheduling::Ascending;

    /// Endpoint hop E in ns (cycles), final: loaders have already applied --injection-scale
    /// (ASTRA-sim scales it only when the key was present; endpointDelayFromFile records that).
    int64_t endpointDelayNs = 10;
    bool endpointDelayFromFile = false;
    /// The endpoint delay as written, before --injection-scale (ns); what a saved project
    /// writes back so that reading it again applies the scale once, as ASTRA-sim does.
    double endpointDelayConfiguredNs = 10;
    int activeChunksPerDimension = 1;
    int preferredDatasetSplits = 0; ///< required, > 0

    std::vector<AlgorithmSpec> allReduce, reduceScatter, allGather, allToAll;
    /// Custom collective ET prefixes per type ("<type>-implementation-custom"); empty = none.
    std::string customAllReduce, customReduceScatter, customAllGather, customAllToAll;
    /// Workload node id -> custom ET prefix ("per-node-custom-implementation" YAML), resolved.
    std::vector<std::pair<uint64_t, std::string>> perNodeCustom;

    /// Per collective (CollectiveKind order), the share of a link's bandwidth its messages move
    /// at: NCCL's collectives are different kernels and reach different bus bandwidths on one
    /// link (docs/calibration.md). A message of x bytes of a collective with factor f crosses a
    /// link as x / f bytes; reductions still cost x. 1: the link's bandwidth.
    std::array<double, 4> bandwidthFactor{1, 1, 1, 1};
    /// Per collective (CollectiveKind order), ns added once to every collective of that kind
    /// when its last chunk is done: NCCL's collectives have different fixed costs beyond the
    /// per-step ones (docs/calibration.md, "Per-collective latency"). 0: none.
    std::array<double, 4> collectiveLatencyNs{0, 0, 0, 0};
    double localMemBandwidthGBps = 0; ///< decimal GB/s (= bytes/ns): reduction cost, roofline
    double peakPerfTFlops = 0;        ///< roofline compute roof
    bool rooflineEnabled = false;
    bool traceEnabled = false;
    bool replayOnly = false;
    bool trackLocalMemory = false;
    std::string localMemTraceFilename = "local_mem_trace";

    std::string sourceFile;

    const std::vector<AlgorithmSpec>& algorithms(CollectiveKind kind) const;
    std::vector<AlgorithmSpec>& algorithms(CollectiveKind kind);
    /// The custom ET prefix of a collective type (empty: its algorithm list runs it).
    const std::string& customPrefix(CollectiveKind kind) const;
    bool operator==(const SystemConfig&) const = default;
};

} // namespace astrolabe
