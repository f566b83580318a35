#include "trace/kineto/ExpertComm.h"

#include "core/Error.h"
#include "trace/kineto/KinetoImport.h"

#include <limits>
#include <unordered_set>
#include <vector>

namespace astrolabe::kineto {
namespace {

uint64_t product(std::initializer_list<uint64_t> factors, const std::string& what) {
    uint64_t out = 1;
    for (uint64_t f : factors) {
        if (f != 0 && out > std::numeric_limits<uint64_t>::max() / f)
            throw Error(ErrorKind::Input, "the expert communication sizes overflow 64 bits",
                        SourceLocation{what, 0, 0, {}}, "check tokens, hidden and top-k");
        out *= f;
    }
    return out;
}

} // namespace

ExpertSizes expertSizes(const MoeShape& shape, const std::string& what) {
    const std::pair<const char*, uint64_t> fields[] = {{"tokens", shape.tokens},
                                                       {"hidden", shape.hidden},
                                                       {"top-k", shape.topK},
                                                       {"experts", shape.experts}};
    for (const auto& [name, value] : fields)
        if (value == 0)
            throw Error(ErrorKind::Input,
                        std::string("the MoE shape's ") + name + " is 0; it must be at least 1",
                        SourceLocation{what, 0, 0, {}},
                        "e.g. DeepSeek-V3: tokens 4096, hidden 7168, top-k 8, experts 256");
    if (shape.topK > shape.experts)
        throw Error(ErrorKind::Input,
                    "the MoE shape's top-k (" + std::to_string(shape.topK) +
                        ") is more than its experts (" + std::to_string(shape.experts) +
                        "): a token is routed to top-k distinct experts",
                    SourceLocation{what, 0, 0, {}},
                    "the order is tokens,hidden,top-k,experts (e.g. 4096,7168,8,256)");
    ExpertSizes s;
    // FP8 activations with one FP32 scale per 128 elements (DeepEP's dispatch of DeepSeek-V3).
    const uint64_t scales = (shape.hidden + 127) / 128 * 4;
    s.dispatch = product({shape.tokens, shape.topK, shape.hidden + scales}, what);
    s.combine = product({shape.tokens, shape.topK, shape.hidden, 2}, what);
    s.notify = product({shape.experts, 4}, what);
    return s;
}

ExpertSizing sizeExpertCommunication(WorkloadTrace& trace, const ExpertSizes& sizes) {
    ExpertSizing out;
    for (WorkloadNode& n : trace.nodes) {
        if (n.type != NodeType::CommColl)
            continue;
        const std::string name = n.name;
        const KernelClassification c = classifyKernel("kernel", name);
        if (c.kind == KernelClass::ExpertAllToAll) {
            const bool combine = name.find("::combine") != std::string::npos;
            n.commSize = combine ? sizes.combine : sizes.dispatch;
            ++(combine ? out.combine : out.dispatch);
        } else if (c.kind == KernelClass::ExpertControl) {
            n.commSize = sizes.notify;
            ++out.notify;
        } else {
            continue;
        }
        n.hasCommSize = true;
        n.commType = CollectiveType::AllToAll;
        n.hasCommType = true;
    }
    return out;
}

size_t dropLaunchTimeline(WorkloadTrace& trace) {
    std::unordered_set<uint64_t> host;
    for (const WorkloadNode& n : trace.nodes)
        if (n.isCpuOp && n.type == NodeType::Comp)
            host.insert(n.id);
    if (host.empty())
        return 0;
    std::vector<WorkloadNode> kept;
    kept.reserve(trace.nodes.size() - host.size());
    auto keep = [&](const DependencyList& deps) {
        std::vector<uint64_t> out;
        for (uint64_t d : deps)
            if (!host.count(d))
                out.push_back(d);
        return out;
    };
    for (WorkloadNode& n : trace.nodes) {
        if (host.count(n.id))
            continue;
        const std::vector<uint64_t> data = keep(n.dataDeps), ctrl = keep(n.ctrlDeps);
        n.dataDeps.assign(data.begin(), data.end());
        n.ctrlDeps.assign(ctrl.begin(), ctrl.end());
        kept.push_back(std::move(n));
    }
    trace.nodes = std::move(kept);
    return host.size();
}

} // namespace astrolabe::kineto
