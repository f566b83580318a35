#pragma once
// Timeline geometry, built apart from painting and cached per (window, width, data version,
// layout version, overlay version): painting replays it and adds hover and selection live.
//
// Culling: a row's items come from TimelineSource::activities(row, t0, t1) (binary search over
// sorted starts). Merging: RunMerger turns items into runs so that sub-pixel items take at most
// one run per pixel column. A collapsed group becomes a density strip: per pixel column, the
// fraction of the group's NPU-time that was busy, per lane. All pure (no Qt), unit-tested.

#include "timeline/RowLayout.h"
#include "timeline/TimeMapper.h"
#include "timeline/TimelineSource.h"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace astrolabe::widgets {

/// Lanes of an NPU row: compute-like work, communication, collective phases.
enum class Lane : uint8_t { Work = 0, Communication = 1, Phase = 2 };
constexpr int kLaneCount = 3;
Lane laneOf(const ActivityInterval& activity);

struct LaneBand {
    int top = 0;
    int height = 0;
};
/// Where a lane sits inside a row of the given top and height (pixels).
LaneBand laneBand(int rowTop, int rowHeight, Lane lane);
/// The lane under y inside a row, or -1 on the padding.
int laneAt(int rowTop, int rowHeight, int y);

struct TimelineRun {
    float x0 = 0;
    float x1 = 0;
    uint8_t key = 0;
    uint8_t lane = 0;
    uint32_t count = 1; ///< items merged into this run
    bool operator==(const TimelineRun&) const = default;
};

/// Merges items, given in start order, into runs: touching runs of one key join, and an item
/// narrower than a pixel snaps to its whole pixel column and joins the run already covering that
/// column, so no column gets more than one sub-pixel run.
class RunMerger {
public:
    RunMerger(std::vector<TimelineRun>& out, uint8_t lane)
        : m_out(out)
        , m_lane(lane) {}
    void add(double x0, double x1, uint8_t key);
    void flush();

private:
    std::vector<TimelineRun>& m_out;
    uint8_t m_lane;
    bool m_pending = false;
    TimelineRun m_run;
};

struct RowGeometry {
    std::vector<TimelineRun> runs;     ///< lanes in any order, each lane in x order
    std::vector<TimelineRun> overlays; ///< critical path / search matches (key says which)
    float finishX = 0;                 ///< NPU finished here: idle is drawn up to it
    /// Collapsed groups: ARGB-free occupancy per column and lane (0..255), width * 2 entries:
    /// [lane * width + column]. Empty for NPU rows.
    std::vector<uint8_t> density;
    int densityWidth = 0;
    int itemCount = 0; ///< items that overlapped the window (for statistics)
    /// Raster form of the runs (premultiplied ARGB, width * kLaneCount), made by the renderer on
    /// first paint and cached with the geometry: painting a row is then three image blits.
    std::vector<uint32_t> strip;
    int stripWidth = 0;
};

/// What the overlays mark: critical-path nodes per NPU (sorted node ids) and matched names.
struct TimelineOverlay {
    std::vector<std::vector<uint64_t>> criticalByNpu;
    std::vector<bool> nameMatches;
    bool showCritical = true;
};

/// Builds one row's geometry. Pure: depends only on its arguments.
void buildNpuRow(const TimelineSource& source, int npu, const TimeMapper& mapper,
                 const TimelineOverlay& overlay, RowGeometry& out);
void buildGroupRow(const TimelineSource& source, int firstNpu, int npuCount,
                   const TimeMapper& mapper, RowGeometry& out);

/// A collapsed group's busy time at a fixed resolution over the whole run, built once per group
/// in one pass over its intervals, so that zoomed-out views of large groups cost O(columns)
/// instead of O(intervals). prefix[lane][b] = busy NPU-buckets in buckets [0, b).
struct GroupHistogram {
    int64_t beginPs = 0;
    double bucketPs = 1;
    int buckets = 0;
    int npuCount = 0;
    int64_t lastFinishPs = 0;
    std::vector<double> prefix[2];
};
GroupHistogram buildGroupHistogram(const TimelineSource& source, int firstNpu, int npuCount,
                                   int buckets);
/// The same density buildGroupRow computes, read from a histogram; exact when column edges fall
/// on bucket edges, linearly interpolated inside a bucket otherwise.
void groupRowFromHistogram(const GroupHistogram& histogram, const TimeMapper& mapper,
                           RowGeometry& out);

/// Index of the item drawn at time t in a lane (the latest-starting one containing t), or else
/// the nearest one within tolerancePs; -1 when none. Items sorted by start (superset allowed).
int hitTestActivities(std::span<const ActivityInterval> items, Lane lane, int64_t t,
                      int64_t tolerancePs);
int hitTestPhases(std::span<const PhaseSpan> items, int64_t t, int64_t tolerancePs);

/// Cache of row geometry for the current key; rows are built on first request.
class TimelineGeometryCache {
public:
    struct Key {
        int64_t t0 = 0, t1 = 0;
        double left = 0, width = 0;
        uint64_t dataVersion = 0, layoutVersion = 0, overlayVersion = 0;
        bool operator==(const Key&) const = default;
    };

    RowGeometry& row(const TimelineSource& source, const RowLayout& layout, int displayRow,
                     const TimeMapper& mapper, const TimelineOverlay& overlay,
                     uint64_t overlayVersion);
    void clear() { m_rows.clear(); }
    int cachedRows() const { return static_cast<int>(m_rows.size()); }
    int builds() const { return m_builds; }
    int histograms() const { return static_cast<int>(m_histograms.size()); }

    /// Groups at least this large use a histogram while a pixel column spans a whole bucket.
    static constexpr int kHistogramMinNpus = 8;
    static constexpr int kHistogramBuckets = 16384; ///< 256 KiB per group
    static constexpr size_t kMaxHistograms = 256;   ///< at most 64 MiB

private:
    const GroupHistogram& histogram(const TimelineSource& source, int firstNpu, int npuCount);

    Key m_key;
    std::unordered_map<int, RowGeometry> m_rows;
    uint64_t m_histogramVersion = 0;
    std::unordered_map<int64_t, GroupHistogram> m_histograms; ///< by (first NPU, count)
    int m_builds = 0;
};

} // namespace astrolabe::widgets
