#pragma once
// How the command line shows a result: a human summary that says where the time went.

#include "record/RunResult.h"
#include "spec/SimulationSpec.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace astrolabe::cli {

/// The headline, per-NPU spread, per-collective times, per-dimension traffic and utilization,
/// and what bounds the run (analysis/RunExplanation.h).
void printRunSummary(std::ostream& out, const SimulationSpec& spec, const RunResult& result);
/// With track-local-mem: writes the per-NPU memory traces (export/MemoryTraceExport.h) to
/// local-mem-trace-filename + ".<rank>.json", a relative name taken from `folder` (the project's
/// folder for `run`, the working directory for `astra`, as ASTRA-sim), and says where on `out`.
/// Does nothing when the run did not track local memory.
void writeMemoryTraces(std::ostream& out, const SimulationSpec& spec, const RunResult& result,
                       const std::string& folder);
/// The full result as JSON (docs/result-format.md) into a file.
void writeResultJsonFile(const RunResult& result, const SimulationSpec& spec,
                         const std::string& path);

} // namespace astrolabe::cli
