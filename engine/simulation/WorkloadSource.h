#pragma once

#include "spec/SimulationSpec.h"
#include "trace/WorkloadNode.h"

#include <vector>

namespace astrolabe {

/// One trace per NPU for the spec's workload: Chakra files, or a microbenchmark made in memory.
std::vector<WorkloadTrace> loadWorkloadTraces(const SimulationSpec& spec, int npuCount);

} // namespace astrolabe
