// The parallelism planner's speed (issue #51: >= 10,000 candidates estimated per second on one
// core; GPT-3 175B on 1,024 GPUs ranked in < 10 s). Ranks the whole legal space of GPT-3 175B
// (global batch 1,536) and of Mixtral 8x7B (global batch 1,024) on 1,024 A100-class GPUs of a
// Selene-like platform (8 per NVSwitch node at 300 GB/s, 25 GB/s per GPU between nodes), on one
// thread (the per-core figure), and GPT-3 with fused attention (cp up to 1,024) on one and on two
// threads; reports candidates per second as a counter.
#include "generate/GeneratorValues.h"
#include "hardware/Accelerator.h"
#include "plan/Planner.h"

#include <benchmark/benchmark.h>

using namespace astrolabe;
using namespace astrolabe::plan;

namespace {

SimulationSpec selene(int nodes) {
    SimulationSpec s;
    s.platform.dimensions = {{BlockKind::Switch, 8, 300e9, 936.25},
                             {BlockKind::Switch, nodes, 25e9, 2000}};
    s.system.allReduce = s.system.reduceScatter = s.system.allGather = s.system.allToAll = {
        AlgorithmSpec{AlgorithmKind::Ring, 0}, AlgorithmSpec{AlgorithmKind::Ring, 0}};
    s.system.preferredDatasetSplits = 1;
    s.system.localMemBandwidthGBps = 2039;
    return s;
}

void rank(benchmark::State& state, const std::string& preset, int batch, bool fused = false,
          int threads = 1) {
    PlanRequest request{generate::generatorSpecFrom(preset, {{"gpu", "a100-80gb"}}), 1024};
    request.base.training.globalBatch = batch;
    request.base.training.flashAttention = request.base.training.flashAttention || fused;
    request.threads = threads;
    const SimulationSpec s = selene(128);
    const NetworkCosts network(s.platform, s.system);
    uint64_t candidates = 0;
    size_t ranked = 0;
    for (auto _ : state) {
        const PlanResult result = rankConfigurations(request, network);
        candidates += result.enumerated;
        ranked = result.ranked.size();
        benchmark::DoNotOptimize(result.ranked.data());
    }
    state.counters["candidates"] = double(candidates) / double(state.iterations());
    state.counters["ranked"] = double(ranked);
    state.counters["per_second"] =
        benchmark::Counter(double(candidates), benchmark::Counter::kIsRate);
}

void BM_Planner_Gpt3_175B_1024Gpus(benchmark::State& state) {
    rank(state, "gpt3-175b", 1536);
}
BENCHMARK(BM_Planner_Gpt3_175B_1024Gpus)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_Planner_Gpt3_175B_Fused_1024Gpus(benchmark::State& state) {
    rank(state, "gpt3-175b", 1536, true, int(state.range(0)));
}
BENCHMARK(BM_Planner_Gpt3_175B_Fused_1024Gpus)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

void BM_Planner_Mixtral8x7B_1024Gpus(benchmark::State& state) {
    rank(state, "mixtral-8x7b", 1024);
}
BENCHMARK(BM_Planner_Mixtral8x7B_1024Gpus)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

BENCHMARK_MAIN();
