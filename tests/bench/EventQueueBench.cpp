// Event-queue throughput: schedule N events at pseudo-random times, then pop them all.
// Reported as items (events) per second.
#include "core/EventQueue.h"
#include "core/Simulator.h"

#include <benchmark/benchmark.h>
#include <cstdint>

using namespace astrolabe;

static void BM_ScheduleThenPop(benchmark::State& state) {
    const int64_t n = state.range(0);
    for (auto _ : state) {
        EventQueue q;
        uint64_t x = 88172645463325252ULL;
        int64_t sum = 0;
        for (int64_t i = 0; i < n; ++i) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            q.schedule(SimTime::fromPs(static_cast<int64_t>(x % 1000000)), [&sum, i] { sum += i; });
        }
        SimTime at;
        EventQueue::Callback cb;
        while (q.pop(at, cb))
            cb();
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_ScheduleThenPop)->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20);

// Steady state of a simulation: a fixed population of pending events, each reschedules itself.
static void BM_SimulatorSteadyState(benchmark::State& state) {
    const int64_t population = state.range(0);
    for (auto _ : state) {
        Simulator sim;
        int64_t remaining = 1 << 20;
        struct Actor {
            Simulator* sim;
            int64_t* remaining;
            int64_t period;
            void operator()() const {
                if (--*remaining > 0)
                    sim->scheduleIn(SimTime::fromPs(period), *this);
            }
        };
        for (int64_t i = 0; i < population; ++i)
            sim.scheduleIn(SimTime::fromPs(i), Actor{&sim, &remaining, 1000 + i % 97});
        sim.run();
        benchmark::DoNotOptimize(sim.now());
    }
    state.SetItemsProcessed(state.iterations() * (1 << 20));
}
BENCHMARK(BM_SimulatorSteadyState)->Arg(64)->Arg(4096);

BENCHMARK_MAIN();
