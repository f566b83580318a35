#pragma once
// The one entry point a CLI run and a GUI run share.

#include "core/Simulator.h"
#include "record/RunResult.h"
#include "spec/SimulationSpec.h"

#include <memory>

namespace astrolabe {

/// RunResult::reportLines that start with this say what a lenient load assumed (one line per
/// kind, as trace/TraceRepair.h's assumptionLines writes them).
inline constexpr const char* kAssumedLinePrefix = "[workload] [warning] assumed ";

/// Runs the spec to completion. Throws astrolabe::Error: Input/Validation for bad input,
/// Deadlock (with a who-waits-on-whom report) when the run cannot finish, Cancelled when the
/// token fires. Thread-safe across instances: a run owns everything it uses.
std::shared_ptr<const RunResult> runSimulation(const SimulationSpec& spec,
                                               ProgressSink* progress = nullptr,
                                               const CancelToken* cancel = nullptr);

/// The same with the per-NPU traces given in memory (generators, tests); spec.workload is
/// ignored. traces.size() must equal the platform's NPU count.
std::shared_ptr<const RunResult> runSimulation(const SimulationSpec& spec,
                                               std::vector<WorkloadTrace> traces,
                                               ProgressSink* progress = nullptr,
                                               const CancelToken* cancel = nullptr);

} // namespace astrolabe
