#pragma once
// "Watch a collective": the geometry of a recorded collective (RunResult::transfers) over the
// network drawing, frame by frame. Pure computation, no painting: built once per run in
// O(T log T) for T messages; frameAt(t) costs O(log T + messages near t).
//
// A message from NPU a to NPU b is drawn as a chunk moving along a path from a's centre to b's,
// through the switch hub of its dimension when the drawing has one; at time t it sits at
// fraction (t - start) / (end - start) of the path's length, so a chunk halfway through its
// transfer is halfway along its link. On a graph platform (GraphDrawing) the path is the
// engine's route, hop by hop through the NPUs and switches it crosses. An in-switch message
// (ChunkTransfer::kSwitch) runs between an NPU and the hub of its line: up, reduced there, and back
// down. A receiver that reduces what it got is marked from the arrival until it sends its next
// message (the reduction happens in between).
//
// Platforms of more than kMaxAnimatedNpus NPUs are not animated chunk by chunk: a frame then
// counts, per dimension, the messages in flight and the receivers reducing, and aggregates by
// group: the groups of the lowest level of the drawing that has at most kMaxAnimatedNpus of
// them (on 8 x 8 x 16 NPUs the 16 groups of 64) each count the messages their NPUs send per
// dimension, and the messages between two groups are one flow per (from, to, dimension) with
// their count and mean progress. A platform of one dimension has a single group: counts only.
#include "core/SimTime.h"
#include "record/RunResult.h"
#include "topology/GraphDrawing.h"
#include "topology/NetworkLayout.h"

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <cstdint>
#include <utility>
#include <vector>

namespace astrolabe::widgets {

struct AnimationFrame {
    std::vector<QPointF> chunks;   ///< scene positions of the chunks in flight
    std::vector<uint8_t> colors;   ///< their colour index, < CollectiveAnimation::kColors
    std::vector<bool> reducing;    ///< whether the receiver will combine that chunk
    std::vector<QLineF> links;     ///< the path segments in use
    std::vector<QPointF> reducers; ///< receivers combining what arrived
    /// Receivers of a message in flight that they will reduce: marked too, so that a reduction
    /// shows for its whole step (a pipelined receiver sends on as soon as it has reduced).
    std::vector<QPointF> reduceTargets;
    std::vector<int> inFlightPerDimension;
    std::vector<int> reducersPerDimension;
    /// Aggregate frames only: messages in flight sent by each group's NPUs, [group * dims + d].
    std::vector<int> groupSending;
    struct Flow {
        int from = 0, to = 0; ///< groups
        int dimension = 0;
        int count = 0;       ///< messages in flight between them on that dimension
        double progress = 0; ///< their mean fraction of the way, 0..1
    };
    std::vector<Flow> flows; ///< by (from, to, dimension)
    /// The step of the message started last (at or before the frame's time): its phase reduces
    /// (reduce-scatter) or not (all-gather), its step from 1 and the steps of that phase, as
    /// in "reduce-scatter step 3 of 7". stepCount == 0: no message has started yet.
    bool stepReduces = false;
    int step = 0;
    int stepCount = 0;
    void clear();
};

class CollectiveAnimation {
public:
    static constexpr int kMaxAnimatedNpus = 64;
    static constexpr int kColors = 12;

    CollectiveAnimation() = default;
    /// `graph` (may be null): a graph platform's drawing, whose routes the messages follow;
    /// `layout` then only gives the logical dimensions (colours and step counts).
    CollectiveAnimation(const std::vector<ChunkTransfer>& transfers, const NetworkLayout& layout,
                        const GraphDrawing* graph = nullptr);

    bool empty() const { return m_items.empty(); }
    /// Whether frames show single chunks (else only per-dimension counts).
    bool perChunk() const { return m_perChunk; }
    SimTime begin() const { return m_begin; }
    SimTime end() const { return m_end; }
    size_t transferCount() const { return m_items.size(); }
    int dimensionCount() const { return m_dimensions; }
    /// Aggregate frames: the drawing's level whose groups are aggregated (0: none), how many
    /// groups, NPUs per group and a group's centre and rectangle in scene units.
    int groupLevel() const { return m_groupLevel; }
    int groupCount() const { return static_cast<int>(m_groupRects.size()); }
    int npusPerGroup() const { return m_npusPerGroup; }
    QRectF groupRect(int group) const { return m_groupRects.at(static_cast<size_t>(group)); }

    /// The next / previous time a message starts strictly after / before t (a "step"); t itself
    /// when there is none.
    SimTime nextStep(SimTime t) const;
    SimTime previousStep(SimTime t) const;

    /// What is on the links at time t; `out` is cleared and refilled (its capacity is reused).
    void frameAt(SimTime t, AnimationFrame& out) const;

    /// The colour index of a message: its piece of the data (for a ring, the piece an NPU
    /// forwards moves one position per step), so one piece keeps its colour around the ring.
    static int colorIndex(const ChunkTransfer& t, const NetworkLayout& layout);

private:
    struct Item {
        int64_t start = 0;
        int64_t end = 0;
        int64_t reduceUntil = 0; ///< end of the receiver's reduction mark (== end: none)
        uint32_t path = 0;       ///< its first point in m_points
        uint32_t points = 0;     ///< at least 2: from, the devices or hub on the way, to
        int32_t srcGroup = 0, dstGroup = 0;
        int16_t dimension = 0;
        int16_t phase = 0; ///< ChunkTransfer::phase
        int16_t step = 0;  ///< ChunkTransfer::step
        uint8_t color = 0;
        bool reduce = false;
    };
    QPointF along(const Item& item, double fraction) const;
    QPointF target(const Item& item) const { return m_points[item.path + item.points - 1]; }
    /// The points of the path a transfer takes (empty: not drawn).
    void pathOf(const ChunkTransfer& t, const NetworkLayout& layout, const GraphDrawing* graph,
                std::vector<QPointF>& out) const;
    static size_t stepKey(const Item& item);
    static void mergeFlows(std::vector<AnimationFrame::Flow>& flows);

    std::vector<Item> m_items;     ///< sorted by start
    std::vector<QPointF> m_points; ///< the items' paths, one after another
    std::vector<int64_t> m_starts; ///< the distinct start times, sorted
    /// By 2 * ChunkTransfer::phase + reduce: the first and last step of the messages that reduce
    /// (or not) in that phase (a ring all-reduce may be one phase of 2(p - 1) steps).
    std::vector<std::pair<int, int>> m_stepRanges;
    int64_t m_longest = 0; ///< max(reduceUntil, end) - start over the items
    SimTime m_begin, m_end;
    int m_dimensions = 0;
    bool m_perChunk = true;
    int m_groupLevel = 0;
    int m_npusPerGroup = 1;
    std::vector<QRectF> m_groupRects;
};

} // namespace astrolabe::widgets
