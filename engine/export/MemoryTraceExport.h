#pragma once
// The per-NPU local memory trace of track-local-mem (spec §8.2): PREFIX.<rank>.json, Chrome
// trace-event JSON {"traceEvents": [...]} with timestamps in microseconds, as ASTRA-sim writes:
//
// * tensor lifetimes: a "B" event when a tensor is allocated and an "E" event when it is released,
//   pid = rank + 1,000,000, tid = the tensor's index on that NPU, cat "tensorLifetime",
//   args {"size": bytes};
// * the usage over time: a counter "GPU Memory Usage (MB)" (ph "C"), pid = rank + 2,000,000,
//   args {"Memory_MB": bytes / 2^20}, one event per step of RunResult::memoryUsage.
//
// ASTRA-sim's per-read/per-write slices (pid = rank) and its lifetime heat map
// (pid = rank + 3,000,000) are not written: they repeat the lifetimes in other layouts.

#include "record/RunResult.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace astrolabe {

/// "PREFIX.rank.json"
std::string memoryTraceFileName(const std::string& prefix, int rank);

/// One NPU's memory trace as one JSON document. O(tensors + usage points) of that NPU.
void writeMemoryTrace(std::ostream& out, const RunResult& result, int rank);

/// Writes PREFIX.<rank>.json for every NPU with a memory usage series (none when the run did not
/// track local memory), creating PREFIX's folder if needed. Returns the files written.
/// Throws astrolabe::Error naming the file when one cannot be written.
std::vector<std::string> writeMemoryTraceFiles(const std::string& prefix, const RunResult& result);

} // namespace astrolabe
