#pragma once
// Any trace a user brings, read as per-NPU Chakra traces with what had to be assumed: a Chakra
// ET (binary, gzip, protobuf-JSON or Chakra's workload_graph JSON; PREFIX.i.et siblings are read
// as the other ranks), or a PyTorch profiler (Kineto) trace. What the window's File > Import
// Trace… and `astrolabe-cli import` share (docs/real-traces.md).

#include "trace/WorkloadNode.h"

#include <string>
#include <vector>

namespace astrolabe {

enum class TraceFormat : uint8_t { ChakraEt, PyTorchProfiler, PyTorchLinked };
/// "Chakra ET", "PyTorch profiler trace", "PyTorch execution trace + profiler trace"
const char* traceFormatName(TraceFormat format);

/// By content: a JSON object whose first MiB has "traceEvents" is a profiler trace; anything
/// else is read as a Chakra ET. A PyTorch execution trace (ExecutionTraceObserver's ET JSON) is
/// refused here, with the hint to give its profiler trace too (importLinkedTraces).
/// Throws astrolabe::Error naming the file.
TraceFormat detectTraceFormat(const std::string& path);
/// True when `path` holds a PyTorch execution trace (by content, as detectTraceFormat).
bool isExecutionTrace(const std::string& path);

struct ImportedTraces {
    TraceFormat format = TraceFormat::ChakraEt;
    std::vector<WorkloadTrace> ranks; ///< one per rank found, repaired by the lenient rules
    /// What was read and assumed, a line each: the files, nodes, assumptions by kind and, for a
    /// profiler trace, every kernel by class with its count, time and share.
    std::vector<std::string> report;
    /// Communication takes as long as measured only with system.replay-only (a profiler trace
    /// gives kernels' durations, not their sizes).
    bool needsReplay = false;
};

/// Reads `path` and, for PREFIX.i.et, PREFIX.0.et .. up to the first missing rank. Chakra
/// traces are repaired by TraceRepair's rules. Throws astrolabe::Error / ErrorList naming the
/// file and the node or event.
ImportedTraces importTraces(const std::string& path);

/// Links PyTorch's execution trace `etPath` with its profiler trace `kinetoPath` into one
/// rank's trace (pytorch/TraceLinker.h), repaired by TraceRepair's rules. Throws
/// astrolabe::Error / ErrorList naming the file and the node or event.
ImportedTraces importLinkedTraces(const std::string& etPath, const std::string& kinetoPath);

/// Writes PREFIX.0.et .. PREFIX.(npus-1).et: the ranks as read when there are `npus` of them
/// and `rankZeroForAll` is off, else rank 0's trace for every NPU. Returns the line that says
/// which.
std::string writeImportedTraces(const ImportedTraces& imported, const std::string& prefix, int npus,
                                bool rankZeroForAll = false);

} // namespace astrolabe
