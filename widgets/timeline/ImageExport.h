#pragma once
// Export of what a view shows: PNG (raster, at a device pixel ratio) and SVG (vector, when
// Qt Svg was found at configure time: ASTROLABE_HAVE_QT_SVG).

#include <QSize>
#include <QString>
#include <functional>

class QPainter;
class QWidget;

namespace astrolabe::widgets {

using PaintFunction = std::function<void(QPainter&)>;

bool svgExportAvailable();
/// Paints `size` logical pixels into a PNG at `scale` device pixels per logical pixel.
bool exportPng(const QString& path, QSize size, const PaintFunction& paint, qreal scale = 2.0);
/// False (and nothing written) when SVG support is not built in.
bool exportSvg(const QString& path, QSize size, const PaintFunction& paint,
               const QString& title = {});
/// A widget as it is on screen (charts, tables, ...).
bool exportWidgetPng(const QString& path, QWidget* widget, qreal scale = 2.0);
bool exportWidgetSvg(const QString& path, QWidget* widget);
/// Picks PNG or SVG from the file suffix.
bool exportWidget(const QString& path, QWidget* widget);

} // namespace astrolabe::widgets
