// The congestion-unaware model's closed form (spec §4.3):
//   delay = floor(hops * L_d + B / beta_d)  [ns], truncated once,
// with d the lowest dimension whose coordinates differ and hops per block: Ring min(cw, n - cw),
// FullyConnected 1, Switch 2 (serialization counted once). Messages never interact.
#include "NetworkTestSupport.h"
#include "network/CongestionUnawareNetwork.h"
#include "record/LinkRecorder.h"
#include "topology/Topology.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace astrolabe;
using namespace astrolabe::test;

namespace {

struct UnawareRig {
    explicit UnawareRig(std::vector<DimensionSpec> dims, Timing timing = {}, bool record = false)
        : topology(PlatformSpec{std::move(dims), {}})
        , log(sim)
        , recorder(topology.linkCount(), topology.npuCount(), record, record)
        , network(sim, topology, timing, log, &recorder) {}

    Simulator sim;
    Topology topology;
    ArrivalLog log;
    LinkRecorder recorder;
    CongestionUnawareNetwork network;
};

SimTime closedForm(int hops, double latencyNs, uint64_t bytes, double beta) {
    return floorNs(hops * latencyNs + static_cast<double>(bytes) / beta);
}

} // namespace

TEST(CongestionUnaware, RingDelayGrowsWithTheShorterDistance) {
    const int n = 9;
    const double beta = 53.6870912, latency = 936.25;
    const uint64_t bytes = 1 << 20;
    UnawareRig rig({link(BlockKind::Ring, n, beta, latency)});
    for (int j = 1; j < n; ++j) {
        const int hops = std::min(j, n - j);
        EXPECT_EQ(rig.network.delay(0, j, bytes), closedForm(hops, latency, bytes, beta)) << j;
        EXPECT_EQ(rig.network.delay(j, 0, bytes), rig.network.delay(0, j, bytes));
    }
}

TEST(CongestionUnaware, SwitchCountsTwoLatenciesButOneSerialization) {
    const double beta = 50.0, latency = 700.0;
    const uint64_t bytes = 1'000'000;
    UnawareRig rig({link(BlockKind::Switch, 16, beta, latency)});
    const SimTime expected = closedForm(2, latency, bytes, beta);
    EXPECT_EQ(expected, SimTime::fromNs(2 * 700 + 20'000));
    for (int j = 1; j < 16; ++j)
        EXPECT_EQ(rig.network.delay(0, j, bytes), expected);
}

TEST(CongestionUnaware, FullyConnectedIsOneHopToEveryPeer) {
    const double beta = 7.0, latency = 12.0;
    const uint64_t bytes = 100;
    UnawareRig rig({link(BlockKind::FullyConnected, 6, beta, latency)});
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            if (i != j) {
                EXPECT_EQ(rig.network.delay(i, j, bytes), closedForm(1, latency, bytes, beta));
            }
}

TEST(CongestionUnaware, TheSumIsTruncatedOnceNotPerTerm) {
    // 3 hops x 0.6 ns = 1.8, 7 B / 2 B/ns = 3.5: floor(5.3) = 5, while floor(1.8) + floor(3.5)
    // would give 4.
    const double beta = 2.0, latency = 0.6;
    const uint64_t bytes = 7;
    UnawareRig rig({link(BlockKind::Ring, 8, beta, latency)});
    const SimTime d = rig.network.delay(0, 3, bytes);
    EXPECT_EQ(d, closedForm(3, latency, bytes, beta));
    EXPECT_EQ(d, SimTime::fromNs(5));
}

TEST(CongestionUnaware, OnlyTheLowestDifferingDimensionCosts) {
    // Ring 4 (beta0, L0) x Switch 3 (beta1, L1) x FullyConnected 2: a peer that differs in
    // dimension 0 pays dimension 0 alone, however far it is in the others (upstream's quirk).
    const double beta0 = 100.0, l0 = 300.0, beta1 = 10.0, l1 = 5000.0, beta2 = 1.0, l2 = 9.0;
    const uint64_t bytes = 4096;
    UnawareRig rig({link(BlockKind::Ring, 4, beta0, l0), link(BlockKind::Switch, 3, beta1, l1),
                    link(BlockKind::FullyConnected, 2, beta2, l2)});
    const Topology& t = rig.topology;
    for (int dst = 1; dst < t.npuCount(); ++dst) {
        const int d = t.lowestDifferingDimension(0, dst);
        SimTime expected;
        if (d == 0)
            expected = closedForm(std::min(t.coordinate(dst, 0), 4 - t.coordinate(dst, 0)), l0,
                                  bytes, beta0);
        else if (d == 1)
            expected = closedForm(2, l1, bytes, beta1);
        else
            expected = closedForm(1, l2, bytes, beta2);
        EXPECT_EQ(rig.network.delay(0, dst, bytes), expected)
            << "0 -> " << dst << " (d" << d << ")";
    }
    EXPECT_EQ(rig.network.delay(5, 5, bytes), SimTime::zero());
}

TEST(CongestionUnaware, MessagesNeverQueue) {
    // Ten messages on the same pair at the same moment all arrive after one delay; one sent
    // at t0 arrives at t0 + delay.
    const double beta = 1.5, latency = 20.0;
    const uint64_t bytes = 30'000;
    UnawareRig rig({link(BlockKind::Ring, 4, beta, latency)});
    for (uint64_t token = 0; token < 10; ++token)
        rig.network.transmit(1, 3, bytes, token);
    const SimTime t0 = SimTime::fromNs(123'456);
    rig.sim.scheduleAt(t0, [&] { rig.network.transmit(3, 1, bytes, 99); });
    rig.sim.run();
    const SimTime delay = closedForm(2, latency, bytes, beta);
    for (uint64_t token = 0; token < 10; ++token)
        EXPECT_EQ(rig.log.at(token), delay);
    EXPECT_EQ(rig.log.at(99), t0 + delay);
}

TEST(CongestionUnaware, PreciseTimingRoundsOnceToThePicosecond) {
    const double beta = 3.0, latency = 0.1234;
    const uint64_t bytes = 10;
    UnawareRig rig({link(BlockKind::Ring, 5, beta, latency)}, Timing{TimingMode::Precise});
    const double ns = 2 * latency + static_cast<double>(bytes) / beta;
    EXPECT_EQ(rig.network.delay(0, 2, bytes), SimTime::fromPsRounded(ns * 1000.0));
}

TEST(CongestionUnaware, RecorderChargesTheLowestDimensionsRouteForTheSerializationTime) {
    // Ring 6 x Ring 2, 0 -> (3, 1) = 9: only dimension 0 is modelled, so its 3 clockwise links
    // (the tie on a ring of 6) are each busy [0, floor(B/beta)), and no dimension-1 link is used.
    const double beta = 16.0, latency = 50.0;
    const uint64_t bytes = 16'008;
    UnawareRig rig(
        {link(BlockKind::Ring, 6, beta, latency), link(BlockKind::Ring, 2, beta, latency)}, {},
        true);
    rig.network.transmit(0, 9, bytes, 1);
    rig.sim.run();
    RunResult result;
    result.endTime = rig.sim.now();
    result.links = rig.topology.links();
    rig.recorder.finish(result, rig.topology.dimensionCount());
    ASSERT_EQ(result.linkIntervals.size(), 3u);
    const SimTime busy = floorNs(static_cast<double>(bytes) / beta);
    for (const LinkBusyInterval& interval : result.linkIntervals) {
        EXPECT_EQ(result.links[size_t(interval.link)].dimension, 0);
        EXPECT_EQ(interval.start, SimTime::zero());
        EXPECT_EQ(interval.end, busy);
    }
    EXPECT_EQ(result.dimensions[0].bytes, 3 * bytes);
    EXPECT_EQ(result.dimensions[1].bytes, 0u);
    EXPECT_EQ(result.trafficBytes[9], bytes);
}
