#pragma once
// Chrome trace-event JSON (opens in Perfetto and chrome://tracing).
//
// Layout: pid = NPU index (process "NPU <i>"); one thread per activity kind (compute tid 1,
// communication 2, memory 3, cpu 4, other 5). Slices on one thread never overlap: when the data
// has overlapping intervals of one kind on one NPU (e.g. two concurrent collectives), the extra
// ones go to extra lanes, tid = kindTid + 100 * lane, named "communication #2" and so on.
// Link utilization from RunResult::linkSeries becomes counter tracks ("ph":"C") in a process
// pid = npuCount named "Network". Local memory in use (RunResult::memoryUsage, recorded with
// track-local-mem) becomes a counter track "local memory" (bytes) in each NPU's process. The
// critical path becomes flow arrows ("s"/"f").
// Timestamps "ts" and durations "dur" are microseconds written as exact decimals (ps precision).
//
// Size budget: the output size is estimated before writing (~130 bytes per slice). When the
// estimate exceeds the budget, writePerfettoTrace cuts the trace at a time T (events starting at
// or after T are left out) and says so in "otherData" and in a global instant event named
// "truncated"; writePerfettoTraceFiles instead splits the trace by time window into several
// files, each within the budget. Either way the returned summary carries a message for the user.

#include "record/RunResult.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace astrolabe {

struct PerfettoOptions {
    uint64_t sizeBudgetBytes = 200ull * 1000 * 1000; ///< estimated bytes per output file
    bool linkCounters = true;
    bool memoryCounters = true;
    bool flows = true;
};

struct PerfettoSummary {
    uint64_t slices = 0;         ///< slices written (over all files)
    uint64_t counters = 0;       ///< counter events written
    uint64_t flows = 0;          ///< flow arrows written
    uint64_t estimatedBytes = 0; ///< estimate for the whole, uncut trace
    bool truncated = false;
    SimTime cutAt;                  ///< when truncated: first time left out
    std::vector<std::string> files; ///< writePerfettoTraceFiles: the files written, in time order
    std::string message;            ///< empty when the whole trace was written to one file
};

/// Lane of every activity (parallel to result.activities): the lowest lane of its (npu, kind)
/// track whose previous slice has ended. O(n log n + n * lanes).
std::vector<int> assignLanes(const RunResult& result);
/// The tid used for a kind and lane.
int perfettoTid(ActivityKind kind, int lane);

/// One JSON document; cut at the budget (see above).
PerfettoSummary writePerfettoTrace(std::ostream& out, const RunResult& result,
                                   const PerfettoOptions& options = {});
/// `path` when it fits, else path's stem + ".partK.json" (K from 1), split by time window.
/// Throws astrolabe::Error when a file cannot be written.
PerfettoSummary writePerfettoTraceFiles(const std::string& path, const RunResult& result,
                                        const PerfettoOptions& options = {});

} // namespace astrolabe
