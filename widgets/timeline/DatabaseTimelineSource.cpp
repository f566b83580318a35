#include "timeline/DatabaseTimelineSource.h"

#include "core/Error.h"
#include "store/ProjectDatabase.h"
#include "timeline/ColorKey.h"

#include <algorithm>
#include <array>

namespace astrolabe::widgets {

namespace {
/// Per NPU, the length of the union of its collective spans.
std::vector<int64_t> collectiveUnionByNpu(const RunResult& r) {
    std::vector<int64_t> total(r.npus.size(), 0);
    std::vector<std::vector<std::pair<int64_t, int64_t>>> byNpu(r.npus.size());
    for (const CollectiveSpan& c : r.collectives)
        if (c.npu >= 0 && static_cast<size_t>(c.npu) < byNpu.size())
            byNpu[static_cast<size_t>(c.npu)].push_back({c.start.ps(), c.end.ps()});
    for (size_t npu = 0; npu < byNpu.size(); ++npu) {
        auto& list = byNpu[npu];
        std::sort(list.begin(), list.end());
        int64_t runStart = 0, runEnd = 0;
        bool open = false;
        for (const auto& [start, end] : list) {
            if (!open || start > runEnd) {
                if (open)
                    total[npu] += runEnd - runStart;
                runStart = start;
                runEnd = end;
                open = true;
            } else {
                runEnd = std::max(runEnd, end);
            }
        }
        if (open)
            total[npu] += runEnd - runStart;
    }
    return total;
}

std::vector<uint8_t> presentKeysOf(const RunResult& r) {
    std::array<bool, 256> seen{};
    const std::vector<int64_t> collectiveTime = collectiveUnionByNpu(r);
    for (const NpuSummary& s : r.npus) {
        seen[colorkey::Compute] |= s.computeUnion.ps() > 0;
        seen[colorkey::Cpu] |= s.cpuUnion.ps() > 0;
        seen[colorkey::Memory] |= s.remoteMemUnion.ps() > 0;
        seen[colorkey::Other] |= s.invalidUnion.ps() > 0;
        // Collective spans and their nodes' intervals may differ by a callback's delay: only
        // communication time well outside every span counts as point-to-point.
        const int64_t comm = s.commUnion.ps();
        const bool known = s.npu >= 0 && static_cast<size_t>(s.npu) < collectiveTime.size();
        const int64_t outside = comm - (known ? collectiveTime[static_cast<size_t>(s.npu)] : 0);
        seen[colorkey::SendRecv] |= outside > std::max<int64_t>(1000, comm / 1000);
    }
    for (const CollectiveSpan& c : r.collectives)
        seen[colorkey::forCollective(c.type)] = true;
    for (const PhaseSpan& p : r.phases)
        seen[colorkey::forPhase(p.phaseKind, 0)] = true;
    std::vector<uint8_t> keys;
    for (size_t key = 0; key < seen.size(); ++key)
        if (seen[key])
            keys.push_back(static_cast<uint8_t>(key));
    return keys;
}
} // namespace

DatabaseTimelineSource::DatabaseTimelineSource(std::string databasePath, int64_t runId,
                                               std::shared_ptr<const RunResult> meta)
    : m_path(std::move(databasePath))
    , m_runId(runId)
    , m_meta(meta)
    , m_presentKeys(meta ? presentKeysOf(*meta) : std::vector<uint8_t>{}) {}

DatabaseTimelineSource::~DatabaseTimelineSource() = default;

ProjectDatabase& DatabaseTimelineSource::database() const {
    if (!m_db)
        m_db = std::make_unique<ProjectDatabase>(m_path, ProjectDatabase::Access::ReadOnly);
    return *m_db;
}

size_t DatabaseTimelineSource::cachedIntervals() const {
    size_t n = 0;
    for (const auto& [index, b] : m_blocks)
        n += b.items.size();
    return n;
}

void DatabaseTimelineSource::evict(int keep) const {
    while (cachedIntervals() > kMaxCachedIntervals && m_blocks.size() > 1) {
        auto oldest = m_blocks.end();
        for (auto it = m_blocks.begin(); it != m_blocks.end(); ++it)
            if (it->first != keep &&
                (oldest == m_blocks.end() || it->second.lastUse < oldest->second.lastUse))
                oldest = it;
        if (oldest == m_blocks.end())
            return;
        m_blocks.erase(oldest);
    }
}

const DatabaseTimelineSource::Block* DatabaseTimelineSource::block(int row, int64_t t0,
                                                                   int64_t t1) const {
    const int index = row / kRowsPerBlock;
    auto it = m_blocks.find(index);
    if (it != m_blocks.end() && it->second.t0 <= t0 && t1 <= it->second.t1) {
        it->second.lastUse = ++m_clock;
        return &it->second;
    }
    // A margin of one window width each side: small pans and zooms read nothing.
    const int64_t width = std::max<int64_t>(t1 - t0, 1);
    Block b;
    b.t0 = std::min(t0, std::max<int64_t>(beginPs(), t0 - width));
    b.t1 = std::max(t1, std::min(endPs() + 1, t1 + width));
    const int firstRow = index * kRowsPerBlock;
    const int rows = std::min(kRowsPerBlock, rowCount() - firstRow);
    std::vector<int> npus(static_cast<size_t>(std::max(rows, 0)));
    for (int r = 0; r < rows; ++r)
        npus[static_cast<size_t>(r)] = firstRow + r;
    try {
        ++m_queries;
        b.items =
            database().loadActivities(m_runId, SimTime::fromPs(b.t0), SimTime::fromPs(b.t1), npus);
    } catch (const Error& e) {
        m_lastError = e.what();
        b.items.clear();
    }
    b.offsets.assign(static_cast<size_t>(kRowsPerBlock) + 1, 0);
    b.maxDuration.assign(static_cast<size_t>(kRowsPerBlock), 0);
    b.colorKeys.resize(b.items.size());
    for (size_t i = 0; i < b.items.size(); ++i) {
        const ActivityInterval& a = b.items[i];
        const int local = a.npu - firstRow;
        if (local < 0 || local >= kRowsPerBlock)
            continue;
        ++b.offsets[static_cast<size_t>(local) + 1];
        int64_t& longest = b.maxDuration[static_cast<size_t>(local)];
        longest = std::max(longest, (a.end - a.start).ps());
        const CollectiveSpan* c =
            a.kind == ActivityKind::Communication ? collective(a.npu, a.nodeId) : nullptr;
        b.colorKeys[i] = colorkey::forActivity(a, c);
    }
    for (size_t r = 1; r < b.offsets.size(); ++r)
        b.offsets[r] += b.offsets[r - 1];
    b.lastUse = ++m_clock;
    Block& stored = m_blocks[index] = std::move(b);
    evict(index);
    return &stored;
}

ActivityWindow DatabaseTimelineSource::activities(int row, int64_t t0Ps, int64_t t1Ps) const {
    if (row < 0 || row >= rowCount() || t1Ps <= t0Ps)
        return {};
    const Block* b = block(row, t0Ps, t1Ps);
    const size_t local = static_cast<size_t>(row % kRowsPerBlock);
    const auto begin = b->items.begin() + static_cast<ptrdiff_t>(b->offsets[local]);
    const auto end = b->items.begin() + static_cast<ptrdiff_t>(b->offsets[local + 1]);
    const int64_t from = t0Ps - b->maxDuration[local];
    const auto first = std::partition_point(
        begin, end, [&](const ActivityInterval& x) { return x.start.ps() < from; });
    const auto last = std::partition_point(
        first, end, [&](const ActivityInterval& x) { return x.start.ps() < t1Ps; });
    const size_t offset = static_cast<size_t>(first - b->items.begin());
    const size_t count = static_cast<size_t>(last - first);
    return {std::span<const ActivityInterval>(b->items.data() + offset, count),
            std::span<const uint8_t>(b->colorKeys).subspan(offset, count)};
}

std::vector<ActivityInterval> DatabaseTimelineSource::loadRow(int row) const {
    try {
        ++m_queries;
        return database().loadActivities(m_runId, SimTime::fromPs(beginPs()),
                                         SimTime::fromPs(endPs() + 1), {row});
    } catch (const Error& e) {
        m_lastError = e.what();
        return {};
    }
}

std::optional<ActivityRef> DatabaseTimelineSource::findNext(const std::vector<bool>& nameMatches,
                                                            const ActivityRef& from) const {
    const int rows = rowCount();
    if (rows <= 0)
        return std::nullopt;
    const int startRow = from.row >= 0 && from.row < rows ? from.row : 0;
    const auto matches = [&](const ActivityInterval& a) {
        return a.nameIndex < nameMatches.size() && nameMatches[a.nameIndex];
    };
    // One row read at a time: the row of `from` after it, the other rows in order (wrapping),
    // then the row of `from` up to it.
    for (int step = 0; step <= rows; ++step) {
        const int row = (startRow + step) % rows;
        m_searchRow = loadRow(row);
        size_t position = 0;
        if (from.row == row) {
            while (position < m_searchRow.size() && m_searchRow[position].start.ps() < from.startPs)
                ++position;
            while (position < m_searchRow.size() &&
                   m_searchRow[position].start.ps() == from.startPs &&
                   m_searchRow[position].nodeId != from.nodeId)
                ++position;
            if (position < m_searchRow.size() && m_searchRow[position].start.ps() == from.startPs)
                ++position;
        }
        const size_t begin = step == rows ? 0 : (step == 0 ? position : 0);
        const size_t end = step == rows ? position : m_searchRow.size();
        for (size_t i = begin; i < end; ++i)
            if (matches(m_searchRow[i]))
                return ActivityRef{m_searchRow[i].npu, m_searchRow[i].start.ps(),
                                   m_searchRow[i].nodeId};
    }
    return std::nullopt;
}

} // namespace astrolabe::widgets
