#pragma once
// Collective microbenchmarks in memory: one COMM_COLL node per NPU, as ASTRA-sim's bundled
// examples (rank r's single node has id r).

#include "config/SimulationSpec.h"
#include "workload/WorkloadNode.h"

#include <vector>

namespace astrolabe {

std::vector<WorkloadTrace> makeMicrobenchmarkTraces(const MicrobenchmarkSpec& spec, int npuCount,
                                                    const CommGroups& groups);

} // namespace astrolabe
