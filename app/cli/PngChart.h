#pragma once
// A chart the CLI draws as SVG, as a PNG image: rendered by the module astrolabe-svg-png.so
// (app/png), which this opens only when asked, so the program loads Qt for nothing else.

#include "png/SvgPngModule.h"

#include <string>

namespace astrolabe::cli {

/// True when `path` ends in ".png" (any case): the chart is wanted as PNG.
bool wantsPng(const std::string& path);
/// Whether `path` ends in ".svg" (any case).
bool wantsSvg(const std::string& path);

/// The PNG file's bytes of the SVG document `svg`, drawn at `scale` times its size. Throws
/// Error(Unsupported) naming every path tried and why each failed when the module cannot be
/// loaded, and Error(Validation) when it cannot draw the chart.
std::string renderPngChart(const std::string& svg, double scale = kChartPngScale);

} // namespace astrolabe::cli
