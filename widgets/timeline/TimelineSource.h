#pragma once
// Where the timeline reads intervals from. Window-oriented on purpose: a view asks for one row's
// intervals that may overlap [t0, t1) and never for "everything", so a source backed by the
// project database (loadActivities(runId, t0, t1)) can page windows in and out behind the same
// interface as the in-memory source over a RunResult.
//
// Rows are NPUs (0 .. rowCount()-1). Times are picoseconds.

#include "record/RunResult.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace astrolabe::widgets {

/// A row's activities in a window: sorted by start, with a parallel colour key per item.
/// A superset of the overlap: items whose start lies in [t0 - maxDuration, t1) are returned and
/// callers drop those that end at or before t0. Valid until the next call on the source or a
/// data change (dataVersion()).
struct ActivityWindow {
    std::span<const ActivityInterval> items;
    std::span<const uint8_t> colorKeys;
};

/// A row's collective phase spans in a window, same contract as ActivityWindow.
struct PhaseWindow {
    std::span<const PhaseSpan> items;
};

/// Identifies one activity: its row and its position in the row's start order.
struct ActivityRef {
    int row = -1;
    int64_t startPs = 0;
    uint64_t nodeId = 0;
    bool operator==(const ActivityRef&) const = default;
};

class TimelineSource {
public:
    virtual ~TimelineSource() = default;

    virtual int rowCount() const = 0;
    /// The extent of the data: [begin, end).
    virtual int64_t beginPs() const = 0;
    virtual int64_t endPs() const = 0;
    /// When the row's NPU finished (idle after that is not drawn); endPs() when unknown.
    virtual int64_t rowFinishPs(int row) const = 0;
    /// Changes whenever the data behind the source changes; geometry caches key on it.
    virtual uint64_t dataVersion() const = 0;

    virtual ActivityWindow activities(int row, int64_t t0Ps, int64_t t1Ps) const = 0;
    virtual PhaseWindow phases(int row, int64_t t0Ps, int64_t t1Ps) const = 0;

    /// The string table ActivityInterval::nameIndex points into.
    virtual const std::vector<std::string>& names() const = 0;
    /// Collective type and size of a communication node, when known.
    virtual const CollectiveSpan* collective(int row, uint64_t nodeId) const = 0;
    /// The colour keys of the run's activities and phases, each once, ascending: what the legend
    /// lists. Known when the source is built (it never pages data in).
    virtual const std::vector<uint8_t>& presentColorKeys() const = 0;
    /// Local memory in use on the row's NPU over time (track-local-mem), in time order; empty
    /// when the run did not track it. Drawn as a counter line over the row.
    virtual std::span<const MemoryUsagePoint> memoryUsage(int row) const = 0;
    /// The most memory any NPU had in use (the counter's full scale), 0 when not tracked.
    virtual uint64_t memoryScaleBytes() const = 0;
    /// The (npu, node id) chain that set the end time (may be empty).
    virtual const std::vector<std::pair<int32_t, uint64_t>>& criticalPath() const = 0;

    /// The first activity after `from` (in row, then start order) whose name index is marked in
    /// `nameMatches`; wraps around to the beginning. Empty when nothing matches.
    virtual std::optional<ActivityRef> findNext(const std::vector<bool>& nameMatches,
                                                const ActivityRef& from) const = 0;
};

} // namespace astrolabe::widgets
