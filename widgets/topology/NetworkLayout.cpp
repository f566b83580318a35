#include "topology/NetworkLayout.h"

#include "topology/TopologyMath.h"

#include <QtMath>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {
constexpr int kMaxCircularChildren = 6; // above this, groups of groups go on a grid

void layoutCircle(NetworkLayout::Level& level, double childRadius, double gap, double pad) {
    const int n = level.childCount;
    double radius = 0;
    if (n == 2)
        radius = childRadius + gap / 2;
    else if (n > 2)
        radius = (2 * childRadius + gap) / (2 * std::sin(M_PI / n));
    if (level.hasHub) {
        // A big switch gets a hub that stays visible when the circle is fitted to the view.
        level.hubHalf =
            std::max({NetworkLayout::kNodeRadius * 1.6, childRadius * 0.25, radius * 0.04});
        radius = std::max(radius, childRadius + level.hubHalf * 1.5 + gap);
    }
    // Start top-left and go clockwise (y points down), so four children make a square.
    const double start = -M_PI / 2 - (n > 1 ? M_PI / n : 0);
    for (int i = 0; i < n; ++i) {
        const double a = start + 2 * M_PI * i / n;
        level.childOffsets.emplace_back(radius * std::cos(a), radius * std::sin(a));
    }
    level.circular = true;
    level.halfWidth = level.halfHeight = radius + childRadius + pad;
}

void layoutGrid(NetworkLayout::Level& level, const NetworkLayout::Level& child, double gap,
                double pad) {
    const int n = level.childCount;
    const double cellW = 2 * child.halfWidth + gap;
    const double cellH = 2 * child.halfHeight + gap;
    const int cols = std::clamp(static_cast<int>(std::ceil(std::sqrt(n * cellH / cellW))), 1, n);
    const int rows = (n + cols - 1) / cols;
    level.hubHalf =
        level.hasHub ? std::max(NetworkLayout::kNodeRadius * 3, child.halfWidth * 0.12) : 0;
    const double hubSpace = level.hasHub ? 2 * gap + 2 * level.hubHalf : 0;
    const double top = -rows * cellH / 2 + hubSpace / 2;
    for (int i = 0; i < n; ++i) {
        const int r = i / cols;
        int c = i % cols;
        if (r % 2 == 1)
            c = cols - 1 - c; // snake order: ring neighbours stay adjacent
        level.childOffsets.emplace_back(-cols * cellW / 2 + (c + 0.5) * cellW,
                                        top + (r + 0.5) * cellH);
    }
    level.hubOffset = QPointF(0, top - gap - level.hubHalf);
    level.circular = false;
    level.halfWidth = cols * cellW / 2 + pad;
    level.halfHeight = (rows * cellH + hubSpace) / 2 + pad;
}
} // namespace

double NetworkLayout::Level::boundRadius() const {
    return circular ? halfWidth : std::hypot(halfWidth, halfHeight);
}

NetworkLayout::NetworkLayout(const PlatformSpec& platform) {
    const int64_t total = npuCount64(platform);
    m_drawable = total >= 1 && total <= kMaxDrawableNpus;
    if (!m_drawable)
        return;
    m_npuCount = static_cast<int>(total);
    m_levels.emplace_back(); // level 0: one NPU
    for (const DimensionSpec& d : platform.dimensions) {
        const Level& child = m_levels.back();
        Level level;
        level.kind = d.kind;
        level.childCount = d.size;
        level.npusPerGroup = child.npusPerGroup * d.size;
        level.hasHub = d.kind == BlockKind::Switch;
        const double childRadius = child.boundRadius();
        const bool npus = m_levels.size() == 1;
        const double gap = npus ? kNodeRadius * 1.5 : std::max(12.0, childRadius * 0.3);
        const double pad = npus ? kNodeRadius * 1.5 : std::max(8.0, childRadius * 0.12);
        level.childOffsets.reserve(static_cast<size_t>(d.size));
        // Groups of groups form a ring only when there are few of them (3 to 6 children read
        // as a circle); otherwise a compact grid of tiles in snake order.
        if (!npus && (d.size > kMaxCircularChildren || d.size < 3))
            layoutGrid(level, child, gap, pad);
        else
            layoutCircle(level, childRadius, gap, pad);
        m_levels.push_back(std::move(level));
    }
}

QRectF NetworkLayout::groupRect(int l, QPointF centre) const {
    const Level& lv = level(l);
    return QRectF(centre.x() - lv.halfWidth, centre.y() - lv.halfHeight, 2 * lv.halfWidth,
                  2 * lv.halfHeight);
}

bool NetworkLayout::groupContains(int l, QPointF centre, QPointF point) const {
    const Level& lv = level(l);
    const QPointF d = point - centre;
    if (lv.circular)
        return d.x() * d.x() + d.y() * d.y() <= lv.halfWidth * lv.halfWidth;
    return std::fabs(d.x()) <= lv.halfWidth && std::fabs(d.y()) <= lv.halfHeight;
}

std::vector<int> NetworkLayout::coordinates(int id) const {
    std::vector<int> c;
    for (int l = 1; l <= topLevel(); ++l) {
        c.push_back(id % level(l).childCount);
        id /= level(l).childCount;
    }
    return c;
}

QPointF NetworkLayout::groupCentre(int l, int id) const {
    const std::vector<int> c = coordinates(id);
    QPointF centre;
    for (int k = topLevel(); k > l; --k)
        centre += level(k).childOffsets[static_cast<size_t>(c[static_cast<size_t>(k - 1)])];
    return centre;
}

NetworkLayout::Hit NetworkLayout::hitTest(QPointF point, int stopLevel) const {
    if (!m_drawable || !groupContains(topLevel(), QPointF(), point))
        return {};
    QPointF centre;
    int firstId = 0;
    int l = topLevel();
    while (l > stopLevel) {
        const Level& lv = level(l);
        int found = -1;
        for (int i = 0; i < lv.childCount && found < 0; ++i) {
            if (groupContains(l - 1, centre + lv.childOffsets[static_cast<size_t>(i)], point))
                found = i;
        }
        if (found < 0)
            break;
        centre += lv.childOffsets[static_cast<size_t>(found)];
        firstId += found * level(l - 1).npusPerGroup;
        --l;
    }
    return {l, firstId};
}

} // namespace astrolabe::widgets
