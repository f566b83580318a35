#include "calibrate/CalibrationPlot.h"

#include "core/Units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe {
namespace {

constexpr double kWidth = 760, kHeight = 480, kLeft = 70, kRight = 180, kTop = 40, kBottom = 50;
const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};
/// Bus bandwidths below this are drawn at the chart's floor (nothing measured is this slow).
constexpr double kMinShownGBps = 1e-6;
/// The most message-size labels on the x axis: the plot is 510 units wide and a label such as
/// "128 KiB" takes about 45.
constexpr double kMaxSizeLabels = 8;

std::string num(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", v);
    return buffer;
}

std::string escaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else if (c == '"')
            out += "&quot;";
        else
            out += c;
    }
    return out;
}

double measuredBusGBps(const CalibrationPoint& p, double us) {
    return ncclBusFactor(p.collective, p.ranks) * static_cast<double>(p.sizeBytes) / (us * 1e3);
}

} // namespace

const char* calibrationColour(NcclCollective collective) {
    return kColours[static_cast<size_t>(collective) % std::size(kColours)];
}

std::string calibrationSvg(const std::vector<CalibrationPoint>& points, const CostModel& model,
                           const std::vector<double>& heldOutUs, const std::string& title) {
    double minSize = 1, maxSize = 2, minBw = 1e-3, maxBw = 1;
    if (!points.empty()) {
        minSize = maxSize = static_cast<double>(points.front().sizeBytes);
        minBw = 1e300;
        maxBw = 0;
    }
    for (size_t i = 0; i < points.size(); ++i) {
        const double s = static_cast<double>(points[i].sizeBytes);
        minSize = std::min(minSize, s);
        maxSize = std::max(maxSize, s);
        for (const double us : {points[i].timeUs, i < heldOutUs.size() ? heldOutUs[i] : NAN})
            if (us > 0) {
                const double bw = measuredBusGBps(points[i], us);
                minBw = std::min(minBw, std::max(bw, kMinShownGBps));
                maxBw = std::max(maxBw, bw);
            }
    }
    maxSize = std::max(maxSize, minSize * 2);
    const double y0 = std::floor(std::log10(std::max(minBw, kMinShownGBps)));
    const double y1 = std::max(std::ceil(std::log10(std::max(maxBw, kMinShownGBps))), y0 + 1);
    const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
    const auto x = [&](double size) {
        return kLeft + plotW * std::log2(size / minSize) / std::log2(maxSize / minSize);
    };
    const auto y = [&](double gbps) {
        const double v = std::clamp(std::log10(std::max(gbps, 1e-300)), y0, y1);
        return kTop + plotH * (1 - (v - y0) / (y1 - y0));
    };

    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) +
                      "\" height=\"" + num(kHeight) +
                      "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    svg +=
        "<text x=\"" + num(kLeft) + "\" y=\"22\" font-size=\"14\">" + escaped(title) + "</text>\n";
    for (double e = y0; e <= y1; ++e) {
        const double gy = y(std::pow(10.0, e));
        svg += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kLeft + plotW) + "\" y1=\"" + num(gy) +
               "\" y2=\"" + num(gy) + "\" stroke=\"#ddd\"/>\n";
        svg += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(gy + 4) + "\" text-anchor=\"end\">" +
               units::formatPlain(std::pow(10.0, e), 3) + "</text>\n";
    }
    // A grid line every factor of 4; a label on every one of them while at most kMaxSizeLabels
    // fit, else on every 16th, 64th, ... size, so that labels like "128 KiB" never overlap.
    const double doublings = std::log2(maxSize / minSize);
    int labelEvery = 1; // a label on every labelEvery-th grid line
    while (doublings / (2.0 * labelEvery) > kMaxSizeLabels)
        labelEvery *= 2;
    const double firstLine = std::exp2(std::ceil(std::log2(minSize)));
    int gridLine = 0;
    for (double s = firstLine; s <= maxSize; s *= 4, ++gridLine) {
        const double gx = x(s);
        svg += "<line x1=\"" + num(gx) + "\" x2=\"" + num(gx) + "\" y1=\"" + num(kTop) +
               "\" y2=\"" + num(kTop + plotH) + "\" stroke=\"#eee\"/>\n";
        if (gridLine % labelEvery == 0)
            svg += "<text x=\"" + num(gx) + "\" y=\"" + num(kTop + plotH + 16) +
                   "\" text-anchor=\"middle\">" +
                   escaped(units::formatSize(static_cast<uint64_t>(s))) + "</text>\n";
    }
    // The frame over the grid lines that end on it.
    svg += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(plotW) +
           "\" height=\"" + num(plotH) + "\" fill=\"none\" stroke=\"#444\"/>\n";
    svg += "<text x=\"" + num(kLeft + plotW / 2) + "\" y=\"" + num(kHeight - 10) +
           "\" text-anchor=\"middle\">message size (nccl-tests size)</text>\n";
    svg += "<text transform=\"translate(16," + num(kTop + plotH / 2) +
           ") rotate(-90)\" text-anchor=\"middle\">bus bandwidth (GB/s)</text>\n";

    std::vector<NcclCollective> seen;
    for (const CalibrationPoint& p : points)
        if (std::find(seen.begin(), seen.end(), p.collective) == seen.end())
            seen.push_back(p.collective);
    for (size_t c = 0; c < seen.size(); ++c) {
        const char* colour = calibrationColour(seen[c]);
        int ranks = 0;
        for (size_t i = 0; i < points.size(); ++i) {
            const CalibrationPoint& p = points[i];
            if (p.collective != seen[c])
                continue;
            ranks = p.ranks;
            const double px = x(static_cast<double>(p.sizeBytes));
            svg += "<circle cx=\"" + num(px) + "\" cy=\"" + num(y(measuredBusGBps(p, p.timeUs))) +
                   "\" r=\"2.5\" fill=\"" + colour + "\"/>\n";
            if (i < heldOutUs.size() && heldOutUs[i] > 0) {
                const double py = y(measuredBusGBps(p, heldOutUs[i]));
                svg += "<path d=\"M" + num(px - 3) + " " + num(py - 3) +
                       " l6 6 m0 -6 l-6 6\" "
                       "stroke=\"" +
                       colour + "\" fill=\"none\"/>\n";
            }
        }
        std::string line;
        for (int k = 0; k <= 200; ++k) {
            const double s = minSize * std::pow(maxSize / minSize, k / 200.0);
            const uint64_t bytes = static_cast<uint64_t>(std::llround(s));
            line += (k ? " L" : "M") + num(x(s)) + " " +
                    num(y(model.busBandwidthGBps(seen[c], ranks, bytes)));
        }
        svg += "<path d=\"" + line + "\" stroke=\"" + colour + "\" fill=\"none\"/>\n";
        const double ly = kTop + 14 + 18.0 * static_cast<double>(c);
        svg += "<circle cx=\"" + num(kWidth - kRight + 16) + "\" cy=\"" + num(ly - 4) +
               "\" r=\"3\" fill=\"" + colour + "\"/><text x=\"" + num(kWidth - kRight + 26) +
               "\" y=\"" + num(ly) + "\">" + ncclCollectiveName(seen[c]) + " (" +
               std::to_string(ranks) + " ranks)</text>\n";
    }
    const double ly = kTop + 14 + 18.0 * static_cast<double>(seen.size()) + 10;
    svg += "<text x=\"" + num(kWidth - kRight + 10) + "\" y=\"" + num(ly) +
           "\">dots: measured</text>\n<text x=\"" + num(kWidth - kRight + 10) + "\" y=\"" +
           num(ly + 16) + "\">line: fitted model</text>\n<text x=\"" + num(kWidth - kRight + 10) +
           "\" y=\"" + num(ly + 32) + "\">crosses: held-out prediction</text>\n</svg>\n";
    return svg;
}

} // namespace astrolabe
