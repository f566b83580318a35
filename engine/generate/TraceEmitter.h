// Appending the nodes of one rank's generated trace (TraceBuilder's pen): consecutive ids, the
// Chakra attributes of each node kind, and the compute-time model of a generated kernel.
#pragma once

#include "generate/GeneratorSpec.h"
#include "generate/OperationCost.h"
#include "generate/RankLayout.h"
#include "trace/WorkloadNode.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe::generate::trace_emitter {

using Deps = std::vector<uint64_t>;

/// Appends nodes to one rank's trace with consecutive ids from 0.
class Emitter {
public:
    Emitter(WorkloadTrace& trace, const RankLayout& layout, const ComputeSpec& compute, int rank,
            double elementBytes = 2)
        : m_trace(trace)
        , m_layout(layout)
        , m_compute(compute)
        , m_rank(rank)
        , m_elementBytes(elementBytes) {}

    /// A COMP node timed by the operation model from `kernels`, or by the roofline
    /// (generate/OperationCost.h says which).
    uint64_t comp(std::string name, double flops, double bytes, Deps data,
                  const std::vector<Kernel>& kernels = {}) {
        WorkloadNode& n = add(std::move(name), NodeType::Comp, std::move(data));
        n.hasNumOps = n.hasTensorSize = true;
        n.numOps = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(flops)));
        n.tensorSize = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(bytes)));
        const double seconds = computeSeconds(flops, bytes, kernels, m_compute, m_elementBytes);
        n.durationMicros = static_cast<uint64_t>(std::llround(seconds * 1e6));
        return n.id;
    }

    /// A host-CPU node (is_cpu_op): replayed for bytes / (gbps 10^9 B/s), whatever the roofline.
    uint64_t cpu(std::string name, double bytes, double gbps, Deps data) {
        WorkloadNode& n = add(std::move(name), NodeType::Comp, std::move(data));
        n.isCpuOp = true;
        n.hasTensorSize = true;
        n.tensorSize = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(bytes)));
        n.durationMicros = static_cast<uint64_t>(std::llround(bytes / (gbps * 1e9) * 1e6));
        return n.id;
    }

    /// Returns no node when the group has a single member (nothing to communicate).
    std::optional<uint64_t> coll(std::string name, CollectiveType type, uint64_t bytes,
                                 GroupKind group, Deps data) {
        if (m_layout.groupSize(group) <= 1)
            return std::nullopt;
        WorkloadNode& n = add(std::move(name), NodeType::CommColl, std::move(data));
        n.hasCommType = n.hasCommSize = true;
        n.commType = type;
        n.commSize = bytes;
        const int id = m_layout.groupId(group, m_rank);
        n.pgName = id > 0 ? std::to_string(id) : std::string();
        return n.id;
    }

    /// MEM_LOAD / MEM_STORE of `bytes` (at least 1) against the platform's remote memory.
    uint64_t mem(std::string name, NodeType type, double bytes, Deps data) {
        WorkloadNode& n = add(std::move(name), type, std::move(data));
        n.hasTensorSize = true;
        n.tensorSize = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(bytes)));
        return n.id;
    }

    uint64_t send(std::string name, int dst, uint32_t tag, uint64_t bytes, Deps data) {
        WorkloadNode& n = add(std::move(name), NodeType::CommSend, std::move(data));
        setPeer(n, m_rank, dst, tag, bytes);
        return n.id;
    }

    uint64_t recv(std::string name, int src, uint32_t tag, uint64_t bytes, Deps ctrl) {
        WorkloadNode& n = add(std::move(name), NodeType::CommRecv, {});
        n.ctrlDeps = std::move(ctrl);
        setPeer(n, src, m_rank, tag, bytes);
        return n.id;
    }

private:
    WorkloadNode& add(std::string name, NodeType type, Deps data) {
        WorkloadNode& n = m_trace.nodes.emplace_back();
        n.id = m_trace.nodes.size() - 1;
        n.name = std::move(name);
        n.type = type;
        n.dataDeps = std::move(data);
        return n;
    }
    static void setPeer(WorkloadNode& n, int src, int dst, uint32_t tag, uint64_t bytes) {
        n.hasCommSrc = n.hasCommDst = n.hasCommTag = n.hasCommSize = true;
        n.commSrc = static_cast<uint32_t>(src);
        n.commDst = static_cast<uint32_t>(dst);
        n.commTag = tag;
        n.commSize = bytes;
    }

    WorkloadTrace& m_trace;
    const RankLayout& m_layout;
    const ComputeSpec& m_compute;
    int m_rank;
    double m_elementBytes;
};

inline Deps depsOf(std::optional<uint64_t> a, std::optional<uint64_t> b = std::nullopt) {
    Deps d;
    if (a)
        d.push_back(*a);
    if (b && b != a)
        d.push_back(*b);
    return d;
}

inline void addDep(Deps& deps, std::optional<uint64_t> id) {
    if (id && std::find(deps.begin(), deps.end(), *id) == deps.end())
        deps.push_back(*id);
}

} // namespace astrolabe::generate::trace_emitter
