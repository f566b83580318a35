#include "core/Simulator.h"

#include "core/Error.h"

#include <chrono>
#include <gtest/gtest.h>
#include <thread>

using namespace astrolabe;

TEST(Simulator, NowIsSetBeforeDispatchAndZeroDelayRunsInTheSamePass) {
    Simulator sim;
    std::vector<std::pair<int64_t, int>> seen;
    sim.scheduleAt(SimTime::fromNs(5), [&] {
        seen.push_back({sim.now().ps(), 1});
        sim.scheduleIn(SimTime::zero(), [&] { seen.push_back({sim.now().ps(), 2}); });
    });
    sim.scheduleAt(SimTime::fromNs(5), [&] { seen.push_back({sim.now().ps(), 3}); });
    EXPECT_EQ(sim.run(), Simulator::StopReason::Drained);
    EXPECT_EQ(seen, (std::vector<std::pair<int64_t, int>>{{5000, 1}, {5000, 3}, {5000, 2}}));
    EXPECT_EQ(sim.eventsProcessed(), 3u);
}

TEST(Simulator, RunUntilStopsAtTheLimit) {
    Simulator sim;
    int count = 0;
    for (int i = 1; i <= 10; ++i)
        sim.scheduleAt(SimTime::fromNs(i), [&] { ++count; });
    EXPECT_EQ(sim.runUntil(SimTime::fromNs(4)), Simulator::StopReason::ReachedLimit);
    EXPECT_EQ(count, 4);
    EXPECT_EQ(sim.now(), SimTime::fromNs(4));
    EXPECT_EQ(sim.run(), Simulator::StopReason::Drained);
    EXPECT_EQ(count, 10);
}

TEST(Simulator, RefusesEventsInThePast) {
    Simulator sim;
    sim.scheduleAt(SimTime::fromNs(10), [] {});
    sim.run();
    EXPECT_THROW(sim.scheduleAt(SimTime::fromNs(5), [] {}), Error);
}

namespace {
// An endless simulation: every event schedules the next one.
void selfPerpetuate(Simulator& sim) {
    sim.scheduleIn(SimTime::fromNs(1), [&sim] { selfPerpetuate(sim); });
}

struct CountingSink : ProgressSink {
    int calls = 0;
    Progress last;
    void onProgress(const Progress& p) override {
        ++calls;
        last = p;
    }
};
} // namespace

TEST(Simulator, HonoursCancellationWithin100ms) {
    Simulator sim;
    selfPerpetuate(sim);
    CancelToken token;
    CountingSink sink;
    std::chrono::steady_clock::time_point cancelledAt;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        cancelledAt = std::chrono::steady_clock::now();
        token.cancel();
    });
    const Simulator::StopReason reason = sim.run(&token, &sink);
    const auto stoppedAt = std::chrono::steady_clock::now();
    canceller.join();
    EXPECT_EQ(reason, Simulator::StopReason::Cancelled);
    const double latencyMs =
        std::chrono::duration<double, std::milli>(stoppedAt - cancelledAt).count();
    EXPECT_LT(latencyMs, 100.0);
    EXPECT_GE(sink.calls, 1) << "progress is reported during a long run";
    EXPECT_GT(sink.last.eventsPerSecond, 0.0);
}

TEST(Simulator, TwoRunsGiveTheSameEventOrder) {
    auto trace = [] {
        Simulator sim;
        std::vector<int64_t> log;
        for (int i = 0; i < 200; ++i)
            sim.scheduleAt(SimTime::fromNs((i * 37) % 50), [&sim, &log, i] {
                log.push_back(sim.now().ps() * 1000 + i);
                if (i % 3 == 0)
                    sim.scheduleIn(SimTime::fromNs(i % 5), [&log, i] { log.push_back(-i); });
            });
        sim.run();
        return log;
    };
    EXPECT_EQ(trace(), trace());
}
