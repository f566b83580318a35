// TACOS synthesis time (issue #19: an all-reduce for a heterogeneous 128-NPU system in under
// 1.08 s, polynomial growth from 16 to 1,024 NPUs; docs/tacos.md, "Synthesis time").
//
// The platform: an X x Y grid whose X axis is a torus ring (wrap-around, 200 GB/s, 100 ns per
// link and direction) and whose Y axis is a mesh (no wrap-around, 50 GB/s, 500 ns): fast
// wrapped rows, slow open columns. 16 = 4x4, 32 = 8x4, ..., 128 = 16x8, ..., 1,024 = 32x32.
// All-reduce of 64 MiB, 1 chunk per NPU.
#include "tacos/Synthesizer.h"

#include <benchmark/benchmark.h>

using namespace astrolabe;

namespace {

GraphSpec meshTorus(int x, int y) {
    GraphSpec g;
    g.npus = x * y;
    g.generator = "torus x mesh";
    for (int j = 0; j < y; ++j)
        for (int i = 0; i < x; ++i) {
            const int npu = j * x + i;
            if (i + 1 < x || x > 2)
                g.links.push_back({npu, j * x + (i + 1) % x, 200e9, 100, true, 0});
            if (j + 1 < y)
                g.links.push_back({npu, npu + x, 50e9, 500, true, 0});
        }
    return g;
}

void BM_Tacos_AllReduceMeshTorus(benchmark::State& state) {
    const int npus = static_cast<int>(state.range(0));
    int x = 4, y = 4;
    while (x * y < npus)
        (x == y ? x : y) *= 2;
    const GraphSpec g = meshTorus(x, y);
    SynthesisOptions o;
    o.bytes = 64ull << 20;
    Schedule s;
    for (auto _ : state) {
        s = synthesize(g, o);
        benchmark::DoNotOptimize(s.finishNs);
    }
    state.counters["x"] = x;
    state.counters["y"] = y;
    state.counters["sends"] = static_cast<double>(s.sends.size());
    state.counters["steps"] = s.steps;
    state.counters["ms_TEN"] = s.finishNs / 1e6;
}
BENCHMARK(BM_Tacos_AllReduceMeshTorus)
    ->RangeMultiplier(2)
    ->Range(16, 1024)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

} // namespace

BENCHMARK_MAIN();
