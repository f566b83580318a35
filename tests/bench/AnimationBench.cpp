// "Watch a collective": the time of one animation frame on 64 NPUs (issue #21: under 16 ms) —
// the frame's geometry (CollectiveAnimation::frameAt) plus a full repaint of the network and
// its chunks at 1280 x 800, offscreen. Plans: ring (Ring-64), direct (FullyConnected-64, the
// most messages in flight: 64 x 63), halving-doubling and double binary tree (Switch-64) and
// an 8x8 torus; and an 8x8x16 torus of 1,024 NPUs, drawn as 16 groups of 64. Each iteration moves
// the time forward by 1/600 of the run (a 10 s replay at 60 frames per second), wrapping around.
// Also the price of recording: a 64-NPU ring all-reduce run with recordTransfers off (the default)
// and on.
#include "engine/golden/GoldenSpec.h"
#include "simulation/Simulation.h"
#include "topology/CollectiveAnimationView.h"
#include "widgets/topology/RecordedAllReduce.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <benchmark/benchmark.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

SimulationSpec allReduce(std::vector<DimensionSpec> dims, const char* algorithm) {
    return test::recordedAllReduce(std::move(dims), algorithm, 64 * golden::kMiB);
}

SimulationSpec plan(int which) {
    using golden::dim;
    switch (which) {
    case 0:
        return allReduce({dim(BlockKind::Ring, 64)}, "ring");
    case 1:
        return allReduce({dim(BlockKind::FullyConnected, 64)}, "direct");
    case 2:
        return allReduce({dim(BlockKind::Switch, 64)}, "halvingDoubling");
    case 3:
        return allReduce({dim(BlockKind::Switch, 64)}, "doubleBinaryTree");
    case 4:
        return allReduce({dim(BlockKind::Ring, 8), dim(BlockKind::Ring, 8)}, "ring");
    default: // beyond 64 NPUs: groups of 64 and the flows between them
        return allReduce(
            {dim(BlockKind::Ring, 8), dim(BlockKind::Ring, 8), dim(BlockKind::Ring, 16)}, "ring");
    }
}

const char* kPlanNames[] = {"ring64",   "direct64",     "halvingDoubling64", "doubleBinaryTree64",
                            "torus8x8", "aggregate1024"};

void BM_AnimationFrame(benchmark::State& state) {
    const int which = static_cast<int>(state.range(0));
    const SimulationSpec spec = plan(which);
    const auto run = runSimulation(spec);
    CollectiveAnimationView view;
    view.resize(1280, 800);
    view.setRun(spec.platform, run);
    view.show(); // lays the drawing out at its size (offscreen)
    QApplication::processEvents();
    NetworkView* network = view.networkView();
    QImage image(network->size(), QImage::Format_ARGB32_Premultiplied);
    const int64_t begin = view.animation().begin().ps();
    const int64_t span = (view.animation().end() - view.animation().begin()).ps();
    int frame = 0;
    size_t chunks = 0;
    for (auto _ : state) {
        view.setTime(begin + span * (frame++ % 600) / 600);
        QPainter painter(&image);
        network->render(&painter);
        painter.end();
        chunks += view.frame().chunks.size();
    }
    state.SetLabel(kPlanNames[which]);
    state.counters["transfers"] = static_cast<double>(view.animation().transferCount());
    state.counters["chunks_per_frame"] =
        static_cast<double>(chunks) / static_cast<double>(std::max(1, frame));
}
BENCHMARK(BM_AnimationFrame)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);

// The same drawing without the chunks: what the network alone costs.
void BM_NetworkOnlyFrame(benchmark::State& state) {
    const SimulationSpec spec = plan(static_cast<int>(state.range(0)));
    NetworkView network;
    network.resize(1280, 760);
    network.setPlatform(spec.platform);
    network.show();
    QApplication::processEvents();
    QImage image(network.size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        QPainter painter(&image);
        network.render(&painter);
    }
    state.SetLabel(kPlanNames[state.range(0)]);
}
BENCHMARK(BM_NetworkOnlyFrame)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

// A normal run pays nothing for the recorder: the same run with recording off and on.
void BM_RingAllReduce64Run(benchmark::State& state) {
    SimulationSpec spec = plan(0);
    spec.options.recordTransfers = state.range(0) != 0;
    spec.options.exploitSymmetry = false; // recording simulates every NPU; compare like for like
    for (auto _ : state)
        benchmark::DoNotOptimize(runSimulation(spec)->endTime);
    state.SetLabel(state.range(0) ? "recording on" : "recording off");
}
BENCHMARK(BM_RingAllReduce64Run)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
