#include "engine/golden/RunComparison.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

namespace golden {

using namespace astrolabe;

namespace {

/// `items` of both runs mapped through `key` and sorted: equal as multisets?
template <typename T, typename Key>
bool sameItems(const std::vector<T>& a, const std::vector<T>& b, Key key) {
    if (a.size() != b.size())
        return false;
    using K = decltype(key(a.front()));
    std::vector<K> x, y;
    x.reserve(a.size());
    y.reserve(b.size());
    for (const T& item : a)
        x.push_back(key(item));
    for (const T& item : b)
        y.push_back(key(item));
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    return x == y;
}

auto summaryKey(const NpuSummary& n) {
    return std::make_tuple(n.npu, n.finished, n.finish, n.gpuTime, n.cpuTime, n.exposedComm, n.wall,
                           n.computeUnion, n.commUnion, n.cpuUnion, n.remoteMemUnion,
                           n.invalidUnion, n.overlap, n.idle, n.peakMemoryBytes);
}

} // namespace

std::string runDifference(const RunResult& folded, const RunResult& full) {
    std::ostringstream out;
    if (folded.npus.size() != full.npus.size())
        return "NPU count differs";
    if (folded.endTime != full.endTime)
        out << "end time " << folded.endTime.ps() << " ps, full " << full.endTime.ps() << " ps";
    for (size_t i = 0; i < full.npus.size() && out.tellp() == 0; ++i)
        if (summaryKey(folded.npus[i]) != summaryKey(full.npus[i]))
            out << "NPU " << i << ": summary differs (finish " << folded.npus[i].finish.ps()
                << " ps, full " << full.npus[i].finish.ps() << " ps)";
    if (out.tellp() != 0)
        return out.str();
    auto activities = [](const RunResult& r) {
        return [&r](const ActivityInterval& a) {
            return std::make_tuple(a.npu, a.start, a.end, a.nodeId, a.kind, a.nodeType, a.bytes,
                                   r.names.at(a.nameIndex));
        };
    };
    if (folded.activities.size() != full.activities.size())
        return "activity count differs";
    {
        std::vector<decltype(activities(folded)(folded.activities.front()))> x, y;
        for (const ActivityInterval& a : folded.activities)
            x.push_back(activities(folded)(a));
        for (const ActivityInterval& a : full.activities)
            y.push_back(activities(full)(a));
        std::sort(x.begin(), x.end());
        std::sort(y.begin(), y.end());
        if (x != y)
            return "activities differ";
    }
    if (!sameItems(folded.phases, full.phases, [](const PhaseSpan& p) {
            return std::make_tuple(p.npu, p.nodeId, p.chunk, p.phase, p.start, p.end, p.dimension,
                                   p.phaseKind, p.algorithm, p.inputBytes);
        }))
        return "phase spans differ";
    if (!sameItems(folded.collectives, full.collectives, [](const CollectiveSpan& c) {
            return std::make_tuple(c.npu, c.nodeId, c.start, c.end, c.type, c.sizeBytes, c.chunks,
                                   c.commGroup);
        }))
        return "collective spans differ";
    if (folded.linkStats.size() != full.linkStats.size())
        return "link count differs";
    for (size_t l = 0; l < full.linkStats.size(); ++l) {
        const LinkStats& a = folded.linkStats[l];
        const LinkStats& b = full.linkStats[l];
        if (a.bytes != b.bytes || a.messages != b.messages || a.busy != b.busy)
            return "link " + std::to_string(l) + ": load differs (" + std::to_string(a.bytes) +
                   " bytes, full " + std::to_string(b.bytes) + ")";
    }
    if (folded.linkSeries.size() != full.linkSeries.size())
        return "link series count differs";
    for (size_t l = 0; l < full.linkSeries.size(); ++l) {
        if (folded.linkSeries[l].size() != full.linkSeries[l].size())
            return "link " + std::to_string(l) + ": series length differs";
        for (size_t b = 0; b < full.linkSeries[l].size(); ++b)
            if (std::abs(folded.linkSeries[l][b] - full.linkSeries[l][b]) > 1e-4)
                return "link " + std::to_string(l) + ": series differs";
    }
    // Past the link detail limit the series are per group of links (record/LinkGroups.h).
    if (folded.linkGroupSeries.size() != full.linkGroupSeries.size())
        return "link group count differs";
    for (size_t g = 0; g < full.linkGroupSeries.size(); ++g) {
        const LinkGroupSeries &a = folded.linkGroupSeries[g], &b = full.linkGroupSeries[g];
        if (a.dimension != b.dimension || a.firstRank != b.firstRank ||
            a.linkCount != b.linkCount || a.mean.size() != b.mean.size())
            return "link group " + std::to_string(g) + ": shape differs";
        for (size_t k = 0; k < b.mean.size(); ++k)
            if (std::abs(a.mean[k] - b.mean[k]) > 1e-4 || std::abs(a.max[k] - b.max[k]) > 1e-4)
                return "link group " + std::to_string(g) + ": series differs";
    }
    if (folded.trafficBytes != full.trafficBytes)
        return "NPU-to-NPU traffic differs";
    if (folded.dimensions.size() != full.dimensions.size())
        return "dimension count differs";
    for (size_t d = 0; d < full.dimensions.size(); ++d)
        if (folded.dimensions[d].bytes != full.dimensions[d].bytes ||
            folded.dimensions[d].busy != full.dimensions[d].busy)
            return "dimension " + std::to_string(d) + ": load differs";
    if (folded.criticalPath.size() != full.criticalPath.size())
        return "critical path length differs";
    auto a = folded.reportLines, b = full.reportLines;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b)
        return "report lines differ";
    return {};
}

} // namespace golden
