#include "topology/NetworkPainter.h"

#include "common/InterfaceScale.h"
#include "topology/DimensionColors.h"
#include "topology/ShapeBatches.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {
constexpr int kMaxChordChildren = 16; // fully connected blocks above this show no chords
constexpr double kNodeMinPixels = 3.5;
constexpr double kTileMinPixels = 5.0;
constexpr double kMaxTilePixels = 64.0;
constexpr int kMaxFullSpokes = 128;

struct LevelBatch {
    std::vector<QRectF> shapes;
    std::vector<QLineF> lines;
    std::vector<QLineF> wrapStubs; // of a torus grid's wrap-around links
    std::vector<int> wrapPeers;    // the NPU each stub leads to (at the other end of the grid)
    std::vector<QRectF> hubs;
};

struct Collected {
    std::vector<LevelBatch> levels;
    std::vector<NetworkLayout::GridLink> gridLinks; // scratch, reused grid after grid
    std::vector<std::pair<QRectF, int>> tiles;      // rect, first NPU id
    std::vector<std::pair<QRectF, int>> nodes;      // rect, NPU id
    int visited = 0;
};

struct CollectContext {
    const NetworkLayout& layout;
    QRectF visible; // scene coordinates
    int collapse;
    double scale;
};

// A switch with many ports would be a solid disk of overlapping spokes (and slow to draw): only
// every k-th spoke (at least ~6 px apart, at most 128 of them) runs to the hub; the others are
// stubs that show each child has its link.
void addSwitchLinks(const CollectContext& ctx, int l, QPointF centre, LevelBatch& batch) {
    const NetworkLayout::Level& lv = ctx.layout.level(l);
    const int n = lv.childCount;
    const QPointF hub = centre + lv.hubOffset;
    int every = 1;
    if (n > 64) {
        const QPointF step = lv.childOffsets[1] - lv.childOffsets[0];
        const double spacing = std::hypot(step.x(), step.y()) * ctx.scale;
        every = std::max(1, static_cast<int>(std::ceil(6.0 / std::max(spacing, 1e-9))));
        every = std::max(every, (n + kMaxFullSpokes - 1) / kMaxFullSpokes);
    }
    // Stubs reach a little beyond the child (whose background hides the part inside it).
    const double stubLength = ctx.layout.level(l - 1).boundRadius() * (l == 1 ? 3.0 : 1.4);
    for (int i = 0; i < n; ++i) {
        const QPointF child = centre + lv.childOffsets[static_cast<size_t>(i)];
        if (i % every == 0) {
            batch.lines.emplace_back(hub, child);
            continue;
        }
        const QPointF d = hub - child;
        const double length = std::hypot(d.x(), d.y());
        const double stub = std::min(length, stubLength);
        batch.lines.emplace_back(child, child + d * (stub / std::max(length, 1e-9)));
    }
    batch.hubs.emplace_back(hub.x() - lv.hubHalf, hub.y() - lv.hubHalf, 2 * lv.hubHalf,
                            2 * lv.hubHalf);
}

// Both dimensions of a torus grid are drawn NPU to NPU: each link joins adjacent cells, each
// wrap-around link is two stubs pointing out of the grid.
void addGridLinks(const CollectContext& ctx, QPointF centre, int firstId, Collected& out) {
    out.gridLinks.clear();
    ctx.layout.appendGridLinks(centre, firstId, ctx.visible, out.gridLinks);
    for (const NetworkLayout::GridLink& link : out.gridLinks) {
        // Rows drawn as tiles hide their own links.
        if (link.dimension == 0 && ctx.collapse >= 1)
            continue;
        LevelBatch& batch = out.levels[static_cast<size_t>(link.dimension + 1)];
        if (!link.wrap) {
            batch.lines.push_back(link.line);
            continue;
        }
        const auto stubs = NetworkLayout::wrapStubs(link.line.p1(), link.line.p2());
        batch.wrapStubs.insert(batch.wrapStubs.end(), stubs.begin(), stubs.end());
        batch.wrapPeers.push_back(link.to);
        batch.wrapPeers.push_back(link.from);
    }
}

void addBlockLinks(const CollectContext& ctx, int l, QPointF centre, LevelBatch& batch) {
    const NetworkLayout::Level& lv = ctx.layout.level(l);
    const int n = lv.childCount;
    const auto at = [&](int i) { return centre + lv.childOffsets[static_cast<size_t>(i)]; };
    switch (lv.kind) {
    case BlockKind::Ring:
        if (n == 2)
            batch.lines.emplace_back(at(0), at(1));
        else
            for (int i = 0; i < n && n > 2; ++i)
                batch.lines.emplace_back(at(i), at((i + 1) % n));
        break;
    case BlockKind::FullyConnected:
        if (n <= kMaxChordChildren)
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j)
                    batch.lines.emplace_back(at(i), at(j));
        break;
    case BlockKind::Switch:
        addSwitchLinks(ctx, l, centre, batch);
        break;
    }
}

// An open arrowhead at the outer end of each stub: the link leaves the grid here and comes
// back at the other end of its row or column.
std::vector<QLineF> arrowheads(const std::vector<QLineF>& stubs) {
    std::vector<QLineF> heads;
    heads.reserve(2 * stubs.size());
    const double size = 0.14 * NetworkLayout::kGridPitch;
    for (const QLineF& stub : stubs) {
        const QPointF tip = stub.p2();
        const QPointF u = (stub.p2() - stub.p1()) / std::max(stub.length(), 1e-9);
        const QPointF side(-u.y(), u.x());
        heads.emplace_back(tip, tip - u * size + side * size * 0.7);
        heads.emplace_back(tip, tip - u * size - side * size * 0.7);
    }
    return heads;
}

void collect(const CollectContext& ctx, int l, QPointF centre, int firstId, Collected& out) {
    const NetworkLayout& layout = ctx.layout;
    const QRectF rect = layout.groupRect(l, centre);
    if (!ctx.visible.intersects(rect))
        return;
    ++out.visited;
    if (l == 0) {
        out.nodes.emplace_back(rect, firstId);
        return;
    }
    if (l == ctx.collapse) {
        out.tiles.emplace_back(rect, firstId);
        return;
    }
    const NetworkLayout::Level& lv = layout.level(l);
    LevelBatch& batch = out.levels[static_cast<size_t>(l)];
    const int n = lv.childCount;
    const auto at = [&](int i) { return centre + lv.childOffsets[static_cast<size_t>(i)]; };
    using Arrangement = NetworkLayout::Arrangement;
    // The rows of a torus grid share the grid's background; the grid draws their links.
    if (lv.arrangement != Arrangement::GridRow)
        batch.shapes.push_back(rect);
    if (lv.arrangement == Arrangement::Grid)
        addGridLinks(ctx, centre, firstId, out);
    else if (lv.arrangement != Arrangement::GridRow)
        addBlockLinks(ctx, l, centre, batch);
    const int stride = layout.level(l - 1).npusPerGroup;
    for (int i = 0; i < n; ++i)
        collect(ctx, l - 1, at(i), firstId + i * stride, out);
}

// Matching markers for the wrap-around stubs: beside each one, the NPU it leads to ("to 0" out
// of NPU 3 in a row of four, "to 3" out of NPU 0).
void paintWrapLabels(QPainter& p, const Collected& c, const NetworkViewState& state) {
    const double s = state.scale;
    p.save(); // the legend is painted after, in the widget's font
    QFont font = p.font();
    font.setPixelSize(std::clamp(static_cast<int>(NetworkLayout::kNodeRadius * s * 0.5),
                                 InterfaceScale::px(8), InterfaceScale::px(12)));
    p.setFont(font);
    const QFontMetricsF metrics(font);
    for (size_t l = 1; l < c.levels.size() && l <= 2; ++l) {
        const LevelBatch& b = c.levels[l];
        p.setPen(
            InterfaceScale::pick(dimensionColor(static_cast<int>(l) - 1).darker(140), Qt::black));
        for (size_t i = 0; i < b.wrapStubs.size(); ++i) {
            const QLineF stub(b.wrapStubs[i].p1() * s + state.offset,
                              b.wrapStubs[i].p2() * s + state.offset);
            const QString text = QObject::tr("to %1").arg(b.wrapPeers[i]);
            const QSizeF size(metrics.horizontalAdvance(text) + 2, metrics.height());
            // Above a horizontal stub, right of a vertical one, between the NPU and the tip.
            const QPointF at = stub.pointAt(0.62);
            const bool horizontal = std::abs(stub.dx()) > std::abs(stub.dy());
            const QPointF topLeft = horizontal
                                        ? QPointF(at.x() - size.width() / 2, at.y() - size.height())
                                        : QPointF(at.x() + 4, at.y() - size.height() / 2);
            p.drawText(QRectF(topLeft, size), Qt::AlignCenter, text);
        }
    }
    p.restore();
}

} // namespace

NetworkPainter::NetworkPainter(const NetworkLayout& layout, const PlatformSpec& platform)
    : m_layout(layout)
    , m_platform(platform) {}

int NetworkPainter::collapseLevelFor(const NetworkLayout& layout, double scale) {
    const auto pixels = [&](int l) { return 2 * layout.level(l).boundRadius() * scale; };
    for (int l = 0; l < layout.topLevel(); ++l) {
        // The rows of a torus grid are never tiles (a stack of thin bars): the NPUs are drawn
        // as dots, or whole grids as tiles.
        if (layout.level(l).arrangement == NetworkLayout::Arrangement::GridRow)
            continue;
        // Level l is drawn when its groups are big enough, or when the next level would make
        // tiles so large that a flat tile hides what a grid of small dots still shows.
        if (pixels(l) >= (l == 0 ? kNodeMinPixels : kTileMinPixels) ||
            pixels(l + 1) >= kMaxTilePixels)
            return l;
    }
    return layout.topLevel();
}

std::vector<int> NetworkPainter::neighbours(int id, int d) const {
    const NetworkLayout::Level& lv = m_layout.level(d + 1);
    const int n = lv.childCount;
    const int stride = m_layout.level(d).npusPerGroup;
    const int a = m_layout.coordinates(id)[static_cast<size_t>(d)];
    std::vector<int> out;
    if (lv.kind == BlockKind::Ring) {
        for (int b : {(a + n - 1) % n, (a + 1) % n})
            if (b != a && std::find(out.begin(), out.end(), id + (b - a) * stride) == out.end())
                out.push_back(id + (b - a) * stride);
    } else {
        // Fully connected peers, or the NPUs sharing this NPU's switch.
        for (int b = 0; b < n; ++b)
            if (b != a)
                out.push_back(id + (b - a) * stride);
    }
    return out;
}

NetworkPaintStats NetworkPainter::paint(QPainter& p, const QRectF& widgetRect,
                                        const NetworkViewState& state) const {
    NetworkPaintStats stats;
    if (!m_layout.drawable())
        return stats;
    const double s = state.scale;
    const QRectF visible((widgetRect.left() - state.offset.x()) / s,
                         (widgetRect.top() - state.offset.y()) / s, widgetRect.width() / s,
                         widgetRect.height() / s);
    Collected c;
    c.levels.resize(static_cast<size_t>(m_layout.topLevel() + 1));
    collect(CollectContext{m_layout, visible, state.collapseLevel, s}, m_layout.topLevel(),
            QPointF(), 0, c);

    p.save();
    p.translate(state.offset);
    p.scale(s, s);
    p.setRenderHint(QPainter::Antialiasing, true);
    // Outer levels first: a child's opaque background hides the bundle lines under it.
    for (int l = m_layout.topLevel(); l >= 1; --l) {
        const LevelBatch& b = c.levels[static_cast<size_t>(l)];
        const QColor color = dimensionColor(l - 1);
        QPen outline(InterfaceScale::pick(tint(color, 0.45), color), InterfaceScale::penWidth(1));
        outline.setCosmetic(true);
        p.setPen(outline);
        p.setBrush(tint(color, l == 1 ? 0.14 : 0.06));
        stampShapes(p, b.shapes, m_layout.level(l).circular);
        const bool selected = state.selectedDimension == l - 1;
        // Wide pens go through Qt's general stroker; past a few hundred lines the 1 px cosmetic
        // path keeps the frame short.
        const bool many = b.lines.size() > 300;
        QPen edge(selected ? color.darker(130) : color,
                  many ? 1.0 : InterfaceScale::penWidth(selected ? 3.5 : (l == 1 ? 1.4 : 2.2)));
        edge.setCosmetic(true);
        p.setPen(edge);
        p.drawLines(b.lines.data(), static_cast<int>(b.lines.size()));
        if (!b.wrapStubs.empty()) {
            p.drawLines(b.wrapStubs.data(), static_cast<int>(b.wrapStubs.size()));
            if (NetworkLayout::kGridPitch * s >= 10) {
                const std::vector<QLineF> heads = arrowheads(b.wrapStubs);
                p.drawLines(heads.data(), static_cast<int>(heads.size()));
            }
        }
        p.setBrush(color.darker(150));
        p.setPen(Qt::NoPen);
        for (const QRectF& hub : b.hubs)
            p.drawRoundedRect(hub, hub.width() * 0.2, hub.width() * 0.2);
        stats.lines += static_cast<int>(b.lines.size() + b.wrapStubs.size());
    }
    if (!c.tiles.empty()) {
        const int l = state.collapseLevel;
        const QColor color = dimensionColor(l - 1);
        QPen pen(color.darker(120), InterfaceScale::penWidth(1));
        pen.setCosmetic(true);
        p.setPen(pen);
        p.setBrush(tint(color, 0.5));
        std::vector<QRectF> rects;
        rects.reserve(c.tiles.size());
        for (const auto& t : c.tiles)
            rects.push_back(t.first);
        const Glyph glyph{m_layout.level(l).kind, color.darker(140)};
        stampShapes(p, rects, m_layout.level(l).circular, &glyph);
    }
    if (!c.nodes.empty()) {
        const double diameter = 2 * NetworkLayout::kNodeRadius * s;
        p.setBrush(InterfaceScale::pick(QColor(0x34, 0x49, 0x5e), Qt::black));
        std::vector<QRectF> rects;
        rects.reserve(c.nodes.size());
        for (const auto& node : c.nodes)
            rects.push_back(node.first);
        if (diameter >= 7) {
            QPen pen(Qt::white, InterfaceScale::penWidth(1));
            pen.setCosmetic(true);
            p.setPen(pen);
            stampShapes(p, rects, true);
        } else {
            // Dots of at least 2 px, so a large platform at fit still shows its NPUs.
            const double minSide = 2 / s;
            if (2 * NetworkLayout::kNodeRadius < minSide)
                for (QRectF& r : rects)
                    r = QRectF(r.center() - QPointF(minSide, minSide) / 2,
                               QSizeF(minSide, minSide));
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setPen(Qt::NoPen);
            p.drawRects(rects.data(), static_cast<int>(rects.size()));
            p.setRenderHint(QPainter::Antialiasing, true);
        }
    }
    if (state.selectedGroup.level >= 1)
        paintOutline(p, state.selectedGroup, QColor(0xe7, 0x4c, 0x3c), InterfaceScale::penWidth(3));
    if (state.hovered.level >= 1)
        paintOutline(p, state.hovered, QColor(0x2c, 0x3e, 0x50), InterfaceScale::penWidth(1.5));
    if (state.hovered.level == 0)
        paintHoveredNpu(p, state);
    p.restore();

    // Labels in widget coordinates so the text keeps its size at every zoom. The legend is
    // painted after, in the widget's font: the labels' sizes stay here.
    p.save();
    const double nodePixels = 2 * NetworkLayout::kNodeRadius * s;
    if (nodePixels >= 18 && c.nodes.size() <= 2000) {
        QFont font = p.font();
        font.setPixelSize(std::clamp(static_cast<int>(nodePixels * 0.42), InterfaceScale::px(8),
                                     InterfaceScale::px(14)));
        p.setFont(font);
        const int hoveredNpu = state.hovered.level == 0 ? state.hovered.firstId : -1;
        for (const auto& node : c.nodes) {
            const QRectF r(node.first.topLeft() * s + state.offset, node.first.size() * s);
            p.setPen(node.second == hoveredNpu ? QColor(0x2c, 0x3e, 0x50) : QColor(Qt::white));
            p.drawText(r, Qt::AlignCenter, QString::number(node.second));
        }
    }
    if (nodePixels >= 18)
        paintWrapLabels(p, c, state);
    const double tilePixels = c.tiles.empty() ? 0 : c.tiles.front().first.width() * s;
    if (tilePixels >= 56 && c.tiles.size() <= 400) {
        const int per = m_layout.level(state.collapseLevel).npusPerGroup;
        p.setPen(InterfaceScale::pick(QColor(0x2c, 0x3e, 0x50), Qt::black));
        for (const auto& t : c.tiles) {
            const QRectF r(t.first.topLeft() * s + state.offset, t.first.size() * s);
            p.drawText(r, Qt::AlignCenter,
                       QStringLiteral("%1\u2013%2").arg(t.second).arg(t.second + per - 1));
        }
    }
    p.restore();
    stats.groupsVisited = c.visited;
    stats.tiles = static_cast<int>(c.tiles.size());
    stats.nodes = static_cast<int>(c.nodes.size());
    return stats;
}

void NetworkPainter::paintOutline(QPainter& p, const NetworkLayout::Hit& hit, const QColor& color,
                                  double width) const {
    const QPointF centre = m_layout.groupCentre(hit.level, hit.firstId);
    QPen pen(color, width);
    pen.setCosmetic(true);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    drawShape(p, m_layout.groupRect(hit.level, centre), m_layout.level(hit.level).circular);
}

void NetworkPainter::paintHoveredNpu(QPainter& p, const NetworkViewState& state) const {
    const int id = state.hovered.firstId;
    const QPointF from = m_layout.npuPosition(id);
    const double r = NetworkLayout::kNodeRadius;
    for (int d = 0; d < m_layout.dimensionCount(); ++d) {
        QPen pen(dimensionColor(d).darker(110), InterfaceScale::penWidth(3));
        pen.setCosmetic(true);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        const NetworkLayout::Level& lv = m_layout.level(d + 1);
        const bool viaSwitch = lv.kind == BlockKind::Switch;
        if (viaSwitch)
            p.drawLine(from, m_layout.groupCentre(d + 1, id) + lv.hubOffset);
        // In a torus grid, the wrap-around peer is reached by the stubs, as drawn.
        const bool inGrid = d <= 1 && m_layout.hasTorusGrid();
        const int a = m_layout.coordinates(id)[static_cast<size_t>(d)];
        const std::vector<int> peers = neighbours(id, d);
        for (size_t i = 0; i < peers.size() && i < 64; ++i) {
            const QPointF to = m_layout.npuPosition(peers[i]);
            const int b = m_layout.coordinates(peers[i])[static_cast<size_t>(d)];
            if (inGrid && lv.childCount >= 3 && std::abs(a - b) == lv.childCount - 1) {
                for (const QLineF& stub : NetworkLayout::wrapStubs(from, to))
                    p.drawLine(stub);
            } else if (!viaSwitch) {
                p.drawLine(from, to);
            }
            p.drawEllipse(to, r * 1.5, r * 1.5);
        }
    }
    QPen pen(QColor(0xe7, 0x4c, 0x3c), InterfaceScale::penWidth(3));
    pen.setCosmetic(true);
    p.setPen(pen);
    p.setBrush(QColor(0xf1, 0xc4, 0x0f));
    p.drawEllipse(from, r * 1.4, r * 1.4);
}

} // namespace astrolabe::widgets
