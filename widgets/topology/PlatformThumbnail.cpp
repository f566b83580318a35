#include "topology/PlatformThumbnail.h"

#include "topology/GraphLayout.h"
#include "topology/MemoryTierLayout.h"
#include "topology/MemoryTierPainter.h"
#include "topology/NetworkLayout.h"
#include "topology/NetworkPainter.h"

#include <QPainter>
#include <algorithm>

namespace astrolabe::widgets {

namespace {

// Fits `bounds` into `size` with a margin of 6 % on each side, the drawing centred.
NetworkViewState fitted(const QRectF& bounds, QSize size) {
    NetworkViewState state;
    state.scale = 0.88 * std::min(size.width() / std::max(bounds.width(), 1.0),
                                  size.height() / std::max(bounds.height(), 1.0));
    state.offset = QPointF(size.width() / 2.0, size.height() / 2.0) - bounds.center() * state.scale;
    return state;
}

// A graph platform in the graph editor's arrangement: links, then NPUs and switches on them.
void paintGraph(QPainter& p, const GraphSpec& graph, const std::vector<QPointF>& positions,
                const NetworkViewState& state) {
    const auto toWidget = [&](QPointF scene) { return scene * state.scale + state.offset; };
    const auto scene = [&](int d) {
        return d >= 0 && d < static_cast<int>(positions.size()) ? positions[static_cast<size_t>(d)]
                                                                : QPointF();
    };
    const auto at = [&](int d) { return toWidget(scene(d)); };
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(0x5b, 0x8d, 0xb8), 1));
    // A torus' wrap-around links as the editor draws them: two stubs out of the grid, not a line
    // across the whole row.
    const std::vector<char> wraps = wrapLinks(graph, positions);
    for (size_t i = 0; i < graph.links.size(); ++i) {
        const GraphLinkSpec& l = graph.links[i];
        if (i < wraps.size() && wraps[i]) {
            for (const QLineF& stub : NetworkLayout::wrapStubs(scene(l.from), scene(l.to)))
                p.drawLine(toWidget(stub.p1()), toWidget(stub.p2()));
        } else {
            p.drawLine(at(l.from), at(l.to));
        }
    }
    // Devices as the editor draws them (radius 8 of a 40 pitch), never smaller than a dot.
    const double r = std::max(1.5, 8.0 * state.scale);
    p.setPen(QPen(QColor(0x2c, 0x3e, 0x50), r > 3 ? 1 : 0));
    for (int d = 0; d < graph.deviceCount(); ++d) {
        const QPointF c = at(d);
        if (d >= graph.npus) {
            p.setBrush(QColor(0xf3, 0x9c, 0x12));
            p.drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r));
        } else {
            p.setBrush(QColor(0x1f, 0x77, 0xb4));
            p.drawEllipse(c, r, r);
        }
    }
    p.restore();
}

} // namespace

QImage platformThumbnail(const PlatformSpec& platform, const RemoteMemoryConfig& memory,
                         QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    const QRectF widget{QPointF(), QSizeF(size)};
    if (platform.graph) {
        const GraphSpec& graph = *platform.graph;
        const std::vector<QPointF> positions =
            graph.hasPositions() ? givenPositions(graph) : layoutGraph(platform).positions;
        if (positions.empty())
            return image;
        const NpuSites sites = NpuSites::of(positions, graph.npus);
        const MemoryTierLayout tier(sites, memory);
        const NetworkViewState state = fitted(tier.bounds().adjusted(-8, -8, 8, 8), size);
        paintMemoryLinks(painter, tier, state);
        paintGraph(painter, graph, positions, state);
        paintMemoryTier(painter, sites, tier, state, widget, false, {});
        return image;
    }
    const NetworkLayout layout(platform);
    if (!layout.drawable() || layout.bounds().isEmpty())
        return image;
    const MemoryTierLayout tier(layout, memory);
    NetworkViewState state = fitted(tier.bounds(), size);
    state.collapseLevel = NetworkPainter::collapseLevelFor(layout, state.scale);
    paintMemoryLinks(painter, tier, state);
    NetworkPainter(layout, platform).paint(painter, widget, state);
    paintMemoryTier(painter, layout, tier, state, widget, false, {});
    return image;
}

} // namespace astrolabe::widgets
