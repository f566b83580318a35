#include "export/SpecJson.h"

#include "config/AstraMemoryConfig.h"
#include "config/AstraSystemConfig.h"

#include <nlohmann/json.hpp>

namespace astrolabe {
namespace {

using nlohmann::json;

json algorithms(const std::vector<AlgorithmSpec>& list) {
    json a = json::array();
    for (const AlgorithmSpec& s : list)
        a.push_back(algorithmName(s));
    return a;
}

} // namespace

json toJson(const SimulationSpec& spec) {
    json dims = json::array();
    for (const DimensionSpec& d : spec.platform.dimensions)
        dims.push_back({{"kind", blockKindName(d.kind)},
                        {"size", d.size},
                        {"bandwidthBytesPerSecond", d.bandwidthBytesPerSecond},
                        {"latencyNs", d.latencyNs}});
    const SystemConfig& sys = spec.system;
    json perNode = json::array();
    for (const auto& [node, prefix] : sys.perNodeCustom)
        perNode.push_back({{"node", node}, {"prefix", prefix}});
    json groups = json::object();
    for (const auto& [id, ranks] : spec.commGroups)
        groups[std::to_string(id)] = ranks;
    const WorkloadSource& w = spec.workload;
    const RunOptions& o = spec.options;
    return {
        {"name", spec.name},
        {"sourceFile", spec.sourceFile},
        {"platform",
         {{"dimensions", dims},
          {"npuCount", spec.platform.npuCount()},
          {"sourceFile", spec.platform.sourceFile}}},
        {"system",
         {{"schedulingPolicy", schedulingPolicyName(sys.schedulingPolicy)},
          {"collectiveOptimization", sys.collectiveOptimization == CollectiveOptimization::Baseline
                                         ? "baseline"
                                         : "localBWAware"},
          {"intraDimensionScheduling", intraDimensionSchedulingName(sys.intraDimensionScheduling)},
          {"interDimensionScheduling", interDimensionSchedulingName(sys.interDimensionScheduling)},
          {"endpointDelayNs", sys.endpointDelayNs},
          {"endpointDelayFromFile", sys.endpointDelayFromFile},
          {"activeChunksPerDimension", sys.activeChunksPerDimension},
          {"preferredDatasetSplits", sys.preferredDatasetSplits},
          {"allReduce", algorithms(sys.allReduce)},
          {"reduceScatter", algorithms(sys.reduceScatter)},
          {"allGather", algorithms(sys.allGather)},
          {"allToAll", algorithms(sys.allToAll)},
          {"customAllReduce", sys.customAllReduce},
          {"customReduceScatter", sys.customReduceScatter},
          {"customAllGather", sys.customAllGather},
          {"customAllToAll", sys.customAllToAll},
          {"perNodeCustom", perNode},
          {"localMemBandwidthGBps", sys.localMemBandwidthGBps},
          {"peakPerfTFlops", sys.peakPerfTFlops},
          {"rooflineEnabled", sys.rooflineEnabled},
          {"traceEnabled", sys.traceEnabled},
          {"replayOnly", sys.replayOnly},
          {"trackLocalMemory", sys.trackLocalMemory},
          {"localMemTraceFilename", sys.localMemTraceFilename},
          {"sourceFile", sys.sourceFile}}},
        {"memory",
         {{"type", remoteMemoryTypeName(spec.memory.type)},
          {"latencyNs", spec.memory.latencyNs},
          {"bandwidthBytesPerNs", spec.memory.bandwidthBytesPerNs},
          {"numNodes", spec.memory.numNodes},
          {"numNpusPerNode", spec.memory.numNpusPerNode},
          {"sourceFile", spec.memory.sourceFile}}},
        {"commGroups", groups},
        {"workload",
         {{"kind", w.kind == WorkloadSource::Kind::ChakraTrace ? "chakra" : "microbenchmark"},
          {"tracePrefix", w.tracePrefix},
          {"microbenchmark",
           {{"collective", w.microbenchmark.collective},
            {"sizeBytes", w.microbenchmark.sizeBytes},
            {"commGroup", w.microbenchmark.commGroup}}}}},
        {"options",
         {{"backend", networkBackendName(o.backend)},
          {"timing", o.timing == TimingMode::AstraCompatible ? "astra-compatible" : "precise"},
          {"numQueuesPerDim", o.numQueuesPerDim},
          {"injectionScale", o.injectionScale},
          {"rendezvousProtocol", o.rendezvousProtocol},
          {"dataDepsOnly", o.dataDepsOnly},
          {"recordTimeline", o.recordTimeline},
          {"recordLinkIntervals", o.recordLinkIntervals}}},
    };
}

std::string specToJsonText(const SimulationSpec& spec) {
    // nlohmann::json objects are std::map-backed: keys come out sorted, so the text is stable.
    return toJson(spec).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace astrolabe
