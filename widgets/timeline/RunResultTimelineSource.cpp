#include "timeline/RunResultTimelineSource.h"

#include "timeline/ColorKey.h"

#include <algorithm>
#include <array>
#include <atomic>

namespace astrolabe::widgets {

namespace {
std::atomic<uint64_t> g_nextVersion{1};

template <typename T> bool sortedByRowAndStart(const std::vector<T>& items) {
    return std::is_sorted(items.begin(), items.end(), [](const T& a, const T& b) {
        return a.npu != b.npu ? a.npu < b.npu : a.start < b.start;
    });
}

template <typename T> std::vector<T> sortedCopy(const std::vector<T>& items) {
    std::vector<T> copy = items;
    std::stable_sort(copy.begin(), copy.end(), [](const T& a, const T& b) {
        return a.npu != b.npu ? a.npu < b.npu : a.start < b.start;
    });
    return copy;
}
} // namespace

std::span<const MemoryUsagePoint> RunResultTimelineSource::memoryUsage(int row) const {
    const auto& usage = m_result->memoryUsage;
    if (row < 0 || static_cast<size_t>(row) >= usage.size())
        return {};
    return usage[static_cast<size_t>(row)];
}

RunResultTimelineSource::RunResultTimelineSource(std::shared_ptr<const RunResult> result)
    : m_result(std::move(result))
    , m_version(g_nextVersion++) {
    const RunResult& r = *m_result;
    m_rowCount = r.npuCount;
    for (const ActivityInterval& a : r.activities)
        m_rowCount = std::max(m_rowCount, a.npu + 1);
    m_endPs = std::max<int64_t>(r.endTime.ps(), 1);
    for (const ActivityInterval& a : r.activities)
        m_endPs = std::max(m_endPs, a.end.ps());

    std::span<const ActivityInterval> activities(r.activities);
    if (!sortedByRowAndStart(r.activities)) {
        m_sortedActivities = sortedCopy(r.activities);
        activities = m_sortedActivities;
    }
    std::span<const PhaseSpan> phases(r.phases);
    if (!sortedByRowAndStart(r.phases)) {
        m_sortedPhases = sortedCopy(r.phases);
        phases = m_sortedPhases;
    }
    m_activities = buildIndex(activities, m_rowCount);
    m_phases = buildIndex(phases, m_rowCount);
    for (const std::vector<MemoryUsagePoint>& series : r.memoryUsage)
        for (const MemoryUsagePoint& p : series)
            m_memoryScale = std::max(m_memoryScale, p.bytes);

    m_collectiveOrder.resize(r.collectives.size());
    for (size_t i = 0; i < r.collectives.size(); ++i)
        m_collectiveOrder[i] = static_cast<uint32_t>(i);
    const auto byNpuAndNode = [&r](uint32_t a, uint32_t b) {
        const CollectiveSpan& x = r.collectives[a];
        const CollectiveSpan& y = r.collectives[b];
        return x.npu != y.npu ? x.npu < y.npu : x.nodeId < y.nodeId;
    };
    if (!std::is_sorted(m_collectiveOrder.begin(), m_collectiveOrder.end(), byNpuAndNode))
        std::sort(m_collectiveOrder.begin(), m_collectiveOrder.end(), byNpuAndNode);

    m_colorKeys.resize(activities.size());
    for (size_t i = 0; i < activities.size(); ++i) {
        const ActivityInterval& a = activities[i];
        const CollectiveSpan* c =
            a.kind == ActivityKind::Communication ? collective(a.npu, a.nodeId) : nullptr;
        m_colorKeys[i] = colorkey::forActivity(a, c);
    }
    std::array<bool, 256> seen{};
    for (uint8_t key : m_colorKeys)
        seen[key] = true;
    for (const PhaseSpan& p : phases)
        seen[colorkey::forPhase(p.phaseKind, 0)] = true;
    for (size_t key = 0; key < seen.size(); ++key)
        if (seen[key])
            m_presentKeys.push_back(static_cast<uint8_t>(key));
}

template <typename T>
RunResultTimelineSource::RowIndex<T> RunResultTimelineSource::buildIndex(std::span<const T> sorted,
                                                                         int rows) {
    RowIndex<T> index;
    index.all = sorted;
    index.offsets.assign(static_cast<size_t>(rows) + 1, 0);
    index.maxDuration.assign(static_cast<size_t>(rows), 0);
    for (const T& item : sorted) {
        if (item.npu < 0 || item.npu >= rows)
            continue;
        ++index.offsets[static_cast<size_t>(item.npu) + 1];
        int64_t& longest = index.maxDuration[static_cast<size_t>(item.npu)];
        longest = std::max(longest, (item.end - item.start).ps());
    }
    // Items with an out-of-range npu sort before row 0 or after the last row: skip them.
    size_t skipped = 0;
    while (skipped < sorted.size() && sorted[skipped].npu < 0)
        ++skipped;
    index.offsets[0] = skipped;
    for (size_t row = 1; row < index.offsets.size(); ++row)
        index.offsets[row] += index.offsets[row - 1];
    return index;
}

template <typename T>
std::span<const T> RunResultTimelineSource::window(const RowIndex<T>& index, int row, int64_t t0,
                                                   int64_t t1, size_t* firstOut) {
    if (row < 0 || static_cast<size_t>(row) + 1 >= index.offsets.size())
        return {};
    const auto begin = index.all.begin() + static_cast<ptrdiff_t>(index.offsets[row]);
    const auto end = index.all.begin() + static_cast<ptrdiff_t>(index.offsets[row + 1]);
    // An item overlapping [t0, t1) started at most maxDuration before t0.
    const int64_t from = t0 - index.maxDuration[static_cast<size_t>(row)];
    const auto first =
        std::partition_point(begin, end, [&](const T& x) { return x.start.ps() < from; });
    const auto last =
        std::partition_point(first, end, [&](const T& x) { return x.start.ps() < t1; });
    if (firstOut)
        *firstOut = static_cast<size_t>(first - index.all.begin());
    return {first, last};
}

int64_t RunResultTimelineSource::rowFinishPs(int row) const {
    const auto& npus = m_result->npus;
    if (row >= 0 && static_cast<size_t>(row) < npus.size() && npus[row].npu == row &&
        npus[row].finish.ps() > 0)
        return npus[row].finish.ps();
    return m_endPs;
}

ActivityWindow RunResultTimelineSource::activities(int row, int64_t t0Ps, int64_t t1Ps) const {
    size_t first = 0;
    const std::span<const ActivityInterval> items = window(m_activities, row, t0Ps, t1Ps, &first);
    return {items, std::span<const uint8_t>(m_colorKeys).subspan(first, items.size())};
}

PhaseWindow RunResultTimelineSource::phases(int row, int64_t t0Ps, int64_t t1Ps) const {
    return {window(m_phases, row, t0Ps, t1Ps, nullptr)};
}

const CollectiveSpan* RunResultTimelineSource::collective(int row, uint64_t nodeId) const {
    const auto& all = m_result->collectives;
    const auto it =
        std::lower_bound(m_collectiveOrder.begin(), m_collectiveOrder.end(), std::pair{row, nodeId},
                         [&all](uint32_t index, const std::pair<int, uint64_t>& v) {
                             const CollectiveSpan& c = all[index];
                             return c.npu != v.first ? c.npu < v.first : c.nodeId < v.second;
                         });
    if (it == m_collectiveOrder.end() || all[*it].npu != row || all[*it].nodeId != nodeId)
        return nullptr;
    return &all[*it];
}

std::optional<ActivityRef> RunResultTimelineSource::findNext(const std::vector<bool>& nameMatches,
                                                             const ActivityRef& from) const {
    const std::span<const ActivityInterval> all = m_activities.all;
    const size_t rowsEnd = m_activities.offsets.back();
    const size_t rowsBegin = m_activities.offsets.front();
    if (rowsEnd <= rowsBegin)
        return std::nullopt;
    // Position just after `from`: the first item of its row that starts later, or that starts
    // at the same time and comes after the same node.
    size_t position = rowsBegin;
    if (from.row >= 0 && from.row < m_rowCount) {
        position = m_activities.offsets[from.row];
        const size_t rowEnd = m_activities.offsets[from.row + 1];
        while (position < rowEnd && all[position].start.ps() < from.startPs)
            ++position;
        while (position < rowEnd && all[position].start.ps() == from.startPs &&
               all[position].nodeId != from.nodeId)
            ++position;
        if (position < rowEnd && all[position].start.ps() == from.startPs)
            ++position;
    }
    const size_t count = rowsEnd - rowsBegin;
    for (size_t step = 0; step < count; ++step) {
        size_t i = position + step;
        if (i >= rowsEnd)
            i = rowsBegin + (i - rowsEnd) % count;
        const ActivityInterval& a = all[i];
        if (a.nameIndex < nameMatches.size() && nameMatches[a.nameIndex])
            return ActivityRef{a.npu, a.start.ps(), a.nodeId};
    }
    return std::nullopt;
}

} // namespace astrolabe::widgets
