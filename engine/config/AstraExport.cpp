#include "config/AstraExport.h"

#include "config/AstraMemoryConfig.h"
#include "config/AstraSystemConfig.h"

#include <nlohmann/json.hpp>

namespace astrolabe {
namespace {

using nlohmann::ordered_json;

ordered_json algorithmList(const std::vector<AlgorithmSpec>& list) {
    ordered_json names = ordered_json::array();
    for (const AlgorithmSpec& a : list)
        names.push_back(algorithmName(a));
    return names;
}

// Integral values as JSON integers, so ASTRA-sim's integer reads see what they expect.
ordered_json number(double value) {
    if (value == static_cast<double>(static_cast<int64_t>(value)))
        return static_cast<int64_t>(value);
    return value;
}

} // namespace

std::string writeAstraSystemJson(const SystemConfig& s, const std::string& perNodeCustomFile) {
    ordered_json j;
    j["scheduling-policy"] = schedulingPolicyName(s.schedulingPolicy);
    j["collective-optimization"] = collectiveOptimizationName(s.collectiveOptimization);
    if (s.endpointDelayFromFile)
        j["endpoint-delay"] = number(s.endpointDelayConfiguredNs);
    j["active-chunks-per-dimension"] = s.activeChunksPerDimension;
    j["preferred-dataset-splits"] = s.preferredDatasetSplits;
    for (CollectiveKind kind : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter,
                                CollectiveKind::AllGather, CollectiveKind::AllToAll})
        if (!s.algorithms(kind).empty())
            j[std::string(collectiveKindName(kind)) + "-implementation"] =
                algorithmList(s.algorithms(kind));
    const std::pair<const char*, const std::string*> customs[] = {
        {"all-reduce", &s.customAllReduce},
        {"reduce-scatter", &s.customReduceScatter},
        {"all-gather", &s.customAllGather},
        {"all-to-all", &s.customAllToAll}};
    for (const auto& [name, prefix] : customs)
        if (!prefix->empty())
            j[std::string(name) + "-implementation-custom"] = ordered_json::array({*prefix});
    if (!perNodeCustomFile.empty())
        j["per-node-custom-implementation"] = perNodeCustomFile;
    j["local-mem-bw"] = number(s.localMemBandwidthGBps);
    if (s.peakPerfTFlops > 0)
        j["peak-perf"] = number(s.peakPerfTFlops);
    j["roofline-enabled"] = s.rooflineEnabled ? 1 : 0;
    j["trace-enabled"] = s.traceEnabled ? 1 : 0;
    j["replay-only"] = s.replayOnly ? 1 : 0;
    j["track-local-mem"] = s.trackLocalMemory ? 1 : 0;
    j["local-mem-trace-filename"] = s.localMemTraceFilename;
    // ASTRA-sim 2.x ignores these two; Astrolabe reads them back.
    j["intra-dimension-scheduling"] = intraDimensionSchedulingName(s.intraDimensionScheduling);
    j["inter-dimension-scheduling"] = interDimensionSchedulingName(s.interDimensionScheduling);
    return j.dump(4, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string writePerNodeCustomYaml(const SystemConfig& system) {
    std::string out;
    for (const auto& [id, prefix] : system.perNodeCustom)
        out += std::to_string(id) + ": " +
               ordered_json(prefix).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
               "\n";
    return out.empty() ? "{}\n" : out;
}

std::string writeAstraRemoteMemoryJson(const RemoteMemoryConfig& m) {
    ordered_json j;
    j["memory-type"] = remoteMemoryTypeName(m.type);
    j["remote-mem-latency"] = m.latencyNs;
    j["remote-mem-bw"] = m.bandwidthBytesPerNs;
    if (m.numNodes > 0)
        j["num-nodes"] = m.numNodes;
    if (m.numNpusPerNode > 0)
        j["num-npus-per-node"] = m.numNpusPerNode;
    return j.dump(4, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string writeCommGroupsJson(const CommGroups& groups) {
    ordered_json j = ordered_json::object();
    for (const auto& [id, ranks] : groups)
        j[std::to_string(id)] = ranks;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace astrolabe
