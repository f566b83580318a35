#pragma once
// Entry point of the training-iteration generator: a GeneratorSpec in, one Chakra trace per NPU
// and the communicator groups out, all in memory. Writing files goes through a callback so that
// this folder never depends on protobuf (the Chakra writer lives in trace/chakra/).

#include "generate/GeneratorSpec.h"
#include "generate/LayerProgram.h"
#include "spec/SimulationSpec.h"
#include "trace/WorkloadNode.h"

#include <functional>
#include <string>
#include <vector>

namespace astrolabe::generate {

struct GeneratedWorkload {
    std::vector<WorkloadTrace> traces; ///< index = NPU rank
    CommGroups groups;                 ///< id > 0 -> ranks (ascending)
};

/// The per-rank program of the spec's model kind (spec must be valid).
ModelProgram buildProgram(const GeneratorSpec& spec);

/// Validates, then builds every rank's trace. O(NPUs x nodes per rank) time and memory.
GeneratedWorkload generateWorkload(const GeneratorSpec& spec);

/// Trace nodes of one generated iteration, all NPUs together: Llama-3 405B on 16,384 NPUs makes
/// ~25 M. Past it an iteration takes minutes to generate (GPT-2 124M on 1,048,576 NPUs ran past
/// 60 s) and, in memory, tens of gigabytes: it is refused before the second rank is built.
inline constexpr double kMaxGeneratedNodes = 1 << 25;

/// Streaming form for machines too large to hold every trace (Llama-3 405B on 16,384 NPUs is
/// ~25 M nodes): validates, then calls sink(rank, trace) for rank 0..N-1 in order, holding one
/// trace at a time. Returns the communicator groups. Throws Error (Validation) when rank 0's
/// nodes times the NPU count pass kMaxGeneratedNodes, before any trace reaches the sink.
CommGroups forEachRankTrace(const GeneratorSpec& spec,
                            const std::function<void(int rank, WorkloadTrace&& trace)>& sink);

/// Writes one trace of a rank to a path (the Chakra protobuf writer).
using TraceWriter = std::function<void(const std::string& path, const WorkloadTrace& trace)>;

/// Generates and writes rank by rank (one trace in memory): writer(prefix + "." + rank + ".et",
/// trace), then prefix + ".comm_groups.json". Returns the total number of nodes written; throws
/// astrolabe::Error (Input) when a file cannot be written.
uint64_t generateAndWriteWorkload(const std::string& prefix, const GeneratorSpec& spec,
                                  const TraceWriter& writer);

/// Writes prefix + ".comm_groups.json"; throws astrolabe::Error (Input) on failure.
void writeCommGroups(const std::string& prefix, const CommGroups& groups);

} // namespace astrolabe::generate
