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

void layoutTiles(NetworkLayout::Level& level, const NetworkLayout::Level& child, double gap,
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
    level.arrangement = NetworkLayout::Arrangement::Tiles;
    level.circular = false;
    level.halfWidth = cols * cellW / 2 + pad;
    level.halfHeight = (rows * cellH + hubSpace) / 2 + pad;
}

// A row of a torus grid: NPUs along x. Rows are a little less than a pitch high, so that the
// rows of a grid never overlap (hit testing takes the first group that contains the point).
void layoutGridRow(NetworkLayout::Level& level) {
    constexpr double pitch = NetworkLayout::kGridPitch;
    const int n = level.childCount;
    for (int x = 0; x < n; ++x)
        level.childOffsets.emplace_back((x - (n - 1) / 2.0) * pitch, 0);
    level.arrangement = NetworkLayout::Arrangement::GridRow;
    level.circular = false;
    level.halfWidth = n * pitch / 2;
    level.halfHeight = 0.4 * pitch;
}

// The rows stacked along y at the same pitch, with a margin for the wrap-around stubs.
void layoutGridRows(NetworkLayout::Level& level, const NetworkLayout::Level& row) {
    constexpr double pitch = NetworkLayout::kGridPitch;
    const int n = level.childCount;
    for (int y = 0; y < n; ++y)
        level.childOffsets.emplace_back(0, (y - (n - 1) / 2.0) * pitch);
    const double margin = NetworkLayout::kWrapStubLength - pitch / 2 + NetworkLayout::kNodeRadius;
    level.arrangement = NetworkLayout::Arrangement::Grid;
    level.circular = false;
    level.halfWidth = row.halfWidth + margin;
    level.halfHeight = n * pitch / 2 + margin;
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
    const std::vector<DimensionSpec>& dims = platform.dimensions;
    const bool torus =
        dims.size() >= 2 && dims[0].kind == BlockKind::Ring && dims[1].kind == BlockKind::Ring;
    for (const DimensionSpec& d : dims) {
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
        // Two inner rings make a torus grid. Groups of groups form a ring only when there are
        // few of them (3 to 6 children read as a circle); otherwise a compact grid of tiles in
        // snake order.
        if (torus && npus)
            layoutGridRow(level);
        else if (torus && m_levels.size() == 2)
            layoutGridRows(level, child);
        else if (!npus && (d.size > kMaxCircularChildren || d.size < 3))
            layoutTiles(level, child, gap, pad);
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

bool NetworkLayout::hasTorusGrid() const {
    return dimensionCount() >= 2 && level(2).arrangement == Arrangement::Grid;
}

void NetworkLayout::appendGridLinks(QPointF centre, int firstId, const QRectF& visible,
                                    std::vector<GridLink>& out) const {
    const Level& rows = level(2);
    const Level& row = level(1);
    const int columnCount = row.childCount;
    const int rowCount = rows.childCount;
    // Stubs reach out of the grid: a link just outside the visible area may still show.
    const QRectF area = visible.adjusted(-kGridPitch, -kGridPitch, kGridPitch, kGridPitch);
    const auto at = [&](int x, int y) {
        return centre + rows.childOffsets[static_cast<size_t>(y)] +
               row.childOffsets[static_cast<size_t>(x)];
    };
    const auto add = [&](int fx, int fy, int tx, int ty, int dimension, bool wrap) {
        const QPointF p = at(fx, fy);
        const QPointF q = at(tx, ty);
        // Axis-aligned, so the bounding box test is exact (QRectF::intersects rejects lines).
        if (std::max(p.x(), q.x()) < area.left() || std::min(p.x(), q.x()) > area.right() ||
            std::max(p.y(), q.y()) < area.top() || std::min(p.y(), q.y()) > area.bottom())
            return;
        out.push_back({firstId + fx + fy * columnCount, firstId + tx + ty * columnCount, dimension,
                       wrap, QLineF(p, q)});
    };
    // A ring of two has one link; from three on, the last NPU links back to the first.
    for (int y = 0; y < rowCount; ++y) {
        for (int x = 0; x + 1 < columnCount; ++x)
            add(x, y, x + 1, y, 0, false);
        if (columnCount >= 3)
            add(columnCount - 1, y, 0, y, 0, true);
    }
    for (int x = 0; x < columnCount; ++x) {
        for (int y = 0; y + 1 < rowCount; ++y)
            add(x, y, x, y + 1, 1, false);
        if (rowCount >= 3)
            add(x, rowCount - 1, x, 0, 1, true);
    }
}

std::vector<NetworkLayout::GridLink> NetworkLayout::gridLinks(int id) const {
    std::vector<GridLink> links;
    if (!hasTorusGrid())
        return links;
    const int firstId = id - id % level(2).npusPerGroup;
    appendGridLinks(groupCentre(2, id), firstId, bounds(), links);
    return links;
}

std::array<QLineF, 2> NetworkLayout::wrapStubs(QPointF last, QPointF first) {
    const QPointF d = last - first;
    const double length = std::max(std::hypot(d.x(), d.y()), 1e-9);
    const QPointF out = d * (kWrapStubLength / length);
    return {QLineF(last, last + out), QLineF(first, first - out)};
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
