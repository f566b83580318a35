#include "topology/MemoryTierLayout.h"

#include "topology/GraphLayout.h"
#include "topology/MemoryTierMath.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {
constexpr double kR = NetworkLayout::kNodeRadius;
constexpr double kBoxHeight = 3 * kR;
constexpr double kFabricHeight = 1.5 * kR;
constexpr double kMinSlot = 4 * kR; // a box and its gap, at least
constexpr int kMaxPortLines = 64;   // pooled ports of a platform past kMaxNpuLinks NPUs

int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
} // namespace

NpuSites NpuSites::of(const NetworkLayout& layout) {
    if (!layout.drawable())
        return {};
    return {layout.npuCount(), layout.bounds(),
            [&layout](int64_t id) { return layout.npuPosition(static_cast<int>(id)); }};
}

NpuSites NpuSites::of(const std::vector<QPointF>& positions, int64_t npus, QRectF bounds) {
    npus = std::clamp<int64_t>(npus, 0, static_cast<int64_t>(positions.size()));
    if (bounds.isNull())
        bounds = pointsBounds(positions);
    std::vector<QPointF> npuAt(positions.begin(), positions.begin() + npus);
    return {npus, bounds,
            [at = std::move(npuAt)](int64_t id) { return at[static_cast<size_t>(id)]; }};
}

MemoryTierLayout::MemoryTierLayout(const NpuSites& sites, const RemoteMemoryConfig& memory)
    : m_memory(memory)
    , m_platform(sites.bounds) {
    if (sites.count <= 0 || !hasMemoryTier(memory))
        return;
    m_present = true;
    const int64_t npus = sites.count;
    m_deviceCount = memoryDeviceCount(memory, npus);
    const QRectF platform = sites.bounds;
    if (memory.type == RemoteMemoryType::PerNpuMemoryExpansion) {
        // The boxes hang under their NPUs; the band is the strip under the lowest of them.
        m_band = QRectF(platform.left(), platform.bottom(), platform.width(), 2.5 * kR);
        return;
    }
    const double gap = std::max(4 * kR, 0.08 * platform.height());
    double top = platform.bottom() + gap;
    const int64_t shown = std::max<int64_t>(m_deviceCount, 1);
    m_perBox = ceilDiv(shown, kMaxDrawnBoxes);
    const int64_t boxes = ceilDiv(shown, m_perBox);
    const double width = std::max(platform.width(), static_cast<double>(boxes) * kMinSlot);
    if (memory.type == RemoteMemoryType::Pooled) {
        m_fabric = QRectF(platform.center().x() - width / 2, top, width, kFabricHeight);
        top = m_fabric.bottom() + 3 * kR;
    }
    placeBoxes(platform, top, width);
    m_band = m_fabric;
    for (const Box& b : m_boxes)
        m_band = m_band.isNull() ? b.rect : m_band.united(b.rect);
    linkNpus(sites);
}

void MemoryTierLayout::placeBoxes(const QRectF& platform, double top, double width) {
    if (m_deviceCount <= 0)
        return;
    const int64_t boxes = ceilDiv(m_deviceCount, m_perBox);
    const double slot = width / static_cast<double>(boxes);
    const double w = boxes == 1 ? std::min(width * 0.6, 16 * kR) : std::min(slot * 0.72, 12 * kR);
    const double left = platform.center().x() - width / 2;
    for (int64_t i = 0; i < boxes; ++i) {
        const double cx = left + (static_cast<double>(i) + 0.5) * slot;
        const int64_t first = i * m_perBox;
        m_boxes.push_back(Box{QRectF(cx - w / 2, top, w, kBoxHeight), first,
                              std::min(m_perBox, m_deviceCount - first)});
    }
}

void MemoryTierLayout::linkNpus(const NpuSites& sites) {
    const int64_t npus = sites.count;
    // Every NPU up to kMaxNpuLinks, else kMaxNpuLinks of them spread evenly over the ids.
    const int64_t linked = std::min<int64_t>(npus, kMaxNpuLinks);
    const auto linkedNpu = [&](int64_t i) { return i * npus / linked; };
    const auto boxOf = [&](int64_t device) -> const Box* {
        const int64_t b = device / m_perBox;
        return device >= 0 && b < static_cast<int64_t>(m_boxes.size())
                   ? &m_boxes[static_cast<size_t>(b)]
                   : nullptr;
    };
    if (m_memory.type == RemoteMemoryType::Pooled && npus > kMaxNpuLinks) {
        // Too many ports to draw one by one: a comb of kMaxPortLines lines from the platform's
        // bottom edge across its width stands for them.
        const QRectF& platform = m_platform;
        for (int i = 0; i < kMaxPortLines; ++i) {
            const double x = platform.left() + (i + 0.5) * platform.width() / kMaxPortLines;
            m_links.emplace_back(QPointF(x, platform.bottom()), QPointF(x, m_fabric.top()));
        }
        for (const Box& b : m_boxes)
            m_links.emplace_back(QPointF(b.rect.center().x(), b.rect.top()),
                                 QPointF(b.rect.center().x(), m_fabric.bottom()));
        return;
    }
    if (m_memory.type == RemoteMemoryType::Pooled) {
        // NPUs above one another (a column of a grid) would share one port line: their lines
        // reach the fabric side by side, a bundle of as many ports.
        std::vector<QPointF> at;
        for (int64_t i = 0; i < linked; ++i)
            at.push_back(sites.at(linkedNpu(i)));
        std::vector<size_t> order(at.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return at[a].x() < at[b].x(); });
        for (size_t from = 0; from < order.size();) {
            size_t to = from;
            while (to < order.size() && std::abs(at[order[to]].x() - at[order[from]].x()) < 0.5)
                ++to;
            const double m = static_cast<double>(to - from);
            for (size_t k = from; k < to; ++k) {
                const QPointF npu = at[order[k]];
                const double offset =
                    m > 1 ? (static_cast<double>(k - from) - (m - 1) / 2) * (1.2 * kR / (m - 1))
                          : 0.0;
                m_links.emplace_back(npu, QPointF(npu.x() + offset, m_fabric.top()));
            }
            from = to;
        }
        for (const Box& b : m_boxes)
            m_links.emplace_back(QPointF(b.rect.center().x(), b.rect.top()),
                                 QPointF(b.rect.center().x(), m_fabric.bottom()));
        return;
    }
    if (m_memory.type == RemoteMemoryType::PerNodeMemoryExpansion && npus > kMaxNpuLinks) {
        // One link per box, from the centre of the NPUs it serves.
        std::vector<QPointF> sum(m_boxes.size());
        std::vector<int> count(m_boxes.size());
        for (int64_t id = 0; id < npus; ++id) {
            const int64_t device = memoryDeviceOf(m_memory, npus, id);
            if (device < 0)
                continue;
            const auto b = static_cast<size_t>(device / m_perBox);
            sum[b] += sites.at(id);
            ++count[b];
        }
        for (size_t b = 0; b < m_boxes.size(); ++b)
            if (count[b] > 0)
                m_links.emplace_back(sum[b] / count[b],
                                     QPointF(m_boxes[b].rect.center().x(), m_boxes[b].rect.top()));
        return;
    }
    for (int64_t i = 0; i < linked; ++i) {
        const int64_t id = linkedNpu(i);
        if (const Box* b = boxOf(memoryDeviceOf(m_memory, npus, id)))
            m_links.emplace_back(sites.at(id), QPointF(b->rect.center().x(), b->rect.top()));
    }
}

QRectF MemoryTierLayout::bounds() const {
    return m_present ? m_platform.united(m_band) : m_platform;
}

QRectF MemoryTierLayout::npuMemoryRect(QPointF c) {
    return QRectF(c.x() - 0.8 * kR, c.y() + 1.3 * kR, 1.6 * kR, 1.1 * kR);
}

QRectF MemoryTierLayout::tileMemoryRect(const QRectF& tile) {
    return QRectF(tile.left() + 0.15 * tile.width(), tile.bottom() - 0.2 * tile.height(),
                  0.7 * tile.width(), 0.12 * tile.height());
}

MemoryTierLayout::Hit MemoryTierLayout::hitTest(const NetworkLayout& layout, QPointF point,
                                                int collapseLevel) const {
    if (const Hit band = hitBand(point); band.part != Hit::Part::None || !m_present)
        return band;
    if (m_memory.type == RemoteMemoryType::PerNpuMemoryExpansion && collapseLevel == 0) {
        // The box hangs 1.3 to 2.4 radii under its NPU's centre.
        const NetworkLayout::Hit npu = layout.hitTest(point - QPointF(0, 1.85 * kR), 0);
        if (npu.level == 0 && npuMemoryRect(layout.npuPosition(npu.firstId)).contains(point))
            return {Hit::Part::NpuMemory, npu.firstId};
    }
    return {};
}

MemoryTierLayout::Hit MemoryTierLayout::hitTest(const NpuSites& sites, QPointF point) const {
    if (const Hit band = hitBand(point); band.part != Hit::Part::None || !m_present)
        return band;
    if (m_memory.type == RemoteMemoryType::PerNpuMemoryExpansion)
        for (int64_t id = 0; id < sites.count; ++id)
            if (npuMemoryRect(sites.at(id)).contains(point))
                return {Hit::Part::NpuMemory, id};
    return {};
}

MemoryTierLayout::Hit MemoryTierLayout::hitBand(QPointF point) const {
    if (!m_present)
        return {};
    for (size_t i = 0; i < m_boxes.size(); ++i)
        if (m_boxes[i].rect.contains(point))
            return {Hit::Part::Box, static_cast<int64_t>(i)};
    if (m_fabric.contains(point))
        return {Hit::Part::Fabric, -1};
    return {};
}

} // namespace astrolabe::widgets
