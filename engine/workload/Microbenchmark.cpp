#include "workload/Microbenchmark.h"

#include "core/Error.h"

#include <algorithm>

namespace astrolabe {

std::vector<WorkloadTrace> makeMicrobenchmarkTraces(const MicrobenchmarkSpec& spec, int npuCount,
                                                    const CommGroups& groups) {
    const auto type = static_cast<CollectiveType>(spec.collective);
    if (type != CollectiveType::AllReduce && type != CollectiveType::AllGather &&
        type != CollectiveType::ReduceScatter && type != CollectiveType::AllToAll)
        throw Error(ErrorKind::Validation,
                    std::string("a microbenchmark runs all_reduce, all_gather, reduce_scatter or "
                                "all_to_all, not ") +
                        collectiveTypeName(type));
    const std::vector<int>* members = nullptr;
    if (spec.commGroup != 0) {
        const auto it = groups.find(spec.commGroup);
        if (it == groups.end())
            throw Error(ErrorKind::Validation,
                        "communicator group " + std::to_string(spec.commGroup) + " is not defined",
                        {}, "define it under comm-groups");
        members = &it->second;
    }
    std::vector<WorkloadTrace> traces(static_cast<size_t>(npuCount));
    for (int npu = 0; npu < npuCount; ++npu) {
        WorkloadTrace& trace = traces[static_cast<size_t>(npu)];
        trace.file = "<microbenchmark>";
        if (members && std::find(members->begin(), members->end(), npu) == members->end())
            continue; // not in the group: nothing to do
        WorkloadNode node;
        node.id = static_cast<uint64_t>(npu);
        node.name = collectiveTypeName(type);
        node.type = NodeType::CommColl;
        node.hasCommType = node.hasCommSize = true;
        node.commType = type;
        node.commSize = spec.sizeBytes;
        if (spec.commGroup != 0)
            node.pgName = std::to_string(spec.commGroup);
        trace.nodes.push_back(std::move(node));
    }
    return traces;
}

} // namespace astrolabe
