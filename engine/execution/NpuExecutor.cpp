#include "execution/NpuExecutor.h"

#include "core/Error.h"
#include "trace/NodeIndex.h"
#include "trace/kineto/ImportSchema.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe {

NpuExecutor::NpuExecutor(int npu, const WorkloadTrace& trace, ExecutorContext context)
    : m_npu(npu)
    , m_file(trace.file)
    , m_ctx(std::move(context))
    , m_state(trace.nodes.size())
    , m_streamLanes(trace.schemaVersion == kineto::kImportSchema) {
    const size_t n = trace.nodes.size();
    if (!m_ctx.names)
        m_ctx.names = std::make_shared<NamePool>();
    m_nodes.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        const WorkloadNode& node = trace.nodes[i];
        m_nodes.emplace_back(node, *m_ctx.names);
        if (node.commPriority != 0)
            m_priorities.emplace(static_cast<uint32_t>(i), node.commPriority);
        if (!node.detail->involvedDim.empty())
            m_involvedDims.emplace(static_cast<uint32_t>(i), node.detail->involvedDim);
        if (m_nodes.back().group < 0)
            m_badGroupNames.emplace(static_cast<uint32_t>(i), node.pgName);
    }
    const NodeIndex indexOf(trace.nodes);
    if (!indexOf.duplicates().empty())
        fail(m_nodes[indexOf.duplicates().front().first], "duplicate node id");
    const bool dataOnly = m_ctx.spec->options.dataDepsOnly;
    std::vector<uint32_t> childCount(n, 0);
    auto forEachParent = [&](const WorkloadNode& node, auto&& f) {
        for (uint64_t p : node.dataDeps)
            f(p);
        if (!dataOnly)
            for (uint64_t p : node.ctrlDeps)
                f(p);
    };
    for (size_t i = 0; i < n; ++i)
        forEachParent(trace.nodes[i], [&](uint64_t parent) {
            const uint32_t at = indexOf.find(parent);
            if (at == NodeIndex::kAbsent)
                fail(m_nodes[i],
                     "depends on node " + std::to_string(parent) + ", which is not in the trace");
            ++childCount[at];
            if (m_state[i].pendingParents == kMaxParents)
                fail(m_nodes[i], "has more than " + std::to_string(kMaxParents) +
                                     " parents, more than a run can track");
            ++m_state[i].pendingParents;
        });
    m_childOffsets.assign(n + 1, 0);
    for (size_t i = 0; i < n; ++i)
        m_childOffsets[i + 1] = m_childOffsets[i] + childCount[i];
    m_children.resize(m_childOffsets[n]);
    std::vector<uint32_t> fill(m_childOffsets.begin(), m_childOffsets.end() - 1);
    for (size_t i = 0; i < n; ++i)
        forEachParent(trace.nodes[i], [&](uint64_t parent) {
            m_children[fill[indexOf.find(parent)]++] = static_cast<uint32_t>(i);
        });
    for (size_t i = 0; i < n; ++i) {
        const RunNode& node = m_nodes[i];
        m_state[i].slot = slotOf(node);
        switch (node.type) {
        case NodeType::Comp:
            m_state[i].cls = node.isCpuOp ? Class::Cpu : Class::Gpu;
            break;
        case NodeType::CommColl:
        case NodeType::CommSend:
        case NodeType::CommRecv:
            m_state[i].cls = Class::Comm;
            break;
        case NodeType::MemLoad:
        case NodeType::MemStore:
            m_state[i].cls = Class::RemoteMem;
            break;
        default:
            m_state[i].cls = Class::Invalid;
            break;
        }
    }
    if (m_ctx.spec->system.trackLocalMemory)
        m_memory = std::make_unique<LocalMemoryTracker>(m_npu, trace, m_ctx.sim->now());
}

void NpuExecutor::fail(const RunNode& node, const std::string& what,
                       const std::string& hint) const {
    const std::string& name = m_ctx.names->at(node.name);
    throw Error(ErrorKind::Validation,
                "NPU " + std::to_string(m_npu) + ", node " + std::to_string(node.id) +
                    (name.empty() ? "" : " (\"" + name + "\")") + ": " + what,
                {m_file, 0, 0, {}}, hint);
}

NpuExecutor::Slot NpuExecutor::slotOf(const RunNode& node) const {
    if (node.isCpuOp)
        return Slot::Cpu;
    if (node.type == NodeType::Comp)
        return m_streamLanes ? Slot::None : Slot::Compute;
    if (node.type == NodeType::CommRecv && !m_ctx.spec->system.replayOnly)
        return Slot::None;
    return Slot::Comm;
}

void NpuExecutor::start() {
    for (uint32_t i = 0; i < m_state.size(); ++i)
        if (m_state[i].pendingParents == 0)
            markReady(i);
    react();
}

void NpuExecutor::markReady(uint32_t index) {
    auto& ready = m_ready[static_cast<int>(m_state[index].slot)];
    ready.emplace_back(m_nodes[index].id, index);
    std::push_heap(ready.begin(), ready.end(), std::greater<>());
}

void NpuExecutor::react() {
    if (m_reacting) {
        m_again = true;
        return;
    }
    m_reacting = true;
    do {
        m_again = false;
        // Issue in ascending id order among the slot classes that can take a node.
        for (;;) {
            int best = -1;
            for (int s = 0; s < 4; ++s) {
                if (m_ready[s].empty() || (s < 3 && m_slotBusy[s]))
                    continue;
                if (best < 0 || m_ready[s].front().first < m_ready[best].front().first)
                    best = s;
            }
            if (best < 0)
                break;
            auto& ready = m_ready[best];
            const uint32_t index = ready.front().second;
            std::pop_heap(ready.begin(), ready.end(), std::greater<>());
            ready.pop_back();
            issue(index);
        }
    } while (m_again);
    m_reacting = false;
    if (!m_finished && m_inFlight == 0 && m_completed == m_state.size()) {
        m_finished = true;
        m_finishTime = m_ctx.sim->now();
        if (m_ctx.onFinished)
            m_ctx.onFinished(m_npu);
    }
}

NpuExecutor::Roofline NpuExecutor::roofline(const RunNode& node) const {
    const SystemConfig& sys = m_ctx.spec->system;
    if (!node.hasNumOps || !node.hasTensorSize)
        fail(node,
             std::string("roofline compute needs the attribute ") +
                 (node.hasNumOps ? "tensor_size" : "num_ops"),
             "add it to the trace, or turn roofline off to replay duration_micros");
    if (!(sys.peakPerfTFlops > 0) || !(sys.localMemBandwidthGBps > 0))
        fail(node, "roofline compute needs peak-perf and local-mem-bw greater than zero");
    Roofline r;
    const double ops = static_cast<double>(node.numOps);
    const double intensity = ops / static_cast<double>(node.tensorSize);
    const double memoryRoof = sys.localMemBandwidthGBps * 1e9 * intensity;
    const double peak = sys.peakPerfTFlops * 1e12;
    const double perf = std::min(memoryRoof, peak);
    r.duration = m_ctx.timing.fromNs(ops / perf * 1e9);
    r.computeBound = !(perf < peak);
    r.computeUtilization = perf / peak;
    r.memoryUtilization = (perf / intensity) / (sys.localMemBandwidthGBps * 1e9);
    r.intensity = intensity;
    return r;
}

void NpuExecutor::issue(uint32_t index) {
    const RunNode& node = m_nodes[index];
    NodeState& st = m_state[index];
    st.issued = true;
    st.start = m_ctx.sim->now();
    if (m_memory)
        m_memory->nodeStarted(index, st.start);
    if (st.slot != Slot::None) {
        const int s = static_cast<int>(st.slot);
        m_slotBusy[s] = true;
        // Who let it start: its latest parent (set in complete()), unless it then waited for
        // its slot, in which case the node that freed the slot.
        const int32_t previous = m_lastOnSlot[s];
        const bool waitedForSlot =
            st.enabler < 0 || m_state[static_cast<size_t>(st.enabler)].end < st.start;
        if (previous >= 0 && waitedForSlot &&
            m_state[static_cast<size_t>(previous)].end == st.start)
            st.enabler = previous;
    }
    ++m_inFlight;
    const SystemConfig& sys = m_ctx.spec->system;
    Simulator& sim = *m_ctx.sim;
    auto completeAfter = [&](SimTime delay) {
        sim.scheduleIn(delay, [this, index] { complete(index); });
    };
    if (sys.replayOnly) {
        completeAfter(replayDuration(node));
        return;
    }
    switch (node.type) {
    case NodeType::Invalid:
    case NodeType::Metadata:
        complete(index);
        return;
    case NodeType::Comp:
        if (sys.rooflineEnabled && !node.isCpuOp) {
            if (node.hasTensorSize && node.tensorSize == 0) {
                complete(index);
                return;
            }
            const Roofline r = roofline(node);
            const double ns = static_cast<double>(r.duration.ps()) / 1e3;
            m_opTimeNs += ns;
            m_boundTimeNs += r.computeBound ? ns : 0;
            m_computeUtilNs += r.computeUtilization * ns;
            m_memoryUtilNs += r.memoryUtilization * ns;
            m_intensityNs += r.intensity * ns;
            completeAfter(r.duration);
        } else {
            completeAfter(replayDuration(node));
        }
        return;
    case NodeType::CommColl:
        if (node.isCpuOp)
            fail(node, "a communication node cannot be a CPU op (is_cpu_op is true)");
        startCollective(index);
        return;
    case NodeType::CommSend: {
        if (!node.hasCommDst || !node.hasCommTag || !node.hasCommSize)
            fail(node, "a send needs comm_dst, comm_tag and comm_size");
        if (node.hasCommSrc && static_cast<int>(node.commSrc) != m_npu)
            fail(node, "the send's comm_src is " + std::to_string(node.commSrc) +
                           ", but it runs on NPU " + std::to_string(m_npu));
        if (static_cast<int>(node.commDst) >= m_ctx.spec->platform.npuCount())
            fail(node, "comm_dst " + std::to_string(node.commDst) + " is not an NPU");
        m_ctx.transport->send(m_npu, static_cast<int>(node.commDst), node.commTag, node.commSize,
                              [this, index] { complete(index); });
        return;
    }
    case NodeType::CommRecv: {
        if (!node.hasCommSrc || !node.hasCommTag || !node.hasCommSize)
            fail(node, "a receive needs comm_src, comm_tag and comm_size");
        if (node.hasCommDst && static_cast<int>(node.commDst) != m_npu)
            fail(node, "the receive's comm_dst is " + std::to_string(node.commDst) +
                           ", but it runs on NPU " + std::to_string(m_npu));
        if (static_cast<int>(node.commSrc) >= m_ctx.spec->platform.npuCount())
            fail(node, "comm_src " + std::to_string(node.commSrc) + " is not an NPU");
        m_ctx.transport->receive(m_npu, static_cast<int>(node.commSrc), node.commTag, node.commSize,
                                 [this, index] { complete(index); });
        return;
    }
    case NodeType::MemLoad:
    case NodeType::MemStore:
        if (!node.hasTensorSize)
            fail(node, "a remote memory access needs tensor_size");
        m_ctx.memory->access(m_npu, node.id, node.tensorSize, node.type == NodeType::MemStore,
                             [this, index] { complete(index); });
        return;
    }
    fail(node, "unknown node type " + std::to_string(static_cast<int>(node.type)));
}

void NpuExecutor::startCollective(uint32_t index) {
    const RunNode& node = m_nodes[index];
    if (!node.hasCommType || !node.hasCommSize)
        fail(node, "a collective needs comm_type and comm_size");
    if (node.commType == CollectiveType::Broadcast || m_ctx.spec->platform.npuCount() == 1) {
        // ASTRA-sim replays broadcasts from duration_micros. A collective on one NPU moves
        // nothing; it is only let through by a lenient load, which replays what was measured.
        m_ctx.sim->scheduleIn(replayDuration(node), [this, index] { complete(index); });
        return;
    }
    CollectiveRequest request;
    const std::optional<CollectiveKind> kind = collectiveKindOf(node.commType);
    if (!kind)
        fail(node, std::string("unsupported collective type ") + collectiveTypeName(node.commType),
             "ASTRA-sim runs " + runCollectiveTypeNames() + " (and replays " +
                 collectiveTypeName(CollectiveType::Broadcast) + ")");
    request.kind = *kind;
    request.npu = m_npu;
    request.nodeId = node.id;
    request.chakraType = node.commType;
    request.bytes = node.commSize;
    request.group = node.group;
    if (request.group < 0)
        fail(node, "pg_name \"" + m_badGroupNames.at(index) + "\" is not a communicator group id");
    if (const auto dims = m_involvedDims.find(index); dims != m_involvedDims.end())
        request.involvedDims = dims->second;
    if (const auto priority = m_priorities.find(index); priority != m_priorities.end())
        request.priority = priority->second;
    m_ctx.collectives->start(request, [this, index] { complete(index); });
}

void NpuExecutor::complete(uint32_t index) {
    NodeState& st = m_state[index];
    st.done = true;
    st.end = m_ctx.sim->now();
    if (m_memory)
        m_memory->nodeFinished(index, st.end);
    --m_inFlight;
    ++m_completed;
    const SimTime duration = st.end - st.start;
    if (st.cls == Class::Gpu || (m_ctx.spec->system.replayOnly && st.slot == Slot::Compute))
        m_gpuTime += duration;
    if (st.cls == Class::Cpu)
        m_cpuTime += duration;
    if (st.slot != Slot::None) {
        m_slotBusy[static_cast<int>(st.slot)] = false;
        m_lastOnSlot[static_cast<int>(st.slot)] = static_cast<int32_t>(index);
    }
    for (uint32_t c = m_childOffsets[index]; c < m_childOffsets[index + 1]; ++c) {
        const uint32_t child = m_children[c];
        NodeState& cs = m_state[child];
        if (cs.enabler < 0 || m_state[static_cast<size_t>(cs.enabler)].end <= st.end)
            cs.enabler = static_cast<int32_t>(index);
        if (--cs.pendingParents == 0)
            markReady(child);
    }
    react();
}

} // namespace astrolabe
