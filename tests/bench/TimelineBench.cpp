// Timeline benchmark: 10 million intervals over 4,096 NPUs (8 x 16 x 32), painted offscreen at
// 1920 x 1080. Reports the median time of a full-range repaint (cold: geometry rebuilt; warm:
// replayed from the cache), of a 2x zoom step (always cold: a new window), and the memory the
// view adds on top of the RunResult. Run with /usr/bin/time -v for the peak RSS.
#include "../widgets/timeline/SyntheticRun.h"
#include "BenchMemory.h"
#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelineWidget.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
double milliseconds(const std::function<void()>& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

void report(const char* what, const std::vector<double>& ms) {
    std::printf("%-46s median %7.2f ms  min %7.2f  max %7.2f  (n=%zu)\n", what, median(ms),
                *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()),
                ms.size());
}
} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const double rssStart = bench::residentMiB();

    synthetic::SyntheticOptions options;
    options.dimensions = {8, 16, 32};
    options.itemsPerNpu = 2442; // 4096 * 2442 = 10.0 M
    options.phases = false;
    options.links = false;
    std::shared_ptr<RunResult> run;
    const double generateMs = milliseconds([&] { run = synthetic::syntheticRun(options); });
    const double rssData = bench::residentMiB();
    std::printf("data: %zu intervals over %d NPUs, generated in %.0f ms, RunResult %.0f MiB RSS\n",
                run->activities.size(), run->npuCount, generateMs, rssData - rssStart);

    TimelineWidget widget;
    widget.resize(1920, 1080);
    widget.show(); // offscreen: lays out the viewport at its real size
    QApplication::processEvents();
    std::shared_ptr<const TimelineSource> source;
    const double sourceMs = milliseconds([&] {
        source = std::make_shared<RunResultTimelineSource>(run);
        widget.setSource(source, options.dimensions);
    });
    QImage image(widget.renderSize(), QImage::Format_ARGB32_Premultiplied);
    const auto paint = [&] {
        QPainter painter(&image);
        widget.render(painter);
    };
    paint();
    const double rssView = bench::residentMiB();
    std::printf("view: source index + layout built in %.0f ms; view adds %.1f MiB RSS; "
                "viewport %dx%d\n",
                sourceMs, rssView - rssData, widget.renderSize().width(),
                widget.renderSize().height());

    const int reps = 21;
    std::vector<double> cold, warm, zoom;
    for (int i = 0; i < reps; ++i)
        cold.push_back(milliseconds([&] {
            widget.invalidateGeometry();
            paint();
        }));
    for (int i = 0; i < reps; ++i)
        warm.push_back(milliseconds(paint));
    report("full-range repaint, geometry rebuilt", cold);
    report("full-range repaint, geometry cached", warm);

    // 2x zoom steps around the plot centre, in and out, each painted once (a cold build).
    const double centre = 150 + (widget.renderSize().width() - 150) / 2.0;
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < 12; ++i)
            zoom.push_back(milliseconds([&] {
                widget.zoomBy(2.0, centre);
                paint();
            }));
        for (int i = 0; i < 12; ++i)
            zoom.push_back(milliseconds([&] {
                widget.zoomBy(0.5, centre);
                paint();
            }));
    }
    report("2x zoom step (in and out, 12 levels)", zoom);

    // Aggregated rows: every node (8 NPUs) collapsed, then every pod (128 NPUs) collapsed: the
    // latter makes the first screen aggregate all 10 M intervals.
    widget.showAll();
    for (int level : {1, 2}) {
        widget.collapseLevel(level, true);
        // The first paint builds the visible groups' histograms (one pass over their intervals).
        std::printf("first paint after collapsing level %d (builds histograms): %.1f ms\n", level,
                    milliseconds(paint));
        std::vector<double> collapsed, collapsedZoom;
        for (int i = 0; i < 9; ++i)
            collapsed.push_back(milliseconds([&] {
                widget.invalidateGeometry();
                paint();
            }));
        for (int i = 0; i < 8; ++i)
            collapsedZoom.push_back(milliseconds([&] {
                widget.zoomBy(i < 4 ? 2.0 : 0.5, centre);
                paint();
            }));
        report(level == 1 ? "full range, nodes collapsed, rebuilt"
                          : "full range, pods collapsed, rebuilt",
               collapsed);
        report(level == 1 ? "2x zoom step, nodes collapsed" : "2x zoom step, pods collapsed",
               collapsedZoom);
        widget.collapseLevel(level, false);
    }
    image.save(QStringLiteral("timeline_bench.png"));
    std::printf("final RSS %.0f MiB (view adds %.1f MiB over the RunResult)\n",
                bench::residentMiB(), bench::residentMiB() - rssData);
    return 0;
}
