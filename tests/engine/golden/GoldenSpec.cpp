#include "engine/golden/GoldenSpec.h"

#include "simulation/Simulation.h"

#include <algorithm>

namespace golden {

DimensionSpec dim(BlockKind kind, int size, double gbps, double latencyNs) {
    return DimensionSpec{kind, size, gbps * 1073741824.0, latencyNs};
}

void setAlgorithms(SimulationSpec& s, std::vector<std::string> names) {
    std::vector<AlgorithmSpec> list;
    for (const std::string& n : names)
        list.push_back(parseAlgorithm(n));
    s.system.allReduce = s.system.reduceScatter = s.system.allGather = s.system.allToAll = list;
}

SimulationSpec spec(std::vector<DimensionSpec> dims, const char* algorithm,
                    NetworkBackend backend) {
    SimulationSpec s;
    s.name = "golden";
    s.platform.dimensions = std::move(dims);
    s.system.endpointDelayNs = 10;
    s.system.localMemBandwidthGBps = 50;
    s.system.preferredDatasetSplits = 1;
    s.system.activeChunksPerDimension = 1;
    s.system.collectiveOptimization = CollectiveOptimization::LocalBWAware;
    s.system.schedulingPolicy = SchedulingPolicy::LIFO;
    setAlgorithms(s, std::vector<std::string>(s.platform.dimensions.size(), algorithm));
    s.options.backend = backend;
    return s;
}

std::vector<PaperPlatform> themisPaperPlatforms() {
    using BK = BlockKind;
    return {{"W-1D", {dim(BK::Switch, 512, 500)}, {"ring"}},
            {"W-2D", {dim(BK::Switch, 32, 250), dim(BK::Switch, 16, 250)}, {"ring", "ring"}},
            {"Conv-3D",
             {dim(BK::Ring, 16, 200), dim(BK::FullyConnected, 8, 100), dim(BK::Switch, 4, 50)},
             {"ring", "direct", "ring"}},
            {"Conv-4D",
             {dim(BK::Ring, 2, 250), dim(BK::FullyConnected, 8, 200), dim(BK::Ring, 8, 100),
              dim(BK::Switch, 4, 50)},
             {"ring", "direct", "ring", "ring"}}};
}

std::shared_ptr<const RunResult> runCollective(const SimulationSpec& s, CollectiveType type,
                                               uint64_t bytes) {
    SimulationSpec copy = s;
    copy.workload.kind = WorkloadSource::Kind::Microbenchmark;
    copy.workload.microbenchmark.collective = static_cast<int>(type);
    copy.workload.microbenchmark.sizeBytes = bytes;
    return runSimulation(copy);
}

std::shared_ptr<const RunResult> runTraces(const SimulationSpec& s,
                                           std::vector<WorkloadTrace> traces) {
    return runSimulation(s, std::move(traces));
}

int64_t maxCycles(const RunResult& r) {
    int64_t m = 0;
    for (const NpuSummary& n : r.npus)
        m = std::max(m, n.finish.nsFloor());
    return m;
}

int64_t minCycles(const RunResult& r) {
    int64_t m = INT64_MAX;
    for (const NpuSummary& n : r.npus)
        m = std::min(m, n.finish.nsFloor());
    return m;
}

int64_t cycles(const RunResult& r, int npu) {
    return r.npus.at(static_cast<size_t>(npu)).finish.nsFloor();
}

WorkloadNode comp(uint64_t id, uint64_t micros, std::vector<uint64_t> deps) {
    WorkloadNode n;
    n.id = id;
    n.name = "comp" + std::to_string(id);
    n.type = NodeType::Comp;
    n.durationMicros = micros;
    n.dataDeps = std::move(deps);
    return n;
}

std::pair<WorkloadNode, WorkloadNode> sendRecv(uint64_t id, int src, int dst, uint32_t tag,
                                               uint64_t bytes) {
    WorkloadNode send;
    send.id = id;
    send.type = NodeType::CommSend;
    send.hasCommDst = send.hasCommTag = send.hasCommSize = true;
    send.commDst = static_cast<uint32_t>(dst);
    send.commTag = tag;
    send.commSize = bytes;
    WorkloadNode recv = send;
    recv.type = NodeType::CommRecv;
    recv.hasCommDst = false;
    recv.hasCommSrc = true;
    recv.commSrc = static_cast<uint32_t>(src);
    return {send, recv};
}

WorkloadNode coll(uint64_t id, CollectiveType type, uint64_t bytes, std::vector<uint64_t> deps) {
    WorkloadNode n;
    n.id = id;
    n.name = "coll" + std::to_string(id);
    n.type = NodeType::CommColl;
    n.hasCommType = n.hasCommSize = true;
    n.commType = type;
    n.commSize = bytes;
    n.dataDeps = std::move(deps);
    return n;
}

} // namespace golden
