#pragma once
// What a run produces. Built by the Recorder during the run, then frozen: a RunResult is
// immutable and shared read-only (std::shared_ptr<const RunResult>) by exports, the store and
// the GUI views.
//
// Times are SimTime (picoseconds). Intervals are half-open [start, end).

#include "core/SimTime.h"
#include "trace/WorkloadNode.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

struct NpuSummary {
    int npu = 0;
    bool finished = false;
    SimTime finish;      ///< when the NPU had nothing left to run ("finished, N cycles")
    SimTime gpuTime;     ///< sum of GPU compute node durations (ASTRA-sim gpu_ops_ticks)
    SimTime cpuTime;     ///< sum of CPU node durations
    SimTime exposedComm; ///< finish - gpuTime (ASTRA-sim's definition, not overlap-aware)
    SimTime wall;        ///< max end over all nodes
    // Length of the union of intervals per class (ASTRA-sim's per-class report lines).
    SimTime computeUnion, commUnion, cpuUnion, remoteMemUnion, invalidUnion;
    SimTime overlap;              ///< computeUnion + commUnion - wall when > 0
    SimTime idle;                 ///< finish - union of all activity
    uint64_t peakMemoryBytes = 0; ///< 0 when not tracked
    // Roofline statistics (percent / ops per byte), when roofline is enabled.
    double computeBoundPercent = 0, avgComputeUtilization = 0, avgMemoryUtilization = 0,
           avgOperationIntensity = 0;
};

enum class ActivityKind : uint8_t { Compute, Communication, Memory, Cpu, Other };
const char* activityKindName(ActivityKind kind);

/// One executed workload node on one NPU.
struct ActivityInterval {
    SimTime start;
    SimTime end;
    int32_t npu = 0;
    ActivityKind kind = ActivityKind::Other;
    NodeType nodeType = NodeType::Invalid;
    uint64_t nodeId = 0;
    uint32_t nameIndex = 0; ///< into RunResult::names
    uint64_t bytes = 0;     ///< comm/tensor size when meaningful
};

/// One phase of one chunk of a collective on one NPU.
struct PhaseSpan {
    SimTime start;
    SimTime end;
    int32_t npu = 0;
    uint64_t nodeId = 0;
    int32_t chunk = 0;
    int16_t phase = 0;      ///< index in the chunk's phase list
    int16_t dimension = -1; ///< network dimension (-1 for a whole-machine "one*" ring)
    uint8_t phaseKind = 0;  ///< CollectiveKind
    uint8_t algorithm = 0;  ///< AlgorithmKind
    uint64_t inputBytes = 0;
};

/// One message of a collective phase between two NPUs (recorded only on request:
/// RunOptions::recordTransfers). `start` is when the sender hands it to the transport, `end` when
/// it arrives; `reduce` says whether the receiver combines it with its own data (reduce-scatter
/// steps) rather than keeping it (all-gather steps). An in-switch phase's messages go up to the
/// switch of their dimension's line and down from it: that end is kSwitch (the switch reduces
/// what goes up for an all-reduce or a reduce-scatter).
struct ChunkTransfer {
    static constexpr int32_t kSwitch = -1;
    /// `algorithm` of a custom collective's messages (an MSCCL-IR XML or ET schedule, TACOS).
    static constexpr uint8_t kCustomAlgorithm = 255;
    SimTime start;
    SimTime end;
    int32_t src = 0;
    int32_t dst = 0;
    uint64_t nodeId = 0;
    uint64_t bytes = 0;
    int32_t chunk = 0;
    int16_t phase = 0;      ///< index in the chunk's phase list
    int16_t dimension = -1; ///< network dimension (-1 for a whole-machine "one*" ring)
    int16_t step = 0;       ///< the sender's message index within the phase, from 0
    uint8_t algorithm = 0;  ///< AlgorithmKind
    bool reduce = false;
};

struct CollectiveSpan {
    SimTime start;
    SimTime end;
    int32_t npu = 0;
    uint64_t nodeId = 0;
    CollectiveType type = CollectiveType::AllReduce;
    uint64_t sizeBytes = 0;
    int32_t chunks = 0;
    int32_t commGroup = 0;
};

/// One step of an NPU's local memory usage (track-local-mem): from `time` on, `bytes` are live,
/// until the next point. Points are in time order, one per distinct time.
struct MemoryUsagePoint {
    SimTime time;
    uint64_t bytes = 0;
};

/// When one tensor occupied an NPU's local memory (track-local-mem): [allocated, released).
struct TensorLifetime {
    SimTime allocated;
    SimTime released;
    int32_t npu = 0;
    std::string name;
    uint64_t bytes = 0;
    int64_t producerNodeId = -1; ///< the node that outputs it; -1 = live from the start
};

/// A unidirectional link of the modelled network.
struct LinkInfo {
    int32_t src = 0; ///< device id: NPUs 0..N-1, then switches
    int32_t dst = 0;
    int16_t dimension = 0;
    double bandwidthBytesPerSecond = 0;
};

struct LinkStats {
    uint64_t bytes = 0;
    uint64_t messages = 0;
    SimTime busy; ///< total serialization time
};

/// A busy interval of one link (recorded only on request).
struct LinkBusyInterval {
    SimTime start;
    SimTime end;
    int32_t link = 0;
};

/// The utilization series of a group of links of one dimension: what the project database keeps
/// instead of per-link series for a run with many links (record/LinkGroups.h). The group holds
/// the links of `dimension` whose rank among that dimension's links (in link index order) is in
/// [firstRank, firstRank + linkCount).
struct LinkGroupSeries {
    int16_t dimension = 0;
    int32_t firstRank = 0;
    int32_t linkCount = 0;
    std::vector<float> mean; ///< per bucket: mean utilization of the group's links, in [0, 1]
    std::vector<float> max;  ///< per bucket: highest utilization of any of its links
};

struct DimensionStats {
    int dimension = 0;
    uint64_t bytes = 0;
    /// The mean busy time of the dimension's links (their sum, link-time, would pass the
    /// simulated clock in a long run of many links); schema 5 on, before: the sum.
    SimTime busy;
    double peakBandwidthBytesPerSecond = 0; ///< sum over the dimension's links
    double utilization = 0;                 ///< busy / end time = sum of busy / (links * end)
};

struct RunResult {
    std::string name;
    int npuCount = 0;
    SimTime endTime;
    uint64_t events = 0;
    /// NPUs simulated event by event; fewer than npuCount when symmetric ranks were folded
    /// (simulation/Symmetry.h, RankFolding.h) and the rest follow by symmetry. Not stored.
    int simulatedNpus = 0;
    double wallSeconds = 0;

    std::vector<NpuSummary> npus;
    std::vector<std::string> names;           ///< string table for node names
    std::vector<ActivityInterval> activities; ///< sorted by (npu, start)
    std::vector<CollectiveSpan> collectives;
    std::vector<PhaseSpan> phases;
    /// Every collective message between NPUs, in send order; empty unless recordTransfers.
    std::vector<ChunkTransfer> transfers;

    std::vector<LinkInfo> links;
    std::vector<LinkStats> linkStats;            ///< parallel to links
    std::vector<LinkBusyInterval> linkIntervals; ///< empty unless requested
    /// Per-link utilization over time: linkSeries[link][bucket] in [0, 1].
    SimTime seriesBucket;
    std::vector<std::vector<float>> linkSeries;
    /// Empty for a fresh run. A run read back from the project database that was stored with
    /// aggregated link detail has no linkSeries but these (same buckets, same seriesBucket).
    std::vector<LinkGroupSeries> linkGroupSeries;
    std::vector<DimensionStats> dimensions;

    /// Bytes sent from NPU i to NPU j: trafficBytes[i * npuCount + j] (empty when too large).
    std::vector<uint64_t> trafficBytes;

    /// Local memory usage over time per NPU (memoryUsage[npu]) and the tensors behind it, in
    /// (npu, allocation) order; both empty unless system.track-local-mem is on.
    std::vector<std::vector<MemoryUsagePoint>> memoryUsage;
    std::vector<TensorLifetime> tensorLifetimes;

    /// The chain of (npu, node id) that set the end time, first to last.
    std::vector<std::pair<int32_t, uint64_t>> criticalPath;

    /// ASTRA-sim-style report lines (spec §8.1), in print order, each "[<logger>] <message>"
    /// (e.g. "[workload] sys[0] finished, 117780 cycles, exposed communication 117780 cycles.");
    /// a level other than info goes after the logger: "[system] [warning] Exiting".
    /// export/AstraReport.h adds the "[YYYY-MM-DD HH:MM:SS.mmm] " timestamp and "[info]" level.
    std::vector<std::string> reportLines;

    /// Named records a kind of run keeps beside the above, as bytes the store keeps without
    /// reading them (a serving run: "serving", serving/ServingCodec.h). Names are unique.
    std::vector<std::pair<std::string, std::string>> attachments;
};

} // namespace astrolabe
