#include "simulation/WorkloadSource.h"

#include "core/Error.h"
#include "workload/Microbenchmark.h"

namespace astrolabe {

std::vector<WorkloadTrace> loadWorkloadTraces(const SimulationSpec& spec, int npuCount) {
    switch (spec.workload.kind) {
    case WorkloadSource::Kind::Microbenchmark:
        return makeMicrobenchmarkTraces(spec.workload.microbenchmark, npuCount, spec.commGroups);
    case WorkloadSource::Kind::ChakraTrace:
        break;
    }
    throw Error(ErrorKind::Unsupported, "Chakra trace workloads are wired in with the trace reader",
                {spec.sourceFile, 0, 0, "workload.trace"});
}

} // namespace astrolabe
