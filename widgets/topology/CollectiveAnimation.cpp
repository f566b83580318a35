#include "topology/CollectiveAnimation.h"

#include "spec/SystemConfig.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace astrolabe::widgets {

void AnimationFrame::clear() {
    chunks.clear();
    colors.clear();
    reducing.clear();
    links.clear();
    reducers.clear();
    reduceTargets.clear();
    std::fill(inFlightPerDimension.begin(), inFlightPerDimension.end(), 0);
    std::fill(reducersPerDimension.begin(), reducersPerDimension.end(), 0);
    std::fill(groupSending.begin(), groupSending.end(), 0);
    flows.clear();
    stepReduces = false;
    step = stepCount = 0;
}

namespace {

/// Position of NPU id along dimension d (d < 0: a whole-machine ring over ids), and its size.
std::pair<int, int> coordinateIn(const NetworkLayout& layout, int id, int d) {
    if (d < 0 || d >= layout.dimensionCount())
        return {id, std::max(1, layout.npuCount())};
    const std::vector<int> c = layout.coordinates(id);
    return {c[static_cast<size_t>(d)], layout.level(d + 1).childCount};
}

int positiveModulo(int a, int n) {
    return ((a % n) + n) % n;
}

} // namespace

int CollectiveAnimation::colorIndex(const ChunkTransfer& t, const NetworkLayout& layout) {
    const auto [from, n] = coordinateIn(layout, t.src, t.dimension);
    const int to = coordinateIn(layout, t.dst, t.dimension).first;
    int piece = from;
    switch (static_cast<AlgorithmKind>(t.algorithm)) {
    case AlgorithmKind::Ring:
    case AlgorithmKind::OneRing: {
        // In step k NPU i forwards piece i - k (against the direction of travel).
        const int direction = positiveModulo(to - from, n) == 1 ? 1 : -1;
        piece = positiveModulo(from - direction * t.step, n);
        break;
    }
    case AlgorithmKind::Direct:
    case AlgorithmKind::OneDirect:
        // Reduce-scatter: the piece the receiver owns; all-gather: the sender's own.
        piece = t.reduce ? to : from;
        break;
    default:
        break;
    }
    return positiveModulo(piece + 5 * t.chunk, kColors);
}

void CollectiveAnimation::pathOf(const ChunkTransfer& t, const NetworkLayout& layout,
                                 const GraphDrawing* graph, std::vector<QPointF>& out) const {
    out.clear();
    // An in-switch message runs between an NPU and the hub of its dimension's line.
    const bool up = t.dst == ChunkTransfer::kSwitch, down = t.src == ChunkTransfer::kSwitch;
    const int npu = up ? t.src : t.dst;
    const int npus = layout.npuCount();
    const auto isNpu = [npus](int id) { return id >= 0 && id < npus; };
    if (!((up || down) ? isNpu(npu) : isNpu(t.src) && isNpu(t.dst)))
        return;
    if (graph) {
        const std::vector<int> devices =
            (up || down) ? graph->switchRoute(npu, t.dimension, up) : graph->route(t.src, t.dst);
        for (const int d : devices)
            out.push_back(graph->position(d));
        return;
    }
    const bool viaHub = t.dimension >= 0 && t.dimension < layout.dimensionCount() &&
                        layout.level(t.dimension + 1).hasHub;
    if (up || down) {
        if (!viaHub)
            return;
        const QPointF hub =
            layout.groupCentre(t.dimension + 1, npu) + layout.level(t.dimension + 1).hubOffset;
        out = up ? std::vector<QPointF>{layout.npuPosition(npu), hub}
                 : std::vector<QPointF>{hub, layout.npuPosition(npu)};
        return;
    }
    out.push_back(layout.npuPosition(t.src));
    if (viaHub)
        out.push_back(layout.groupCentre(t.dimension + 1, t.src) +
                      layout.level(t.dimension + 1).hubOffset);
    out.push_back(layout.npuPosition(t.dst));
}

CollectiveAnimation::CollectiveAnimation(const std::vector<ChunkTransfer>& transfers,
                                         const NetworkLayout& layout, const GraphDrawing* graph)
    : m_dimensions(std::max(1, layout.dimensionCount()))
    , m_perChunk(layout.npuCount() <= kMaxAnimatedNpus) {
    if (transfers.empty() || !layout.drawable() || (graph && graph->empty()))
        return;
    if (!m_perChunk && !graph) {
        // The lowest level with at most kMaxAnimatedNpus groups, below the whole platform (a
        // graph has no such groups: its frames count per dimension only).
        for (int l = 1; l < layout.topLevel(); ++l)
            if (layout.npuCount() / layout.level(l).npusPerGroup <= kMaxAnimatedNpus) {
                m_groupLevel = l;
                m_npusPerGroup = layout.level(l).npusPerGroup;
                for (int g = 0; g < layout.npuCount() / m_npusPerGroup; ++g)
                    m_groupRects.push_back(
                        layout.groupRect(l, layout.groupCentre(l, g * m_npusPerGroup)));
                break;
            }
    }
    // Each sender's start times, to find when a receiver sends next (its reduction ends).
    std::vector<std::vector<int64_t>> sendsOf(static_cast<size_t>(layout.npuCount()));
    for (const ChunkTransfer& t : transfers)
        if (t.src >= 0 && t.src < layout.npuCount())
            sendsOf[static_cast<size_t>(t.src)].push_back(t.start.ps());
    for (auto& s : sendsOf)
        std::sort(s.begin(), s.end());

    m_items.reserve(transfers.size());
    int64_t first = transfers.front().start.ps(), last = 0;
    std::vector<QPointF> path;
    for (const ChunkTransfer& t : transfers) {
        if (graph && !m_perChunk) {
            // A graph's frames with counts only need no route: every message between NPUs
            // (or an NPU and its switch) counts.
            const bool npuEnds = (t.src == ChunkTransfer::kSwitch || t.src >= 0) &&
                                 (t.dst == ChunkTransfer::kSwitch || t.dst >= 0) &&
                                 t.src < layout.npuCount() && t.dst < layout.npuCount();
            path.assign(npuEnds ? 2 : 0, QPointF());
        } else {
            pathOf(t, layout, graph, path);
        }
        if (path.size() < 2)
            continue;
        const bool up = t.dst == ChunkTransfer::kSwitch, down = t.src == ChunkTransfer::kSwitch;
        Item item;
        item.start = t.start.ps();
        item.end = std::max(t.end.ps(), item.start);
        item.path = static_cast<uint32_t>(m_points.size());
        item.points = static_cast<uint32_t>(path.size());
        m_points.insert(m_points.end(), path.begin(), path.end());
        if (up || down) {
            const int npu = up ? t.src : t.dst;
            item.srcGroup = item.dstGroup = npu / m_npusPerGroup;
            item.color = static_cast<uint8_t>(positiveModulo(npu + 5 * t.chunk, kColors));
        } else {
            item.srcGroup = t.src / m_npusPerGroup;
            item.dstGroup = t.dst / m_npusPerGroup;
            item.color = static_cast<uint8_t>(colorIndex(t, layout));
        }
        item.dimension = static_cast<int16_t>(std::clamp<int>(t.dimension, 0, m_dimensions - 1));
        item.reduce = t.reduce;
        item.phase = static_cast<int16_t>(std::max<int>(0, t.phase));
        item.step = static_cast<int16_t>(std::max<int>(0, t.step));
        const size_t key = stepKey(item);
        if (m_stepRanges.size() <= key)
            m_stepRanges.resize(key + 1, {INT16_MAX, -1});
        m_stepRanges[key] = {std::min<int>(m_stepRanges[key].first, item.step),
                             std::max<int>(m_stepRanges[key].second, item.step)};
        item.reduceUntil = item.end;
        if (t.reduce && !up) { // the switch reduces at line rate: marked while the input flows
            const auto& next = sendsOf[static_cast<size_t>(t.dst)];
            const auto it = std::upper_bound(next.begin(), next.end(), item.end);
            item.reduceUntil = it != next.end()
                                   ? *it
                                   : item.end + std::max<int64_t>(1, (item.end - item.start) / 2);
        }
        first = std::min(first, item.start);
        last = std::max(last, item.reduceUntil);
        m_longest = std::max(m_longest, item.reduceUntil - item.start);
        m_items.push_back(item);
    }
    std::stable_sort(m_items.begin(), m_items.end(),
                     [](const Item& a, const Item& b) { return a.start < b.start; });
    for (const Item& item : m_items)
        if (m_starts.empty() || m_starts.back() != item.start)
            m_starts.push_back(item.start);
    m_begin = SimTime::fromPs(first);
    m_end = SimTime::fromPs(last);
}

SimTime CollectiveAnimation::nextStep(SimTime t) const {
    const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), t.ps());
    return it == m_starts.end() ? t : SimTime::fromPs(*it);
}

SimTime CollectiveAnimation::previousStep(SimTime t) const {
    const auto it = std::lower_bound(m_starts.begin(), m_starts.end(), t.ps());
    return it == m_starts.begin() ? t : SimTime::fromPs(*(it - 1));
}

size_t CollectiveAnimation::stepKey(const Item& item) {
    return 2 * static_cast<size_t>(item.phase) + (item.reduce ? 1 : 0);
}

QPointF CollectiveAnimation::along(const Item& item, double fraction) const {
    // Walked at constant speed over the whole path, hub or hops included.
    const QPointF* p = m_points.data() + item.path;
    double length = 0;
    for (uint32_t i = 1; i < item.points; ++i)
        length += QLineF(p[i - 1], p[i]).length();
    double s = std::clamp(fraction, 0.0, 1.0) * length;
    for (uint32_t i = 1; i < item.points; ++i) {
        const double segment = QLineF(p[i - 1], p[i]).length();
        if (s <= segment)
            return segment > 0 ? p[i - 1] + (p[i] - p[i - 1]) * (s / segment) : p[i];
        s -= segment;
    }
    return p[item.points - 1];
}

void CollectiveAnimation::frameAt(SimTime time, AnimationFrame& out) const {
    out.inFlightPerDimension.resize(static_cast<size_t>(m_dimensions));
    out.reducersPerDimension.resize(static_cast<size_t>(m_dimensions));
    out.groupSending.resize(m_groupRects.size() * static_cast<size_t>(m_dimensions));
    out.clear();
    const int64_t t = time.ps();
    const auto started =
        std::upper_bound(m_items.begin(), m_items.end(), t,
                         [](int64_t s, const Item& item) { return s < item.start; });
    if (started != m_items.begin()) {
        const Item& last = *(started - 1);
        out.stepReduces = last.reduce;
        const auto [firstStep, lastStep] = m_stepRanges[stepKey(last)];
        out.step = last.step - firstStep + 1;
        out.stepCount = lastStep - firstStep + 1;
    }
    // Only items that started at most m_longest before t can still show.
    auto it = std::lower_bound(m_items.begin(), m_items.end(), t - m_longest,
                               [](const Item& item, int64_t s) { return item.start < s; });
    for (; it != m_items.end() && it->start <= t; ++it) {
        const Item& item = *it;
        const auto d = static_cast<size_t>(item.dimension);
        if (t < item.end) {
            ++out.inFlightPerDimension[d];
            const double span = static_cast<double>(item.end - item.start);
            const double fraction = span > 0 ? static_cast<double>(t - item.start) / span : 1.0;
            if (!m_perChunk) {
                if (m_groupRects.empty())
                    continue;
                ++out.groupSending[static_cast<size_t>(item.srcGroup) *
                                       static_cast<size_t>(m_dimensions) +
                                   d];
                if (item.srcGroup != item.dstGroup)
                    out.flows.push_back(
                        {item.srcGroup, item.dstGroup, item.dimension, 1, fraction});
                continue;
            }
            out.chunks.push_back(along(item, fraction));
            out.colors.push_back(item.color);
            out.reducing.push_back(item.reduce);
            if (item.reduce)
                out.reduceTargets.push_back(target(item));
            for (uint32_t i = 1; i < item.points; ++i)
                out.links.emplace_back(m_points[item.path + i - 1], m_points[item.path + i]);
        } else if (item.reduce && t < item.reduceUntil) {
            ++out.reducersPerDimension[d];
            if (m_perChunk)
                out.reducers.push_back(target(item));
        }
    }
    // One mark per receiver and one line per link, however many messages share them (a direct
    // all-reduce on 64 NPUs has 4,032 messages in flight over 2,016 links).
    const auto pointLess = [](QPointF a, QPointF b) {
        return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
    };
    std::sort(out.reducers.begin(), out.reducers.end(), pointLess);
    out.reducers.erase(std::unique(out.reducers.begin(), out.reducers.end()), out.reducers.end());
    std::sort(out.reduceTargets.begin(), out.reduceTargets.end(), pointLess);
    out.reduceTargets.erase(std::unique(out.reduceTargets.begin(), out.reduceTargets.end()),
                            out.reduceTargets.end());
    for (QLineF& l : out.links)
        if (pointLess(l.p2(), l.p1()))
            l = QLineF(l.p2(), l.p1());
    std::sort(out.links.begin(), out.links.end(), [&](const QLineF& a, const QLineF& b) {
        return pointLess(a.p1(), b.p1()) || (a.p1() == b.p1() && pointLess(a.p2(), b.p2()));
    });
    out.links.erase(std::unique(out.links.begin(), out.links.end()), out.links.end());
    mergeFlows(out.flows);
}

void CollectiveAnimation::mergeFlows(std::vector<AnimationFrame::Flow>& flows) {
    // One flow per (from, to, dimension): the count summed, the progress averaged.
    using Flow = AnimationFrame::Flow;
    const auto key = [](const Flow& f) { return std::tuple(f.from, f.to, f.dimension); };
    std::sort(flows.begin(), flows.end(),
              [&](const Flow& a, const Flow& b) { return key(a) < key(b); });
    size_t kept = 0;
    for (size_t i = 0; i < flows.size(); ++i) {
        if (kept > 0 && key(flows[kept - 1]) == key(flows[i])) {
            Flow& f = flows[kept - 1];
            f.progress += flows[i].progress;
            f.count += flows[i].count;
        } else {
            flows[kept++] = flows[i];
        }
    }
    flows.resize(kept);
    for (Flow& f : flows)
        f.progress /= f.count;
}

} // namespace astrolabe::widgets
