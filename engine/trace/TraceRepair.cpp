#include "trace/TraceRepair.h"

#include "trace/NodeIndex.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace astrolabe {
namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Drops dependencies on absent nodes and on the node itself; returns the id -> index map.
NodeIndex dropUnmeetable(WorkloadTrace& trace) {
    NodeIndex index(trace.nodes); // a duplicate keeps its first; the validator says so
    std::unordered_set<uint64_t> absent;
    for (WorkloadNode& node : trace.nodes)
        for (auto* deps : {&node.dataDeps, &node.ctrlDeps})
            erase_if(*deps, [&](uint64_t parent) {
                if (parent == node.id) {
                    trace.assumptions.add(Assumption::SelfDependency, node.id);
                    return true;
                }
                if (index.contains(parent))
                    return false;
                trace.assumptions.add(Assumption::AbsentParent, node.id);
                absent.insert(parent);
                return true;
            });
    trace.assumptions.absentNodes += absent.size();
    return index;
}

// Strongly connected components over parent links (Tarjan's algorithm, iterative so that a
// chain of a million nodes does not exhaust the stack). component[i] numbers i's component.
std::vector<uint32_t> components(const WorkloadTrace& trace, const NodeIndex& index) {
    const auto n = static_cast<uint32_t>(trace.nodes.size());
    std::vector<std::vector<uint32_t>> parents(n);
    for (uint32_t i = 0; i < n; ++i)
        for (const auto* deps : {&trace.nodes[i].dataDeps, &trace.nodes[i].ctrlDeps})
            for (uint64_t parent : *deps)
                parents[i].push_back(index.at(parent));
    std::vector<uint32_t> order(n, kNone), low(n, 0), component(n, kNone), stack;
    uint32_t counter = 0, found = 0;
    struct Frame {
        uint32_t node;
        size_t next;
    };
    std::vector<Frame> frames;
    for (uint32_t root = 0; root < n; ++root) {
        if (order[root] != kNone)
            continue;
        frames.push_back({root, 0});
        order[root] = low[root] = counter++;
        stack.push_back(root);
        while (!frames.empty()) {
            Frame& f = frames.back();
            if (f.next < parents[f.node].size()) {
                const uint32_t p = parents[f.node][f.next++];
                if (order[p] == kNone) {
                    order[p] = low[p] = counter++;
                    stack.push_back(p);
                    frames.push_back({p, 0});
                } else if (component[p] == kNone) {
                    low[f.node] = std::min(low[f.node], order[p]);
                }
                continue;
            }
            const uint32_t v = f.node;
            frames.pop_back();
            if (!frames.empty())
                low[frames.back().node] = std::min(low[frames.back().node], low[v]);
            if (low[v] == order[v]) {
                uint32_t w = kNone;
                do {
                    w = stack.back();
                    stack.pop_back();
                    component[w] = found;
                } while (w != v);
                ++found;
            }
        }
    }
    return component;
}

// Within a cycle, the dependencies on a node with a larger id are dropped: what is left of the
// component only points from smaller to larger ids, so it has no cycle, and every cycle loses at
// least one edge (ids cannot fall all the way round a loop).
void breakCycles(WorkloadTrace& trace, const NodeIndex& index) {
    const std::vector<uint32_t> component = components(trace, index);
    for (uint32_t i = 0; i < trace.nodes.size(); ++i) {
        WorkloadNode& node = trace.nodes[i];
        for (auto* deps : {&node.dataDeps, &node.ctrlDeps})
            erase_if(*deps, [&](uint64_t parent) {
                const uint32_t p = index.at(parent);
                if (component[p] != component[i] || parent <= node.id)
                    return false;
                trace.assumptions.add(Assumption::CycleBroken, node.id);
                return true;
            });
    }
}

void repairNode(WorkloadNode& node, TraceAssumptions& assumed) {
    const bool comm = node.type == NodeType::CommColl || node.type == NodeType::CommSend ||
                      node.type == NodeType::CommRecv;
    if (comm && node.isCpuOp) {
        // The host side of a collective (c10d::allreduce_ and its launch): its time is host
        // time; the kernel that moves the data is a separate GPU node.
        node.type = NodeType::Comp;
        node.hasCommType = node.hasCommSize = node.hasCommSrc = node.hasCommDst = node.hasCommTag =
            false;
        node.pgName.clear();
        if (!node.detail->involvedDim.empty())
            node.detail.edit().involvedDim.clear();
        assumed.add(Assumption::HostCollective, node.id);
        return;
    }
    if (node.type != NodeType::CommColl)
        return;
    if (!node.hasCommType)
        if (const auto type = collectiveTypeFromName(node.name)) {
            node.commType = *type;
            node.hasCommType = true;
            assumed.add(Assumption::CollectiveFromName, node.id);
        }
    if (node.hasCommType && node.commType == CollectiveType::Barrier) {
        node.commType = CollectiveType::AllReduce;
        if (!node.hasCommSize) {
            node.commSize = 1;
            node.hasCommSize = true;
        }
        assumed.add(Assumption::BarrierAsAllReduce, node.id);
    }
    if (node.hasCommType && node.commType == CollectiveType::Broadcast && !node.hasCommSize) {
        node.hasCommSize = true; // commSize stays 0: a broadcast replays duration_micros
        assumed.add(Assumption::BroadcastSizeless, node.id);
    }
}

} // namespace

void repairTrace(WorkloadTrace& trace) {
    const auto index = dropUnmeetable(trace);
    breakCycles(trace, index);
    for (WorkloadNode& node : trace.nodes)
        repairNode(node, trace.assumptions);
}

std::vector<std::string> assumptionLines(const std::vector<WorkloadTrace>& traces) {
    std::vector<std::string> lines;
    for (size_t k = 0; k < kAssumptionKinds; ++k) {
        const auto kind = static_cast<Assumption>(k);
        uint64_t total = 0, absent = 0, inTraces = 0;
        const WorkloadTrace* first = nullptr;
        for (const WorkloadTrace& trace : traces) {
            const uint64_t count = trace.assumptions.count(kind);
            if (count == 0)
                continue;
            total += count;
            absent += trace.assumptions.absentNodes;
            ++inTraces;
            if (!first)
                first = &trace;
        }
        if (total == 0)
            continue;
        std::string line = std::string(assumptionName(kind)) + ": " + std::to_string(total) + " " +
                           assumptionText(kind) + " (";
        if (kind == Assumption::AbsentParent)
            line += std::to_string(absent) + " absent ids, counted per trace; ";
        line += "first at node " + std::to_string(first->assumptions.firstNode[k]) + " of " +
                first->file + "; in " + std::to_string(inTraces) +
                (inTraces == 1 ? " trace)" : " traces)");
        lines.push_back(std::move(line));
    }
    return lines;
}

} // namespace astrolabe
