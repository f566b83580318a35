#pragma once
// The in-memory timeline source over a frozen RunResult. Zero-copy when the activities and
// phases are already sorted by (npu, start) as the recorder writes them; otherwise a sorted copy
// is made once. Per row it keeps the offsets into the sorted arrays and the longest duration, so
// a window query is two binary searches: starts in [t0 - maxDuration, t1).
//
// Memory on top of the RunResult: one colour byte per activity, 16 bytes per row and 4 bytes
// per collective (an index sorted by (npu, node id)).

#include "timeline/TimelineSource.h"

#include <memory>

namespace astrolabe::widgets {

class RunResultTimelineSource final : public TimelineSource {
public:
    explicit RunResultTimelineSource(std::shared_ptr<const RunResult> result);

    int rowCount() const override { return m_rowCount; }
    int64_t beginPs() const override { return 0; }
    int64_t endPs() const override { return m_endPs; }
    int64_t rowFinishPs(int row) const override;
    uint64_t dataVersion() const override { return m_version; }

    ActivityWindow activities(int row, int64_t t0Ps, int64_t t1Ps) const override;
    PhaseWindow phases(int row, int64_t t0Ps, int64_t t1Ps) const override;
    const std::vector<std::string>& names() const override { return m_result->names; }
    const CollectiveSpan* collective(int row, uint64_t nodeId) const override;
    const std::vector<std::pair<int32_t, uint64_t>>& criticalPath() const override {
        return m_result->criticalPath;
    }
    const std::vector<uint8_t>& presentColorKeys() const override { return m_presentKeys; }
    std::span<const MemoryUsagePoint> memoryUsage(int row) const override;
    uint64_t memoryScaleBytes() const override { return m_memoryScale; }
    std::optional<ActivityRef> findNext(const std::vector<bool>& nameMatches,
                                        const ActivityRef& from) const override;

    const RunResult& result() const { return *m_result; }

private:
    template <typename T> struct RowIndex {
        std::span<const T> all;
        std::vector<size_t> offsets;      ///< rowCount + 1
        std::vector<int64_t> maxDuration; ///< per row, ps
    };
    template <typename T> static RowIndex<T> buildIndex(std::span<const T> sorted, int rows);
    template <typename T>
    static std::span<const T> window(const RowIndex<T>& index, int row, int64_t t0, int64_t t1,
                                     size_t* firstOut);

    std::shared_ptr<const RunResult> m_result;
    uint64_t m_memoryScale = 0;
    int m_rowCount = 0;
    int64_t m_endPs = 1;
    uint64_t m_version = 0;
    std::vector<ActivityInterval> m_sortedActivities; ///< empty when the result's are sorted
    std::vector<PhaseSpan> m_sortedPhases;            ///< empty when the result's are sorted
    RowIndex<ActivityInterval> m_activities;
    RowIndex<PhaseSpan> m_phases;
    std::vector<uint8_t> m_colorKeys; ///< parallel to m_activities.all
    std::vector<uint8_t> m_presentKeys;
    /// Indices into RunResult::collectives sorted by (npu, node id): 4 bytes per collective.
    std::vector<uint32_t> m_collectiveOrder;
};

} // namespace astrolabe::widgets
