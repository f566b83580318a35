#pragma once
// The interface of astrolabe-svg-png.so, the module that turns an SVG chart into a PNG image
// (app/png/SvgToPng.cpp, over SvgRender.h). The command-line program has no Qt; it opens this
// module with dlopen() only when a chart is asked for as PNG (app/cli/PngChart.h), so every
// other command starts without loading Qt. C entry points: no name mangling to match, nothing
// C++ crosses the boundary.

#include <cstddef>

/// Raised when the module and the executable were built from different versions of this file.
inline constexpr int kSvgPngAbi = 1;
inline constexpr const char* kSvgPngModuleName = "astrolabe-svg-png.so";
inline constexpr const char* kSvgPngAbiSymbol = "astrolabe_svg_png_abi";
inline constexpr const char* kSvgPngRenderSymbol = "astrolabe_svg_png_render";

/// A chart as PNG is drawn at this many times the SVG's size (the CLI's and the window's alike).
inline constexpr double kChartPngScale = 2;

/// Receives the encoded PNG (or an error's text) in one call.
using SvgPngSink = void (*)(void* context, const char* data, size_t size);

extern "C" {
/// kSvgPngAbi.
using SvgPngAbiFn = int (*)();
/// Renders the SVG document `svg` (`size` bytes) at `scale` times its own width and height on
/// white and passes the PNG file's bytes to `sink`. Returns 0 on success; otherwise passes a
/// sentence saying what went wrong to `error` and returns non-zero.
using SvgPngRenderFn = int (*)(const char* svg, size_t size, double scale, SvgPngSink sink,
                               void* context, SvgPngSink error, void* errorContext);
}
