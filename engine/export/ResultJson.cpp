#include "export/ResultJson.h"

#include "export/SpecJson.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace astrolabe {
namespace {

using nlohmann::json;

json activityJson(const ActivityInterval& a) {
    return {{"npu", a.npu},
            {"startNs", jsonNs(a.start)},
            {"endNs", jsonNs(a.end)},
            {"kind", activityKindName(a.kind)},
            {"nodeType", nodeTypeName(a.nodeType)},
            {"nodeId", a.nodeId},
            {"name", a.nameIndex},
            {"bytes", a.bytes}};
}

json collectiveJson(const CollectiveSpan& c) {
    return {{"npu", c.npu},
            {"startNs", jsonNs(c.start)},
            {"endNs", jsonNs(c.end)},
            {"nodeId", c.nodeId},
            {"type", collectiveTypeName(c.type)},
            {"sizeBytes", c.sizeBytes},
            {"chunks", c.chunks},
            {"commGroup", c.commGroup}};
}

json phaseJson(const PhaseSpan& p) {
    return {{"npu", p.npu},
            {"startNs", jsonNs(p.start)},
            {"endNs", jsonNs(p.end)},
            {"nodeId", p.nodeId},
            {"chunk", p.chunk},
            {"phase", p.phase},
            {"dimension", p.dimension},
            {"phaseKind", p.phaseKind},
            {"algorithm", p.algorithm},
            {"inputBytes", p.inputBytes}};
}

json tensorLifetimeJson(const TensorLifetime& t) {
    return {{"npu", t.npu},
            {"name", t.name},
            {"bytes", t.bytes},
            {"allocatedNs", jsonNs(t.allocated)},
            {"releasedNs", jsonNs(t.released)},
            {"producerNodeId", t.producerNodeId}};
}

template <typename T, typename F>
void streamArray(std::ostream& out, const char* key, const std::vector<T>& items, F toJson) {
    out << ",\n \"" << key << "\": [";
    for (size_t i = 0; i < items.size(); ++i)
        out << (i ? ",\n  " : "\n  ")
            << toJson(items[i]).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out << "\n ]";
}

json npuJson(const NpuSummary& s) {
    return {{"npu", s.npu},
            {"finished", s.finished},
            {"finishNs", jsonNs(s.finish)},
            {"gpuTimeNs", jsonNs(s.gpuTime)},
            {"cpuTimeNs", jsonNs(s.cpuTime)},
            {"exposedCommNs", jsonNs(s.exposedComm)},
            {"wallNs", jsonNs(s.wall)},
            {"computeUnionNs", jsonNs(s.computeUnion)},
            {"commUnionNs", jsonNs(s.commUnion)},
            {"cpuUnionNs", jsonNs(s.cpuUnion)},
            {"remoteMemUnionNs", jsonNs(s.remoteMemUnion)},
            {"invalidUnionNs", jsonNs(s.invalidUnion)},
            {"overlapNs", jsonNs(s.overlap)},
            {"idleNs", jsonNs(s.idle)},
            {"peakMemoryBytes", s.peakMemoryBytes},
            {"computeBoundPercent", s.computeBoundPercent},
            {"avgComputeUtilization", s.avgComputeUtilization},
            {"avgMemoryUtilization", s.avgMemoryUtilization},
            {"avgOperationIntensity", s.avgOperationIntensity}};
}

} // namespace

double jsonNs(SimTime t) {
    return static_cast<double>(t.ps()) / 1000.0;
}

/// Everything except the three long arrays (activities, collectives, phases).
static json smallPartsJson(const RunResult& r) {
    json npus = json::array();
    for (const NpuSummary& s : r.npus)
        npus.push_back(npuJson(s));
    json links = json::array();
    for (size_t i = 0; i < r.links.size(); ++i) {
        const LinkInfo& l = r.links[i];
        json link = {{"id", i},
                     {"src", l.src},
                     {"dst", l.dst},
                     {"dimension", l.dimension},
                     {"bandwidthBytesPerSecond", l.bandwidthBytesPerSecond}};
        if (i < r.linkStats.size()) {
            link["bytes"] = r.linkStats[i].bytes;
            link["messages"] = r.linkStats[i].messages;
            link["busyNs"] = jsonNs(r.linkStats[i].busy);
        }
        link["utilization"] = i < r.linkSeries.size() ? json(r.linkSeries[i]) : json::array();
        links.push_back(std::move(link));
    }
    // Past the link detail limit the series are per group of links (record/LinkGroups.h).
    json linkGroups = json::array();
    for (const LinkGroupSeries& g : r.linkGroupSeries)
        linkGroups.push_back({{"dimension", g.dimension},
                              {"firstRank", g.firstRank},
                              {"linkCount", g.linkCount},
                              {"mean", g.mean},
                              {"max", g.max}});
    json linkIntervals = json::array();
    for (const LinkBusyInterval& b : r.linkIntervals)
        linkIntervals.push_back(
            {{"link", b.link}, {"startNs", jsonNs(b.start)}, {"endNs", jsonNs(b.end)}});
    json dims = json::array();
    for (const DimensionStats& d : r.dimensions)
        dims.push_back({{"dimension", d.dimension},
                        {"bytes", d.bytes},
                        {"busyNs", jsonNs(d.busy)},
                        {"peakBandwidthBytesPerSecond", d.peakBandwidthBytesPerSecond},
                        {"utilization", d.utilization}});
    json memory = json::array();
    for (const std::vector<MemoryUsagePoint>& series : r.memoryUsage) {
        json points = json::array();
        for (const MemoryUsagePoint& p : series)
            points.push_back({{"timeNs", jsonNs(p.time)}, {"bytes", p.bytes}});
        memory.push_back(std::move(points));
    }
    json critical = json::array();
    for (const auto& [npu, node] : r.criticalPath)
        critical.push_back({{"npu", npu}, {"nodeId", node}});
    return {{"format", "astrolabe-result"},
            {"version", 1},
            {"name", r.name},
            {"npuCount", r.npuCount},
            {"endTimeNs", jsonNs(r.endTime)},
            {"events", r.events},
            {"wallSeconds", r.wallSeconds},
            {"npus", npus},
            {"names", r.names},
            {"links", links},
            {"seriesBucketNs", jsonNs(r.seriesBucket)},
            {"linkGroups", linkGroups},
            {"linkIntervals", linkIntervals},
            {"dimensions", dims},
            {"trafficBytes", r.trafficBytes},
            {"criticalPath", critical},
            {"memoryUsage", memory},
            {"reportLines", r.reportLines}};
}

json resultToJson(const RunResult& r) {
    json j = smallPartsJson(r);
    json& activities = j["activities"] = json::array();
    for (const ActivityInterval& a : r.activities)
        activities.push_back(activityJson(a));
    json& collectives = j["collectives"] = json::array();
    for (const CollectiveSpan& c : r.collectives)
        collectives.push_back(collectiveJson(c));
    json& phases = j["phases"] = json::array();
    for (const PhaseSpan& p : r.phases)
        phases.push_back(phaseJson(p));
    json& tensors = j["tensorLifetimes"] = json::array();
    for (const TensorLifetime& t : r.tensorLifetimes)
        tensors.push_back(tensorLifetimeJson(t));
    return j;
}

void writeResultJson(std::ostream& out, const RunResult& result, const SimulationSpec* spec,
                     const nlohmann::json* extra) {
    // Streamed: the long arrays are written element by element, so a run of millions of
    // intervals never exists as one JSON tree in memory.
    json small = smallPartsJson(result);
    if (spec)
        small["configuration"] = toJson(*spec);
    if (extra)
        for (const auto& [key, value] : extra->items())
            small[key] = value;
    out << "{";
    bool first = true;
    for (const auto& [key, value] : small.items()) {
        out << (first ? "\n \"" : ",\n \"") << key
            << "\": " << value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        first = false;
    }
    streamArray(out, "activities", result.activities, activityJson);
    streamArray(out, "collectives", result.collectives, collectiveJson);
    streamArray(out, "phases", result.phases, phaseJson);
    streamArray(out, "tensorLifetimes", result.tensorLifetimes, tensorLifetimeJson);
    out << "\n}\n";
}

} // namespace astrolabe
