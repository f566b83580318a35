#pragma once
// The simulator as LIBRA's IterationTime: the spec run with the platform's bandwidths replaced,
// its end time in seconds. Runs without the timeline (only the end time is read).

#include "optimize/BandwidthOptimizer.h"
#include "spec/SimulationSpec.h"
#include "trace/WorkloadNode.h"

#include <memory>
#include <vector>

namespace astrolabe::optimize {

/// Runs `spec` (its own workload) at each allocation. The spec is copied.
IterationTime simulatedIterationTime(SimulationSpec spec);

/// Runs `spec` with these per-NPU traces (a generated iteration) at each allocation; the traces
/// are shared, copied into each run.
IterationTime simulatedIterationTime(SimulationSpec spec,
                                     std::shared_ptr<const std::vector<WorkloadTrace>> traces);

/// The platform's bandwidths per dimension in GB/s (10^9 B/s).
std::vector<double> platformGBps(const PlatformSpec& platform);
/// The platform with these bandwidths (GB/s) per dimension.
PlatformSpec withGBps(PlatformSpec platform, const std::vector<double>& gbps);

} // namespace astrolabe::optimize
