#pragma once
// A timeline source over a run stored in the project database: activities are read window by
// window with ProjectDatabase::loadActivities, so a run with ten million intervals never has
// them all in memory. Everything small (names, collective and phase spans, the critical path,
// per-NPU finish times) comes from the run's result loaded without its timeline
// (loadResult(id, false, true)) and is served by a RunResultTimelineSource over it.
//
// Rows are grouped in blocks of kRowsPerBlock; each block caches one time window with a margin of
// one view width on either side, so panning within the margin reads nothing. Cached intervals
// are capped (kMaxCachedIntervals): the least recently used blocks are dropped first.
// Not thread-safe: the GUI thread paints through it; its database connection is its own.

#include "timeline/RunResultTimelineSource.h"

#include <map>
#include <memory>
#include <string>

namespace astrolabe {
class ProjectDatabase;
}

namespace astrolabe::widgets {

class DatabaseTimelineSource final : public TimelineSource {
public:
    static constexpr int kRowsPerBlock = 32;
    static constexpr size_t kMaxCachedIntervals = 4'000'000;

    /// `meta`: the run's result without activities. The database opens on first use.
    DatabaseTimelineSource(std::string databasePath, int64_t runId,
                           std::shared_ptr<const RunResult> meta);
    ~DatabaseTimelineSource() override;

    int rowCount() const override { return m_meta.rowCount(); }
    int64_t beginPs() const override { return m_meta.beginPs(); }
    int64_t endPs() const override { return m_meta.endPs(); }
    int64_t rowFinishPs(int row) const override { return m_meta.rowFinishPs(row); }
    uint64_t dataVersion() const override { return m_meta.dataVersion(); }

    ActivityWindow activities(int row, int64_t t0Ps, int64_t t1Ps) const override;
    PhaseWindow phases(int row, int64_t t0Ps, int64_t t1Ps) const override {
        return m_meta.phases(row, t0Ps, t1Ps);
    }
    const std::vector<std::string>& names() const override { return m_meta.names(); }
    const CollectiveSpan* collective(int row, uint64_t nodeId) const override {
        return m_meta.collective(row, nodeId);
    }
    const std::vector<std::pair<int32_t, uint64_t>>& criticalPath() const override {
        return m_meta.criticalPath();
    }
    std::span<const MemoryUsagePoint> memoryUsage(int row) const override {
        return m_meta.memoryUsage(row);
    }
    uint64_t memoryScaleBytes() const override { return m_meta.memoryScaleBytes(); }
    /// Read off what the run's result holds without its timeline, at no database cost: compute,
    /// cpu, memory and other from the per-NPU union times of each class, collectives from their
    /// spans (the types SELECT DISTINCT over collective_stats would give), phases from theirs,
    /// and send/recv when an NPU spent communication time outside its collectives' spans.
    const std::vector<uint8_t>& presentColorKeys() const override { return m_presentKeys; }
    std::optional<ActivityRef> findNext(const std::vector<bool>& nameMatches,
                                        const ActivityRef& from) const override;

    /// Intervals held in memory now, and database reads so far (tests, diagnostics).
    size_t cachedIntervals() const;
    int queryCount() const { return m_queries; }
    /// The last database error ("" when none): a failing read shows an empty row.
    const std::string& lastError() const { return m_lastError; }

private:
    struct Block {
        int64_t t0 = 0, t1 = 0;
        std::vector<ActivityInterval> items; ///< sorted by (npu, start)
        std::vector<uint8_t> colorKeys;      ///< parallel to items
        std::vector<size_t> offsets;         ///< kRowsPerBlock + 1
        std::vector<int64_t> maxDuration;    ///< per row of the block
        uint64_t lastUse = 0;
    };
    ProjectDatabase& database() const;
    const Block* block(int row, int64_t t0, int64_t t1) const;
    std::vector<ActivityInterval> loadRow(int row) const;
    void evict(int keep) const;

    std::string m_path;
    int64_t m_runId;
    RunResultTimelineSource m_meta;
    std::vector<uint8_t> m_presentKeys;
    mutable std::unique_ptr<ProjectDatabase> m_db;
    mutable std::map<int, Block> m_blocks;
    mutable std::vector<ActivityInterval> m_searchRow; ///< findNext's scratch
    mutable uint64_t m_clock = 0;
    mutable int m_queries = 0;
    mutable std::string m_lastError;
};

} // namespace astrolabe::widgets
