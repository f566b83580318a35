#pragma once
// Loads a whole workload: PREFIX.i.et for every NPU i, validated before anything runs, so that a
// broken trace is refused with a precise message instead of hanging or aborting mid-simulation.

#include "trace/WorkloadNode.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

struct LoadOptions {
    /// Roofline compute model on: COMP nodes (not CPU ops) need num_ops and tensor_size.
    bool roofline = false;
    /// NPUs per network dimension. When given, a COMM_COLL whose involved dimensions all have
    /// size 1 is refused; when empty only an all-false involved_dim is.
    std::vector<uint32_t> dimensionSizes;
    /// Check that every SEND has a RECV with the same (src, dst, tag, size) and vice versa.
    bool checkSendRecvPairs = true;
    /// SEND's comm_src / RECV's comm_dst must equal the file's rank. Off for custom-collective
    /// ETs, whose ranks are algorithm ranks translated through a communicator group.
    bool checkIssuingRank = true;
    /// Read the "inputs" / "outputs" tensor lists (track-local-mem on).
    bool readTensors = false;
    /// Refuse traces that need an assumption. Off, each trace is first repaired by the
    /// documented rules of TraceRepair.h (what was assumed lands in WorkloadTrace::assumptions),
    /// and a collective on a 1-NPU platform is allowed (the executor replays its duration).
    bool strict = true;
    /// At most this many errors are listed; the rest are counted.
    size_t maxErrors = 50;
};

/// Reads PREFIX.0.et .. PREFIX.(npuCount-1).et (binary, gzip or protobuf-JSON each) and validates
/// them: missing files, an extra PREFIX.npuCount.et (NPU count mismatch), duplicate node ids,
/// unknown parents, dependency cycles (the cycle is printed), no dependency-free node, missing
/// required attributes, unsupported collectives, collectives over no dimension, SEND/RECV issued
/// by the wrong rank and SEND/RECV that can never match across ranks.
///
/// With options.strict off, every trace is repaired (repairTrace) before it is validated.
/// On success, SEND nodes without comm_src get comm_src = rank and RECV nodes without comm_dst
/// get comm_dst = rank (ASTRA-sim's defaults; has* flags stay false). Throws ErrorList with every
/// problem found (up to options.maxErrors), each naming the file and node id.
/// Cost: one pass per file plus O(nodes) validation; memory ~ the decoded nodes.
std::vector<WorkloadTrace> loadWorkload(const std::string& prefix, int npuCount,
                                        const LoadOptions& options = {});

/// "PREFIX.rank.et"
std::string workloadFileName(const std::string& prefix, int rank);

} // namespace astrolabe
