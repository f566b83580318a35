#include "png/SvgRender.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cmath>

namespace astrolabe {

QByteArray pngFromSvg(const QByteArray& svg, double scale, QString* error) {
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return QByteArray();
    };
    if (!(scale > 0 && scale <= 16))
        return fail(QStringLiteral("the scale must be above 0 and at most 16"));
    QSvgRenderer renderer(svg);
    if (!renderer.isValid())
        return fail(QStringLiteral("the chart is not an SVG document Qt can draw"));
    const QSize own = renderer.defaultSize();
    const QSize pixels(static_cast<int>(std::lround(own.width() * scale)),
                       static_cast<int>(std::lround(own.height() * scale)));
    if (pixels.isEmpty() || pixels.width() > 16384 || pixels.height() > 16384)
        return fail(QStringLiteral("the chart's size (%1 x %2 pixels) is empty or above 16384 "
                                   "pixels a side")
                        .arg(pixels.width())
                        .arg(pixels.height()));
    QImage image(pixels, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        renderer.render(&painter);
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return fail(QStringLiteral("Qt could not encode the image as PNG"));
    return png;
}

} // namespace astrolabe
