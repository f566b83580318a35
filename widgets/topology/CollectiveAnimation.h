#pragma once
// "Watch a collective": the geometry of a recorded collective (RunResult::transfers) over the
// network drawing, frame by frame. Pure computation, no painting: built once per run in
// O(T log T) for T messages; frameAt(t) costs O(log T + messages near t).
//
// A message from NPU a to NPU b is drawn as a chunk moving along a path from a's centre to b's,
// through the switch hub of its dimension when the drawing has one; at time t it sits at
// fraction (t - start) / (end - start) of the path's length, so a chunk halfway through its
// transfer is halfway along its link. A receiver that reduces what it got is marked from the
// arrival until it sends its next message (the reduction happens in between).
//
// Platforms of more than kMaxAnimatedNpus NPUs are not animated chunk by chunk: a frame then
// only counts, per dimension, the messages in flight and the receivers reducing.
#include "core/SimTime.h"
#include "record/RunResult.h"
#include "topology/NetworkLayout.h"

#include <QLineF>
#include <QPointF>
#include <cstdint>
#include <vector>

namespace astrolabe::widgets {

struct AnimationFrame {
    std::vector<QPointF> chunks;   ///< scene positions of the chunks in flight
    std::vector<uint8_t> colors;   ///< their colour index, < CollectiveAnimation::kColors
    std::vector<bool> reducing;    ///< whether the receiver will combine that chunk
    std::vector<QLineF> links;     ///< the path segments in use
    std::vector<QPointF> reducers; ///< receivers combining what arrived
    std::vector<int> inFlightPerDimension;
    std::vector<int> reducersPerDimension;
    void clear();
};

class CollectiveAnimation {
public:
    static constexpr int kMaxAnimatedNpus = 64;
    static constexpr int kColors = 12;

    CollectiveAnimation() = default;
    CollectiveAnimation(const std::vector<ChunkTransfer>& transfers, const NetworkLayout& layout);

    bool empty() const { return m_items.empty(); }
    /// Whether frames show single chunks (else only per-dimension counts).
    bool perChunk() const { return m_perChunk; }
    SimTime begin() const { return m_begin; }
    SimTime end() const { return m_end; }
    size_t transferCount() const { return m_items.size(); }
    int dimensionCount() const { return m_dimensions; }

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
        QPointF from, via, to;   ///< via == from: a straight path
        int16_t dimension = 0;
        uint8_t color = 0;
        bool reduce = false;
    };
    static QPointF along(const Item& item, double fraction);

    std::vector<Item> m_items;     ///< sorted by start
    std::vector<int64_t> m_starts; ///< the distinct start times, sorted
    int64_t m_longest = 0;         ///< max(reduceUntil, end) - start over the items
    SimTime m_begin, m_end;
    int m_dimensions = 0;
    bool m_perChunk = true;
};

} // namespace astrolabe::widgets
