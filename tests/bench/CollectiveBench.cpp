// Whole collectives through the engine: 1 GiB ring all-reduce on Switch platforms of 256 to
// 4,096 NPUs and a 16x16x16 torus, both network models, with and without the symmetric fast
// path. Items processed = NPUs simulated per second of wall time.
#include "simulation/Simulation.h"

#include <benchmark/benchmark.h>

using namespace astrolabe;

namespace {

SimulationSpec ringAllReduce(std::vector<DimensionSpec> dims, NetworkBackend backend,
                             bool symmetry) {
    SimulationSpec s;
    s.platform.dimensions = std::move(dims);
    s.system.endpointDelayNs = 10;
    s.system.localMemBandwidthGBps = 50;
    s.system.preferredDatasetSplits = 1;
    s.system.activeChunksPerDimension = 1;
    s.system.collectiveOptimization = CollectiveOptimization::LocalBWAware;
    s.system.allReduce.assign(s.platform.dimensions.size(), AlgorithmSpec{AlgorithmKind::Ring, 0});
    s.workload.kind = WorkloadSource::Kind::Microbenchmark;
    s.workload.microbenchmark.sizeBytes = 1ULL << 30;
    s.options.backend = backend;
    s.options.exploitSymmetry = symmetry;
    return s;
}

constexpr double kGiBps = 1073741824.0;

void run(benchmark::State& state, const SimulationSpec& spec) {
    for (auto _ : state) {
        const auto result = runSimulation(spec);
        benchmark::DoNotOptimize(result->endTime);
        state.counters["sim_ns"] = static_cast<double>(result->endTime.nsFloor());
        state.counters["events"] = static_cast<double>(result->events);
    }
    state.SetItemsProcessed(state.iterations() * spec.platform.npuCount());
}

void BM_SwitchRingAllReduce(benchmark::State& state) {
    const auto n = static_cast<int>(state.range(0));
    const auto backend =
        state.range(1) ? NetworkBackend::CongestionAware : NetworkBackend::CongestionUnaware;
    run(state, ringAllReduce({{BlockKind::Switch, n, 50 * kGiBps, 500}}, backend, state.range(2)));
}

void BM_Torus3dRingAllReduce(benchmark::State& state) {
    const auto backend =
        state.range(0) ? NetworkBackend::CongestionAware : NetworkBackend::CongestionUnaware;
    const DimensionSpec ring{BlockKind::Ring, 16, 50 * kGiBps, 500};
    run(state, ringAllReduce({ring, ring, ring}, backend, true));
}

} // namespace

// Args: NPUs, congestion-aware, symmetry.
BENCHMARK(BM_SwitchRingAllReduce)
    ->Args({256, 0, 1})
    ->Args({1024, 0, 1})
    ->Args({4096, 0, 1})
    ->Args({256, 1, 1})
    ->Args({1024, 1, 1})
    ->Args({4096, 1, 1})
    ->Args({256, 0, 0})
    ->Args({1024, 0, 0})
    ->Args({256, 1, 0})
    ->Args({1024, 1, 0})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Torus3dRingAllReduce)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
