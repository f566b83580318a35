#pragma once
// An SVG document drawn into a PNG image by Qt's SVG renderer: the PNG form of the calibration
// chart, for the CLI (through the module astrolabe-svg-png.so, SvgPngModule.h) and for the
// window's Save Chart. Needs a QGuiApplication (fonts).

#include <QByteArray>
#include <QString>

namespace astrolabe {

/// The PNG file's bytes of `svg` drawn on white at `scale` times its own size; empty, with the
/// reason in `error`, when it is not an SVG Qt can draw or the image would be empty or larger
/// than 16384 pixels a side.
QByteArray pngFromSvg(const QByteArray& svg, double scale, QString* error);

} // namespace astrolabe
