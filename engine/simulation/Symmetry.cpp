#include "simulation/Symmetry.h"

#include "trace/NodeIdentity.h"

#include <algorithm>
#include <unordered_map>

namespace astrolabe {

namespace {

std::vector<uint32_t> depPositions(const DependencyList& deps,
                                   const std::unordered_map<uint64_t, uint32_t>& position) {
    std::vector<uint32_t> out;
    out.reserve(deps.size());
    for (uint64_t d : deps) {
        const auto it = position.find(d);
        out.push_back(it == position.end() ? UINT32_MAX : it->second);
    }
    return out;
}

std::unordered_map<uint64_t, uint32_t> positions(const WorkloadTrace& t) {
    std::unordered_map<uint64_t, uint32_t> map;
    map.reserve(t.nodes.size() * 2);
    for (size_t i = 0; i < t.nodes.size(); ++i)
        map.emplace(t.nodes[i].id, static_cast<uint32_t>(i));
    return map;
}

} // namespace

bool usesAlgorithm(const SystemConfig& system, std::initializer_list<AlgorithmKind> kinds) {
    for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                CollectiveKind::AllGather, CollectiveKind::AllToAll})
        for (const AlgorithmSpec& a : system.algorithms(kind))
            if (std::find(kinds.begin(), kinds.end(), a.kind) != kinds.end())
                return true;
    return false;
}

std::string runSymmetryObstacle(const SimulationSpec& spec) {
    if (!spec.options.exploitSymmetry)
        return "symmetry is switched off";
    if (spec.options.recordTransfers)
        return "every NPU's messages are recorded";
    if (spec.options.backend == NetworkBackend::Packet)
        return "the packet tier simulates every NPU's flows";
    if (spec.options.rendezvousProtocol)
        return "the rendezvous protocol is on";
    const SystemConfig& sys = spec.system;
    if (!sys.customAllReduce.empty() || !sys.customReduceScatter.empty() ||
        !sys.customAllGather.empty() || !sys.customAllToAll.empty() || !sys.perNodeCustom.empty())
        return "custom collectives name their peers";
    return {};
}

std::string symmetryObstacle(const SimulationSpec& spec, const std::vector<WorkloadTrace>& traces) {
    if (std::string why = runSymmetryObstacle(spec); !why.empty())
        return why;
    const SystemConfig& sys = spec.system;
    if (spec.platform.graph)
        return "a graph platform has no translation symmetry";
    if (usesAlgorithm(spec.system, {AlgorithmKind::DoubleBinaryTree}))
        return "doubleBinaryTree gives ranks different roles";
    // Halving-doubling pairs ranks by XOR and "one*" rings shift ids cyclically, not by
    // coordinate translation: timing would still match without contention, but the per-link
    // and NPU-to-NPU traffic could not be spread correctly. Simulate them in full.
    if (usesAlgorithm(spec.system,
                      {AlgorithmKind::HalvingDoubling, AlgorithmKind::OneHalvingDoubling,
                       AlgorithmKind::OneRing, AlgorithmKind::OneDirect}))
        return "halving-doubling and whole-machine rings are not translation-symmetric";
    if (traces.size() < 2)
        return "a single NPU";
    const WorkloadTrace& first = traces.front();
    for (const WorkloadNode& n : first.nodes) {
        if (n.type == NodeType::CommSend || n.type == NodeType::CommRecv)
            return "point-to-point sends and receives name their peers";
        if ((n.type == NodeType::MemLoad || n.type == NodeType::MemStore) &&
            spec.memory.type != RemoteMemoryType::PerNpuMemoryExpansion)
            return "remote memory is shared between NPUs";
        if (n.type == NodeType::CommColl && !n.pgName.empty() && n.pgName != "0") {
            const int group = communicatorGroupId(n.pgName);
            if (group < 0) // not a group id: the full run reports it on the node
                return "a collective names communicator group \"" + n.pgName + "\"";
            const auto it = spec.commGroups.find(group);
            if (it == spec.commGroups.end() ||
                it->second.size() != static_cast<size_t>(spec.platform.npuCount()))
                return "collectives over communicator sub-groups";
        }
    }
    const auto firstPositions = positions(first);
    for (size_t r = 1; r < traces.size(); ++r) {
        const WorkloadTrace& t = traces[r];
        if (t.nodes.size() != first.nodes.size())
            return "NPU " + std::to_string(r) + " runs a different trace";
        const auto tPositions = positions(t);
        for (size_t i = 0; i < t.nodes.size(); ++i) {
            const WorkloadNode& a = first.nodes[i];
            const WorkloadNode& b = t.nodes[i];
            // Ids and dependencies are compared by position; the group must be the same one.
            if (!sameWork(a, b, false) || a.pgName != b.pgName ||
                depPositions(a.dataDeps, firstPositions) != depPositions(b.dataDeps, tPositions) ||
                depPositions(a.ctrlDeps, firstPositions) != depPositions(b.ctrlDeps, tPositions))
                return "NPU " + std::to_string(r) + " runs a different trace";
            if (sys.trackLocalMemory && !sameWork(a, b, true)) {
                std::string why = "NPU ";
                why += std::to_string(r);
                why += " reads or writes different tensors";
                return why;
            }
            // Ids order ready nodes: the relative order must be the same everywhere.
            if (i > 0 && (a.id < first.nodes[i - 1].id) != (b.id < t.nodes[i - 1].id))
                return "NPU " + std::to_string(r) + " orders its nodes differently";
        }
    }
    return {};
}

void replicateRecords(RunResult& result, int copies, const std::function<int(int, int)>& npuOf) {
    auto replicate = [&](auto& items) {
        const size_t count = items.size();
        items.reserve(count * static_cast<size_t>(copies));
        for (int k = 1; k < copies; ++k)
            for (size_t i = 0; i < count; ++i) {
                items.push_back(items[i]);
                items.back().npu = npuOf(k, items[i].npu);
            }
    };
    replicate(result.activities);
    replicate(result.phases);
    replicate(result.collectives);
    replicate(result.tensorLifetimes);
}

std::string renameNpuTag(std::string line, int from, int to) {
    const std::string a = "sys[" + std::to_string(from) + "]";
    const std::string b = "sys[" + std::to_string(to) + "]";
    for (size_t at = line.find(a); at != std::string::npos; at = line.find(a, at))
        line.replace(at, a.size(), b), at += b.size();
    return line;
}

void replicateRepresentative(RunResult& result, const std::vector<std::string>& npu0Lines) {
    const int n = result.npuCount;
    const NpuSummary first = result.npus.at(0);
    result.npus.resize(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
        result.npus[static_cast<size_t>(r)] = first;
        result.npus[static_cast<size_t>(r)].npu = r;
    }
    replicateRecords(result, n, [](int k, int) { return k; });
    if (!result.memoryUsage.empty()) {
        result.memoryUsage.resize(static_cast<size_t>(n));
        for (int r = 1; r < n; ++r)
            result.memoryUsage[static_cast<size_t>(r)] = result.memoryUsage[0];
    }
    for (int r = 0; r < n; ++r)
        for (const std::string& line : npu0Lines)
            result.reportLines.push_back(renameNpuTag(line, 0, r));
}

} // namespace astrolabe
