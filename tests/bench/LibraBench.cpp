// LIBRA's optimizer time for 4 dimensions (issue #18: under 1 s). Two figures: the model solver
// alone (closed form, and NLopt SLSQP with a binding budget), and the whole loop against the
// simulator for Conv-4D (Ring 2 x FullyConnected 8 x Ring 8 x Switch 4, 512 NPUs) running a
// 64 MiB all-reduce, where nearly all the time is simulation.
#include "optimize/BandwidthOptimizer.h"
#include "optimize/SimulatedIterationTime.h"

#include <benchmark/benchmark.h>

using namespace astrolabe;
using namespace astrolabe::optimize;

namespace {

PlatformSpec conv4d() {
    PlatformSpec p;
    p.dimensions = {{BlockKind::Ring, 2, 250e9, 500},
                    {BlockKind::FullyConnected, 8, 200e9, 500},
                    {BlockKind::Ring, 8, 100e9, 500},
                    {BlockKind::Switch, 4, 50e9, 500}};
    return p;
}

const LibraModel kModel{1e-3, {0.9, 2.1, 0.7, 0.3}};

void BM_Libra_ClosedForm4D(benchmark::State& state) {
    const AllocationProblem problem = defaultProblem(conv4d(), 600);
    for (auto _ : state)
        benchmark::DoNotOptimize(solveAllocation(kModel, problem));
}
BENCHMARK(BM_Libra_ClosedForm4D)->Unit(benchmark::kMicrosecond);

void BM_Libra_SlsqpWithBudget4D(benchmark::State& state) {
    AllocationProblem problem = defaultProblem(conv4d(), 600);
    const std::vector<double> free = solveAllocation(kModel, problem);
    problem.budgetDollars =
        0.5 * (problem.costDollars(free) + problem.costDollars(problem.minGBps));
    for (auto _ : state)
        benchmark::DoNotOptimize(solveAllocation(kModel, problem));
}
BENCHMARK(BM_Libra_SlsqpWithBudget4D)->Unit(benchmark::kMicrosecond);

void BM_Libra_WholeLoopConv4D(benchmark::State& state) {
    SimulationSpec s;
    s.platform = conv4d();
    s.system.endpointDelayNs = 10;
    s.system.localMemBandwidthGBps = 50;
    s.system.preferredDatasetSplits = 4;
    s.system.activeChunksPerDimension = 1;
    s.system.collectiveOptimization = CollectiveOptimization::LocalBWAware;
    s.system.allReduce.assign(4, AlgorithmSpec{AlgorithmKind::Ring, 0});
    s.workload.kind = WorkloadSource::Kind::Microbenchmark;
    s.workload.microbenchmark.sizeBytes = 64ULL << 20;
    const AllocationProblem problem = defaultProblem(s.platform, 600);
    const IterationTime time = simulatedIterationTime(s);
    for (auto _ : state) {
        const OptimizationReport r = optimizeBandwidth(problem, equalAllocation(problem), time);
        state.counters["simulations"] = r.simulations;
        state.counters["solver_us"] = r.solverSeconds * 1e6;
        state.counters["speedup_vs_equal"] = r.start.simulatedSeconds / r.best.simulatedSeconds;
    }
}
BENCHMARK(BM_Libra_WholeLoopConv4D)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
