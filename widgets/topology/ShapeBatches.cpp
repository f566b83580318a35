#include "topology/ShapeBatches.h"

#include <QPainter>
#include <QPixmap>
#include <QPolygonF>
#include <QtMath>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

// A group far larger than the view (deep zoom) is drawn as what is visible of it: Qt would
// otherwise flatten the whole huge ellipse on every frame.
void drawShape(QPainter& p, const QRectF& r, bool circular) {
    const QTransform t = p.transform();
    const QRectF device = t.mapRect(r);
    const QRectF view(0, 0, p.device()->width(), p.device()->height());
    const double big = 4 * std::max(view.width(), view.height());
    if (device.width() <= big && device.height() <= big) {
        if (circular)
            p.drawEllipse(r);
        else
            p.drawRoundedRect(r, 8 / t.m11(), 8 / t.m11());
        return;
    }
    p.save();
    p.resetTransform();
    const QPointF c = device.center();
    const double radius = device.width() / 2;
    const auto inside = [&](QPointF q) {
        return std::hypot(q.x() - c.x(), q.y() - c.y()) < radius;
    };
    if (circular && !(inside(view.topLeft()) && inside(view.topRight()) &&
                      inside(view.bottomLeft()) && inside(view.bottomRight()))) {
        // About half a pixel of sag per segment.
        const int n = std::clamp(static_cast<int>(M_PI * std::sqrt(radius)), 64, 8192);
        QPolygonF polygon;
        polygon.reserve(n);
        for (int i = 0; i < n; ++i) {
            const double a = 2 * M_PI * i / n;
            polygon << QPointF(c.x() + radius * std::cos(a), c.y() + radius * std::sin(a));
        }
        p.drawPolygon(polygon);
    } else {
        // The clipped sides of the rectangle lie outside the view, so their outline is not seen.
        p.drawRect(device.intersected(view.adjusted(-10, -10, 10, 10)));
    }
    p.restore();
}

void drawShapes(QPainter& p, const std::vector<QRectF>& shapes, bool circular) {
    for (const QRectF& r : shapes)
        drawShape(p, r, circular);
}

// A tile gets a small drawing of its block so that a collapsed group does not look like a
// single NPU.
void drawGlyph(QPainter& p, const QRectF& r, BlockKind kind, const QColor& color) {
    const double radius = 0.28 * std::min(r.width(), r.height());
    const QPointF c = r.center();
    p.setPen(QPen(color, std::max(1.0, radius / 6)));
    p.setBrush(Qt::NoBrush);
    switch (kind) {
    case BlockKind::Ring:
        p.drawEllipse(c, radius, radius);
        break;
    case BlockKind::FullyConnected: {
        QPolygonF star;
        for (int i = 0; i < 5; ++i) {
            const double a = -M_PI / 2 + 4 * M_PI * i / 5;
            star << c + QPointF(radius * std::cos(a), radius * std::sin(a));
        }
        p.drawPolygon(star);
        break;
    }
    case BlockKind::Switch:
        for (int i = 0; i < 6; ++i) {
            const double a = 2 * M_PI * i / 6;
            p.drawLine(c, c + QPointF(radius * std::cos(a), radius * std::sin(a)));
        }
        p.setBrush(color);
        p.drawRect(QRectF(c - QPointF(radius, radius) * 0.4, QSizeF(radius, radius) * 0.8));
        break;
    }
}

void stampShapes(QPainter& p, const std::vector<QRectF>& shapes, bool circular,
                 const Glyph* glyph) {
    if (shapes.empty())
        return;
    const QTransform t = p.transform();
    const QSizeF size = t.mapRect(shapes.front()).size().expandedTo(QSizeF(2, 2));
    if ((shapes.size() < 48 && !glyph) || size.width() > 512 || size.height() > 512) {
        drawShapes(p, shapes, circular);
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
        if (glyph && size.width() >= 10 && size.width() < 56)
            drawGlyph(sp, r, glyph->kind, glyph->color);
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
} // namespace astrolabe::widgets
