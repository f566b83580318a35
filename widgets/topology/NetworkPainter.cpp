#include "topology/NetworkPainter.h"

#include "topology/DimensionColors.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {
constexpr int kMaxChordChildren = 16; // fully connected blocks above this show no chords
constexpr double kNodeMinPixels = 3.5;
constexpr double kTileMinPixels = 5.0;

struct LevelBatch {
    std::vector<QRectF> shapes;
    std::vector<QLineF> lines;
    std::vector<QRectF> hubs;
};

struct Collected {
    std::vector<LevelBatch> levels;
    std::vector<std::pair<QRectF, int>> tiles; // rect, first NPU id
    std::vector<std::pair<QRectF, int>> nodes; // rect, NPU id
    int visited = 0;
};

void collect(const NetworkLayout& layout, const QRectF& visible, int collapse, int l,
             QPointF centre, int firstId, Collected& out) {
    const QRectF rect = layout.groupRect(l, centre);
    if (!visible.intersects(rect))
        return;
    ++out.visited;
    if (l == 0) {
        out.nodes.emplace_back(rect, firstId);
        return;
    }
    if (l == collapse) {
        out.tiles.emplace_back(rect, firstId);
        return;
    }
    const NetworkLayout::Level& lv = layout.level(l);
    LevelBatch& batch = out.levels[static_cast<size_t>(l)];
    batch.shapes.push_back(rect);
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
    case BlockKind::Switch: {
        const QPointF hub = centre + lv.hubOffset;
        for (int i = 0; i < n; ++i)
            batch.lines.emplace_back(hub, at(i));
        batch.hubs.emplace_back(hub.x() - lv.hubHalf, hub.y() - lv.hubHalf, 2 * lv.hubHalf,
                                2 * lv.hubHalf);
        break;
    }
    }
    const int stride = layout.level(l - 1).npusPerGroup;
    for (int i = 0; i < n; ++i)
        collect(layout, visible, collapse, l - 1, at(i), firstId + i * stride, out);
}

void drawShapes(QPainter& p, const std::vector<QRectF>& shapes, bool circular, double scale) {
    for (const QRectF& r : shapes) {
        if (circular)
            p.drawEllipse(r);
        else
            p.drawRoundedRect(r, 8 / scale, 8 / scale);
    }
}

// Many equal shapes (NPUs, tiles, small groups) are rendered once into a sprite and stamped
// with drawPixmapFragments: thousands of antialiased ellipses would cost far more than a frame.
// `p` has the scene transform; the sprite is stamped in device pixels.
void stampShapes(QPainter& p, const std::vector<QRectF>& shapes, bool circular) {
    if (shapes.size() < 48) {
        drawShapes(p, shapes, circular, p.transform().m11());
        return;
    }
    const QTransform t = p.transform();
    const QSizeF size = t.mapRect(shapes.front()).size();
    if (size.width() > 512 || size.height() > 512) {
        drawShapes(p, shapes, circular, t.m11());
        return;
    }
    QPixmap sprite(static_cast<int>(std::ceil(size.width())) + 2,
                   static_cast<int>(std::ceil(size.height())) + 2);
    sprite.fill(Qt::transparent);
    {
        QPainter sp(&sprite);
        sp.setRenderHint(QPainter::Antialiasing);
        sp.setPen(p.pen());
        sp.setBrush(p.brush());
        const QRectF r(1, 1, size.width(), size.height());
        if (circular)
            sp.drawEllipse(r.adjusted(0.5, 0.5, -0.5, -0.5));
        else
            sp.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 8, 8);
    }
    std::vector<QPainter::PixmapFragment> fragments;
    fragments.reserve(shapes.size());
    for (const QRectF& r : shapes) {
        const QPointF c = t.map(r.center());
        fragments.push_back(QPainter::PixmapFragment::create(
            QPointF(std::round(c.x()), std::round(c.y())), QRectF(sprite.rect())));
    }
    p.save();
    p.resetTransform();
    p.drawPixmapFragments(fragments.data(), static_cast<int>(fragments.size()), sprite);
    p.restore();
}
} // namespace

NetworkPainter::NetworkPainter(const NetworkLayout& layout, const PlatformSpec& platform)
    : m_layout(layout)
    , m_platform(platform) {}

int NetworkPainter::collapseLevelFor(const NetworkLayout& layout, double scale) {
    for (int l = 0; l <= layout.topLevel(); ++l) {
        const double pixels = 2 * layout.level(l).boundRadius() * scale;
        if (pixels >= (l == 0 ? kNodeMinPixels : kTileMinPixels))
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
    } else if (lv.kind == BlockKind::FullyConnected) {
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
    collect(m_layout, visible, state.collapseLevel, m_layout.topLevel(), QPointF(), 0, c);

    p.save();
    p.translate(state.offset);
    p.scale(s, s);
    p.setRenderHint(QPainter::Antialiasing, true);
    // Outer levels first: a child's opaque background hides the bundle lines under it.
    for (int l = m_layout.topLevel(); l >= 1; --l) {
        const LevelBatch& b = c.levels[static_cast<size_t>(l)];
        const QColor color = dimensionColor(l - 1);
        QPen outline(tint(color, 0.45), 1);
        outline.setCosmetic(true);
        p.setPen(outline);
        p.setBrush(tint(color, l == 1 ? 0.14 : 0.06));
        stampShapes(p, b.shapes, m_layout.level(l).circular);
        const bool selected = state.selectedDimension == l - 1;
        QPen edge(selected ? color.darker(130) : color, selected ? 3.5 : (l == 1 ? 1.4 : 2.2));
        edge.setCosmetic(true);
        p.setPen(edge);
        p.drawLines(b.lines.data(), static_cast<int>(b.lines.size()));
        p.setBrush(color.darker(150));
        p.setPen(Qt::NoPen);
        for (const QRectF& hub : b.hubs)
            p.drawRoundedRect(hub, hub.width() * 0.2, hub.width() * 0.2);
        stats.lines += static_cast<int>(b.lines.size());
    }
    if (!c.tiles.empty()) {
        const int l = state.collapseLevel;
        const QColor color = dimensionColor(l - 1);
        QPen pen(color.darker(120), 1);
        pen.setCosmetic(true);
        p.setPen(pen);
        p.setBrush(tint(color, 0.5));
        std::vector<QRectF> rects;
        rects.reserve(c.tiles.size());
        for (const auto& t : c.tiles)
            rects.push_back(t.first);
        stampShapes(p, rects, m_layout.level(l).circular);
    }
    if (!c.nodes.empty()) {
        const double diameter = 2 * NetworkLayout::kNodeRadius * s;
        p.setBrush(QColor(0x34, 0x49, 0x5e));
        std::vector<QRectF> rects;
        rects.reserve(c.nodes.size());
        for (const auto& node : c.nodes)
            rects.push_back(node.first);
        if (diameter >= 7) {
            QPen pen(Qt::white, 1);
            pen.setCosmetic(true);
            p.setPen(pen);
            stampShapes(p, rects, true);
        } else {
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setPen(Qt::NoPen);
            p.drawRects(rects.data(), static_cast<int>(rects.size()));
            p.setRenderHint(QPainter::Antialiasing, true);
        }
    }
    if (state.selectedGroup.level >= 1)
        paintOutline(p, state.selectedGroup, QColor(0xe7, 0x4c, 0x3c), 3);
    if (state.hovered.level >= 1)
        paintOutline(p, state.hovered, QColor(0x2c, 0x3e, 0x50), 1.5);
    if (state.hovered.level == 0)
        paintHoveredNpu(p, state);
    p.restore();

    // Labels in widget coordinates so the text keeps its size at every zoom.
    const double nodePixels = 2 * NetworkLayout::kNodeRadius * s;
    if (nodePixels >= 18 && c.nodes.size() <= 2000) {
        QFont font = p.font();
        font.setPixelSize(std::clamp(static_cast<int>(nodePixels * 0.42), 8, 14));
        p.setFont(font);
        p.setPen(Qt::white);
        for (const auto& node : c.nodes) {
            const QRectF r(node.first.topLeft() * s + state.offset, node.first.size() * s);
            p.drawText(r, Qt::AlignCenter, QString::number(node.second));
        }
    }
    const double tilePixels = c.tiles.empty() ? 0 : c.tiles.front().first.width() * s;
    if (tilePixels >= 56 && c.tiles.size() <= 400) {
        const int per = m_layout.level(state.collapseLevel).npusPerGroup;
        p.setPen(QColor(0x2c, 0x3e, 0x50));
        for (const auto& t : c.tiles) {
            const QRectF r(t.first.topLeft() * s + state.offset, t.first.size() * s);
            p.drawText(r, Qt::AlignCenter,
                       QStringLiteral("%1\u2013%2").arg(t.second).arg(t.second + per - 1));
        }
    }
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
    drawShapes(p, {m_layout.groupRect(hit.level, centre)}, m_layout.level(hit.level).circular,
               p.transform().m11());
}

void NetworkPainter::paintHoveredNpu(QPainter& p, const NetworkViewState& state) const {
    const int id = state.hovered.firstId;
    const QPointF from = m_layout.npuPosition(id);
    const double r = NetworkLayout::kNodeRadius;
    for (int d = 0; d < m_layout.dimensionCount(); ++d) {
        QPen pen(dimensionColor(d).darker(110), 3);
        pen.setCosmetic(true);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        const NetworkLayout::Level& lv = m_layout.level(d + 1);
        if (lv.kind == BlockKind::Switch) {
            p.drawLine(from, m_layout.groupCentre(d + 1, id) + lv.hubOffset);
            continue;
        }
        const std::vector<int> peers = neighbours(id, d);
        for (size_t i = 0; i < peers.size() && i < 64; ++i) {
            const QPointF to = m_layout.npuPosition(peers[i]);
            p.drawLine(from, to);
            p.drawEllipse(to, r * 1.5, r * 1.5);
        }
    }
    QPen pen(QColor(0xe7, 0x4c, 0x3c), 3);
    pen.setCosmetic(true);
    p.setPen(pen);
    p.setBrush(QColor(0xf1, 0xc4, 0x0f));
    p.drawEllipse(from, r * 1.4, r * 1.4);
}

} // namespace astrolabe::widgets
