// Generating whole training iterations: GPT-3 175B (1F1B, 8 micro-batches) for 128 and 1,024
// NPUs with the preset's parallelism rescaled, the traces held in memory as a run would use them.
#include "generate/ModelPresets.h"
#include "generate/WorkloadGenerator.h"

#include <benchmark/benchmark.h>

using namespace astrolabe;
using namespace astrolabe::generate;

namespace {

void generateGpt3(benchmark::State& state) {
    GeneratorSpec s = presetSpec("gpt3-175b");
    s.parallel.dp = static_cast<int>(state.range(0)) / (s.parallel.tp * s.parallel.pp);
    s.training.globalBatch = 8 * s.training.microBatch * s.parallel.dp;
    size_t nodes = 0;
    for (auto _ : state) {
        const GeneratedWorkload w = generateWorkload(s);
        nodes = 0;
        for (const WorkloadTrace& t : w.traces)
            nodes += t.nodes.size();
        benchmark::DoNotOptimize(nodes);
    }
    state.counters["npus"] = static_cast<double>(s.parallel.npus());
    state.counters["nodes"] = static_cast<double>(nodes);
    state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(generateGpt3)->Arg(128)->Arg(1024)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
