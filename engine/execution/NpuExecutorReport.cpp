// What an NpuExecutor tells after (or instead of) finishing: its summary and activities, the
// ASTRA-sim report lines, the deadlock description and its critical chain.
#include "core/Units.h"
#include "execution/NpuExecutor.h"

#include <algorithm>
#include <cstdio>

namespace astrolabe {

namespace {

SimTime unionLength(std::vector<std::pair<SimTime, SimTime>>& intervals) {
    std::sort(intervals.begin(), intervals.end());
    SimTime total, runStart, runEnd;
    bool open = false;
    for (const auto& [s, e] : intervals) {
        if (!open || s > runEnd) {
            if (open)
                total += runEnd - runStart;
            runStart = s;
            runEnd = e;
            open = true;
        } else if (e > runEnd) {
            runEnd = e;
        }
    }
    if (open)
        total += runEnd - runStart;
    return total;
}

ActivityKind activityKindOf(NodeType type, bool cpu) {
    if (cpu)
        return ActivityKind::Cpu;
    switch (type) {
    case NodeType::Comp:
        return ActivityKind::Compute;
    case NodeType::CommColl:
    case NodeType::CommSend:
    case NodeType::CommRecv:
        return ActivityKind::Communication;
    case NodeType::MemLoad:
    case NodeType::MemStore:
        return ActivityKind::Memory;
    default:
        return ActivityKind::Other;
    }
}

std::string percent(double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", value);
    return buf;
}

} // namespace

size_t NpuExecutor::activityCount() const {
    return static_cast<size_t>(
        std::count_if(m_state.begin(), m_state.end(),
                      [](const NodeState& st) { return st.done && st.end > st.start; }));
}

size_t NpuExecutor::collectiveCount() const {
    return static_cast<size_t>(std::count_if(m_nodes.begin(), m_nodes.end(), [](const RunNode& n) {
        return n.type == NodeType::CommColl;
    }));
}

size_t NpuExecutor::memoryBytes() const {
    return m_nodes.capacity() * sizeof(RunNode) + m_state.capacity() * sizeof(NodeState) +
           (m_childOffsets.capacity() + m_children.capacity()) * sizeof(uint32_t);
}

NpuSummary NpuExecutor::summarize(RunResult* record, NameIndex* names) const {
    NpuSummary s;
    s.npu = m_npu;
    s.finished = m_finished;
    s.finish = finishTime();
    s.gpuTime = m_gpuTime;
    s.cpuTime = m_cpuTime;
    s.exposedComm = s.finish - m_gpuTime;
    std::vector<std::pair<SimTime, SimTime>> perClass[5], all;
    NameIndex ownNames; // without a shared index, names are shared within this NPU only
    NameIndex& index = names ? *names : ownNames;
    for (size_t i = 0; i < m_state.size(); ++i) {
        const NodeState& st = m_state[i];
        if (!st.done)
            continue;
        s.wall = std::max(s.wall, st.end);
        perClass[static_cast<int>(st.cls)].push_back({st.start, st.end});
        all.push_back({st.start, st.end});
        if (record && m_ctx.spec->options.recordTimeline && st.end > st.start) {
            const RunNode& node = m_nodes[i];
            const std::string& name = m_ctx.names->at(node.name);
            ActivityInterval a;
            a.start = st.start;
            a.end = st.end;
            a.npu = m_npu;
            a.kind = activityKindOf(node.type, node.isCpuOp);
            a.nodeType = node.type;
            a.nodeId = node.id;
            const auto [it, added] =
                index.try_emplace(name, static_cast<uint32_t>(record->names.size()));
            if (added)
                record->names.push_back(name);
            a.nameIndex = it->second;
            a.bytes = node.hasCommSize ? node.commSize : node.tensorSize;
            record->activities.push_back(a);
        }
    }
    s.cpuUnion = unionLength(perClass[static_cast<int>(Class::Cpu)]);
    s.computeUnion = unionLength(perClass[static_cast<int>(Class::Gpu)]);
    s.commUnion = unionLength(perClass[static_cast<int>(Class::Comm)]);
    s.remoteMemUnion = unionLength(perClass[static_cast<int>(Class::RemoteMem)]);
    s.invalidUnion = unionLength(perClass[static_cast<int>(Class::Invalid)]);
    // ASTRA-sim's exposed communication (finish less the sum of compute) assumes one compute
    // lane; on stream lanes kernels overlap each other, so the time compute covers is counted.
    if (m_streamLanes)
        s.exposedComm = s.finish - s.computeUnion;
    const SimTime overlap = s.computeUnion + s.commUnion - s.wall;
    s.overlap = overlap > SimTime::zero() ? overlap : SimTime::zero();
    s.idle = s.finish - unionLength(all);
    if (m_memory) {
        s.peakMemoryBytes = m_memory->peakBytes();
        if (record) {
            const size_t npus = static_cast<size_t>(m_ctx.spec->platform.npuCount());
            if (record->memoryUsage.size() < npus)
                record->memoryUsage.resize(npus);
            record->memoryUsage.at(static_cast<size_t>(m_npu)) = m_memory->usage();
            for (TensorLifetime& life : m_memory->lifetimes(s.finish))
                record->tensorLifetimes.push_back(std::move(life));
        }
    }
    const double denominator = 1.0 + m_opTimeNs;
    if (m_ctx.spec->system.rooflineEnabled) {
        s.computeBoundPercent = 100.0 * m_boundTimeNs / denominator;
        s.avgComputeUtilization = 100.0 * m_computeUtilNs / denominator;
        s.avgMemoryUtilization = 100.0 * m_memoryUtilNs / denominator;
        s.avgOperationIntensity = m_intensityNs / denominator;
    }
    return s;
}

std::vector<std::string> NpuExecutor::reportLines() const {
    const NpuSummary s = summarize(nullptr);
    const std::string sys = "sys[" + std::to_string(m_npu) + "]";
    auto cycles = [](SimTime t) { return std::to_string(t.nsFloor()); };
    std::vector<std::string> lines{
        "[workload] " + sys + " finished, " + cycles(s.finish) + " cycles, exposed communication " +
            cycles(s.exposedComm) + " cycles.",
        "[statistics] " + sys + ". Post statistics processing start.",
        "[statistics] " + sys + ". Post statistics processing end.",
        "[statistics] " + sys + ", Wall time: " + cycles(s.wall),
    };
    bool present[5] = {false, false, false, false, false};
    for (const NodeState& st : m_state)
        if (st.done)
            present[static_cast<int>(st.cls)] = true;
    if (present[static_cast<int>(Class::Comm)])
        lines.push_back("[statistics] " + sys + ", Comm time: " + cycles(s.commUnion));
    if (present[static_cast<int>(Class::Gpu)])
        lines.push_back("[statistics] " + sys + ", GPU time: " + cycles(s.computeUnion));
    if (present[static_cast<int>(Class::Cpu)])
        lines.push_back("[statistics] " + sys + ", CPU time: " + cycles(s.cpuUnion));
    if (present[static_cast<int>(Class::RemoteMem)])
        lines.push_back("[statistics] " + sys + ", Remote mem time: " + cycles(s.remoteMemUnion));
    if (present[static_cast<int>(Class::Invalid)])
        lines.push_back("[statistics] " + sys + ", Invalid time: " + cycles(s.invalidUnion));
    if (s.overlap > SimTime::zero())
        lines.push_back("[statistics] " + sys +
                        ", Total compute-communication overlap: " + cycles(s.overlap));
    if (m_ctx.spec->system.rooflineEnabled) {
        lines.push_back("[statistics] " + sys +
                        ", Compute bound percentage: " + percent(s.computeBoundPercent) + "%");
        lines.push_back("[statistics] " + sys +
                        ", Average compute utilization: " + percent(s.avgComputeUtilization) + "%");
        lines.push_back("[statistics] " + sys +
                        ", Average memory utilization: " + percent(s.avgMemoryUtilization) + "%");
        lines.push_back("[statistics] " + sys +
                        ", Average operation intensity: " + percent(s.avgOperationIntensity));
    }
    if (m_memory) {
        std::string line = "[workload] ";
        line += sys;
        line += " peak memory usage: ";
        line += formatMemorySize(s.peakMemoryBytes);
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<std::string> NpuExecutor::describeWaiting() const {
    std::vector<std::string> out;
    if (m_finished)
        return out;
    size_t blocked = 0;
    for (size_t i = 0; i < m_state.size(); ++i) {
        const NodeState& st = m_state[i];
        const RunNode& node = m_nodes[i];
        if (st.issued && !st.done) {
            std::string what = std::string(nodeTypeName(node.type)) + " " + std::to_string(node.id);
            if (const std::string& name = m_ctx.names->at(node.name); !name.empty())
                what += " (\"" + name + "\")";
            if (node.type == NodeType::CommRecv)
                what += " waits for a message from NPU " + std::to_string(node.commSrc) +
                        " with tag " + std::to_string(node.commTag) + " and " +
                        std::to_string(node.commSize) + " bytes";
            else if (node.type == NodeType::CommSend)
                what += " waits for its message to NPU " + std::to_string(node.commDst) +
                        " to be delivered";
            else if (node.type == NodeType::CommColl)
                what += " waits for its collective to complete";
            else
                what += " is in flight";
            out.push_back(what);
        } else if (!st.issued && st.pendingParents > 0) {
            ++blocked;
        }
    }
    if (blocked > 0)
        out.push_back(std::to_string(blocked) +
                      " more nodes wait for parents that never finished (a dependency cycle, or "
                      "parents stuck above)");
    return out;
}

std::vector<std::string> NpuExecutor::describeInFlight() const {
    std::vector<std::string> out;
    for (size_t i = 0; i < m_state.size(); ++i) {
        if (!m_state[i].issued || m_state[i].done)
            continue;
        const RunNode& node = m_nodes[i];
        std::string what = nodeTypeName(node.type);
        what.append(" ").append(std::to_string(node.id));
        if (const std::string& name = m_ctx.names->at(node.name); !name.empty())
            what.append(" (\"").append(name).append("\")");
        if (node.type == NodeType::CommColl)
            what.append(" ").append(collectiveTypeName(node.commType));
        if (node.hasCommSize)
            what.append(" of ").append(units::formatSize(node.commSize));
        else if (node.durationMicros > 0)
            what.append(" of ").append(std::to_string(node.durationMicros)).append(" us");
        out.push_back(std::move(what));
    }
    return out;
}

std::vector<uint64_t> NpuExecutor::criticalChain() const {
    int32_t last = -1;
    for (size_t i = 0; i < m_state.size(); ++i)
        if (m_state[i].done &&
            (last < 0 || m_state[i].end >= m_state[static_cast<size_t>(last)].end))
            last = static_cast<int32_t>(i);
    std::vector<uint64_t> chain;
    for (int32_t at = last; at >= 0 && chain.size() < m_state.size();
         at = m_state[static_cast<size_t>(at)].enabler)
        chain.push_back(m_nodes[static_cast<size_t>(at)].id);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

} // namespace astrolabe
