#include "timeline/ImageExport.h"

#include <QImage>
#include <QPainter>
#include <QWidget>

#ifdef ASTROLABE_HAVE_QT_SVG
#include <QSvgGenerator>
#endif

namespace astrolabe::widgets {

bool svgExportAvailable() {
#ifdef ASTROLABE_HAVE_QT_SVG
    return true;
#else
    return false;
#endif
}

bool exportPng(const QString& path, QSize size, const PaintFunction& paint, qreal scale) {
    if (size.isEmpty())
        return false;
    QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::TextAntialiasing);
        paint(painter);
    }
    return image.save(path, "PNG");
}

bool exportSvg(const QString& path, QSize size, const PaintFunction& paint, const QString& title) {
#ifdef ASTROLABE_HAVE_QT_SVG
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("Exported by Astrolabe"));
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    paint(painter);
    return painter.end();
#else
    (void)path;
    (void)size;
    (void)paint;
    (void)title;
    return false;
#endif
}

bool exportWidgetPng(const QString& path, QWidget* widget, qreal scale) {
    return exportPng(
        path, widget->size(), [widget](QPainter& p) { widget->render(&p); }, scale);
}

bool exportWidgetSvg(const QString& path, QWidget* widget) {
    return exportSvg(
        path, widget->size(), [widget](QPainter& p) { widget->render(&p); }, widget->windowTitle());
}

bool exportWidget(const QString& path, QWidget* widget) {
    return path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)
               ? exportWidgetSvg(path, widget)
               : exportWidgetPng(path, widget);
}

} // namespace astrolabe::widgets
