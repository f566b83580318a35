// The Serving tab's repaints at 1920 x 1080: the request timeline of 100,000 requests (a cold
// repaint: a new time window, rows repainted from the records) and the three latency CDFs of
// 100,000 requests. The goal is < 16 ms each (one frame at 60 Hz).
//
// Requests are synthetic (Poisson arrivals at 100/s, a few seconds of queueing, prefill and
// decode each, P/D transfers) so that the benchmark needs no simulation.
#include "serving/CdfChart.h"
#include "serving/RequestTimeline.h"
#include "serving/ServingView.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>
#include <random>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

std::shared_ptr<const serving::ServingResult> syntheticRun(int requests) {
    auto r = std::make_shared<serving::ServingResult>();
    std::mt19937_64 random(7);
    std::exponential_distribution<double> gap(100.0), phase(1.0);
    double t = 0;
    for (int i = 0; i < requests; ++i) {
        t += gap(random);
        serving::RequestRecord q;
        q.arrival = t;
        q.firstScheduled = t + 0.2 * phase(random);
        q.firstToken = q.firstScheduled + 0.3 * phase(random);
        q.transferStart = q.firstToken;
        q.transferEnd = q.firstToken + 0.01 * phase(random);
        q.lastToken = q.transferEnd + 3 * phase(random);
        q.outputTokens = q.generated = 100;
        q.prefillReplica = 0;
        q.decodeReplica = 1;
        r->requests.push_back(q);
    }
    r->summary.durationSeconds = r->requests.back().lastToken;
    r->summary.ttftSloSeconds = 1;
    r->summary.tpotSloSeconds = 0.05;
    r->replicas.resize(2);
    return r;
}

struct Fixture {
    Fixture() {
        if (!QApplication::instance()) {
            static int argc = 1;
            static char name[] = "bench_serving_view";
            static char* argv[] = {name, nullptr};
            qputenv("QT_QPA_PLATFORM", "offscreen");
            new QApplication(argc, argv);
        }
    }
};

void requestTimelineRepaint(benchmark::State& state) {
    Fixture fixture;
    const auto run = syntheticRun(int(state.range(0)));
    RequestTimeline timeline;
    timeline.resize(1920, 1080);
    timeline.setResult(run);
    QImage image(timeline.size(), QImage::Format_ARGB32_Premultiplied);
    int step = 0;
    for (auto _ : state) {
        // A new window each time (alternating 1.25x zoom in and out): the rows are repainted.
        timeline.zoomAround(960, (step++ % 2) ? 0.8 : 1.25);
        QPainter painter(&image);
        timeline.render(&painter);
    }
    state.counters["requests"] = double(run->requests.size());
    state.counters["rebuilds"] = timeline.rebuilds();
}
BENCHMARK(requestTimelineRepaint)->Arg(100000)->Unit(benchmark::kMillisecond);

void latencyCdfsRepaint(benchmark::State& state) {
    Fixture fixture;
    const auto run = syntheticRun(int(state.range(0)));
    LatencySamples samples = latencySamples(*run);
    std::vector<std::unique_ptr<CdfChart>> charts;
    for (auto* v : {&samples.ttft, &samples.tpot, &samples.e2e}) {
        charts.push_back(std::make_unique<CdfChart>(QStringLiteral("CDF")));
        charts.back()->resize(640, 360); // three side by side on 1920 pixels
        charts.back()->setSeries({CdfSeries{QString(), Qt::blue, *v}}, 0.5);
    }
    QImage image(640, 360, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        for (const auto& chart : charts) {
            QPainter painter(&image);
            chart->render(&painter);
        }
    }
    state.counters["requests"] = double(run->requests.size());
}
BENCHMARK(latencyCdfsRepaint)->Arg(100000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
