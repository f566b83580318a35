#include "topology/PlatformThumbnail.h"

#include "topology/NetworkLayout.h"
#include "topology/NetworkPainter.h"

#include <QPainter>
#include <algorithm>

namespace astrolabe::widgets {

QImage platformThumbnail(const PlatformSpec& platform, QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    const NetworkLayout layout(platform);
    const QRectF bounds = layout.bounds();
    if (!layout.drawable() || bounds.isEmpty())
        return image;
    NetworkViewState state;
    // A margin of 6 % on each side, the drawing centred.
    state.scale = 0.88 * std::min(size.width() / bounds.width(), size.height() / bounds.height());
    state.offset = QPointF(size.width() / 2.0, size.height() / 2.0) - bounds.center() * state.scale;
    state.collapseLevel = NetworkPainter::collapseLevelFor(layout, state.scale);
    QPainter painter(&image);
    NetworkPainter(layout, platform).paint(painter, QRectF(QPointF(), QSizeF(size)), state);
    return image;
}

} // namespace astrolabe::widgets
