#include "simulation/WorkloadSource.h"

#include "core/Error.h"
#include "generate/MicrobenchmarkGenerator.h"
#include "spec/SpecValidation.h"
#include "trace/WorkloadLoader.h"

#include <algorithm>

namespace astrolabe {

std::vector<WorkloadTrace> loadWorkloadTraces(const SimulationSpec& spec, int npuCount) {
    if (spec.workload.kind == WorkloadSource::Kind::ChakraTrace) {
        requireTraceFiles(spec); // one message for the whole set, not the first missing file
        LoadOptions options;
        options.roofline = spec.system.rooflineEnabled;
        options.readTensors = spec.system.trackLocalMemory;
        options.strict = spec.options.strictTraces;
        for (const DimensionSpec& d : spec.platform.dimensions)
            options.dimensionSizes.push_back(static_cast<uint32_t>(d.size));
        return loadWorkload(spec.workload.tracePrefix, npuCount, options);
    }
    const MicrobenchmarkSpec& micro = spec.workload.microbenchmark;
    std::vector<WorkloadTrace> traces = makeMicrobenchmark(
        static_cast<CollectiveType>(micro.collective), npuCount, micro.sizeBytes);
    if (micro.commGroup != 0) {
        const auto it = spec.commGroups.find(micro.commGroup);
        if (it == spec.commGroups.end())
            throw Error(ErrorKind::Validation,
                        "communicator group " + std::to_string(micro.commGroup) + " is not defined",
                        {spec.sourceFile, 0, 0, "workload.microbenchmark.comm-group"},
                        "define it under comm-groups");
        const std::vector<int>& members = it->second;
        for (int npu = 0; npu < npuCount; ++npu) {
            WorkloadTrace& t = traces[static_cast<size_t>(npu)];
            if (std::find(members.begin(), members.end(), npu) == members.end())
                t.nodes.clear(); // not in the group: nothing to do
            else
                t.nodes.front().pgName = std::to_string(micro.commGroup);
        }
    }
    return traces;
}

} // namespace astrolabe
