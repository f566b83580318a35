#include "topology/PlatformThumbnail.h"

#include "topology/GraphDrawing.h"
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

} // namespace

QImage platformThumbnail(const PlatformSpec& platform, const RemoteMemoryConfig& memory,
                         QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    const QRectF widget{QPointF(), QSizeF(size)};
    if (platform.graph) {
        const GraphDrawing graph(platform);
        if (graph.empty())
            return image;
        const NpuSites sites = NpuSites::of(graph.positions(), graph.npuCount());
        const MemoryTierLayout tier(sites, memory);
        const NetworkViewState state = fitted(tier.bounds().adjusted(-8, -8, 8, 8), size);
        paintMemoryLinks(painter, tier, state);
        graph.paint(painter, state);
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
