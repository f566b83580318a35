#pragma once
// Why a run took as long as it did: the critical path's time split into what it was spent on,
// the dominant part named as the run's bound, and what-if upper bounds from the model.
//
// The critical path (RunResult::criticalPath) is a chain of nodes on one NPU, each started by
// the one before. Its time, end to end, is decomposed into:
//   compute      compute and CPU nodes;
//   memory       remote-memory loads and stores;
//   latency(d)   the per-message part of communication on dimension d (alpha, hops x latency);
//   bandwidth(d) the per-byte part on dimension d (bytes / beta);
//   waiting      a send or receive waiting for its peer beyond the transfer itself (with
//                pipelines: the bubble) and gaps between consecutive chain nodes;
//   local memory inside collectives: the endpoint hop to the memory agent and the reduction
//                passes over local memory (local-mem-bw).
// A collective's time is shared among the dimensions whose phases run in each instant (equally
// when several run at once). Each dimension's share is split in the proportions of the NPU's
// whole-run collective time on that dimension that its busiest outgoing link on it spent
//   on latency:   messages x hops x alpha,     on bandwidth:   busy (bytes / beta) time;
// (messages of several chunks in flight can overlap: when the two sum past the phase time, they
// are scaled to fill it). Of the rest, local memory takes at most what the system config allows
// (every message paying the endpoint hop E and a reduction, 3 x bytes / local-mem-bw); what is
// left was waiting for data inside the collective. Without the system config the whole rest
// counts as local memory. A send or receive's source is not recorded: its transfer is taken as
// the cheapest single message on any dimension (hops x alpha + bytes / beta), the rest is
// waiting.
//
// What-if savings are upper bounds: shortening work on the critical path by x shortens the run
// by at most x, since that path stays a path of the changed run. The one exception is local
// memory: faster reductions also shorten the waiting for them (on another dimension, or on
// another chunk), so that figure is an estimate ("would save about"), which the bundled torus
// example misses by about one point (36.8 % quoted, 37.7 % measured).

#include "core/Units.h"
#include "record/RunResult.h"
#include "spec/PlatformSpec.h"
#include "spec/SystemConfig.h"

#include <string>
#include <vector>

namespace astrolabe {

enum class BoundKind : uint8_t {
    Unknown,         ///< no timeline or critical path recorded
    Compute,         ///< compute nodes dominate the critical path
    Bandwidth,       ///< bytes / bandwidth on one dimension dominates
    Latency,         ///< per-message latency dominates (many small messages)
    PipelineBubble,  ///< waiting dominates (on another NPU's send or receive: the bubble)
    Memory,          ///< remote-memory transfers or collectives' local-memory work dominate
    DependencyChain, ///< nothing takes half: compute and communication run one after another
};

/// The critical path's time on one network dimension, in nanoseconds.
struct DimensionPart {
    int dimension = 0;
    double latencyNs = 0;              ///< per-message part
    double bandwidthNs = 0;            ///< per-byte part
    double utilization = 0;            ///< its links' busy fraction over the run (DimensionStats)
    double busiestLinkUtilization = 0; ///< of the explained NPU's busiest outgoing link on it
};

struct RunExplanation {
    BoundKind bound = BoundKind::Unknown;
    int dimension = -1; ///< for Bandwidth: the dimension named; else -1
    double share = 0;   ///< the bound's part of the critical path, in [0, 1]
    /// The most the run could shorten (fraction of its time) under the what-if in `sentence`:
    /// compute x2 faster, the dimension's bandwidth x2, every latency / 2, no waiting, memory x2,
    /// or compute fully overlapped with communication (DependencyChain).
    double saving = 0;

    int npu = -1;       ///< whose chain the critical path is
    size_t nodes = 0;   ///< nodes on it
    double totalNs = 0; ///< the run's end time
    double computeNs = 0, memoryNs = 0, waitingNs = 0;
    double localMemoryNs = 0; ///< collectives' endpoint hops, reductions and scheduling
    double peerWaitingNs = 0; ///< the part of waitingNs spent in sends and receives
    std::vector<DimensionPart> dimensions;

    double latencyNs() const;       ///< over all dimensions
    double bandwidthNs() const;     ///< over all dimensions
    double communicationNs() const; ///< latency + bandwidth

    /// "bandwidth-bound on dimension 1: moving bytes over it is 95.2% of the critical path (NPU
    /// 0's busiest link on it busy 95.2% of the run, its links 47.6% on average); doubling its
    /// bandwidth would save at most 47.6%."
    std::string sentence;
    /// "Critical path on NPU 0, 12 nodes, 1.2 ms: compute 10.0%, dimension 0 latency 2.0% +
    /// bandwidth 5.0%, waiting 0.0%."
    std::string breakdown;
};

/// Explains `result` on `platform` (the platform it ran on: latencies and kinds per dimension)
/// and `system` (its endpoint delay and local-mem-bw; may be null, see above).
/// Returns bound Unknown, with a sentence that says why, when the run recorded no timeline or
/// critical path, or when the platform's dimension count differs from the run's.
/// O(activities + phases + links) time. `spelling`: how the breakdown writes microseconds (the
/// window writes µs, a terminal us).
RunExplanation explainRun(const RunResult& result, const PlatformSpec& platform,
                          const SystemConfig* system = nullptr,
                          units::TimeSpelling spelling = units::TimeSpelling::Ascii);

} // namespace astrolabe
