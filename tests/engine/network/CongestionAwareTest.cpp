// The congestion-aware model's per-link FIFO arithmetic (spec §4.4). With S = bytes / beta and
// L the link latency, a link that starts serving a message at t is busy until t + floor(S) and
// the message reaches the next device at t + floor(L + S). So:
//   one message on an idle link          arrives at floor(L + S)
//   k messages sent together on one link  the k-th arrives at (k-1) floor(S) + floor(L + S)
//   a k-link route, uncontended          arrives at k floor(L + S)   (store and forward)
//   messages on different links          do not interact.
#include "NetworkTestSupport.h"
#include "network/CongestionAwareNetwork.h"
#include "record/LinkRecorder.h"
#include "topology/Topology.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace astrolabe;
using namespace astrolabe::test;

namespace {

struct AwareRig {
    explicit AwareRig(std::vector<DimensionSpec> dims, Timing timing = {}, bool record = false)
        : topology(PlatformSpec{std::move(dims), {}})
        , log(sim)
        , recorder(topology.linkCount(), topology.npuCount(), record, record)
        , network(sim, topology, timing, log, &recorder) {}

    /// Transmits at simulated time `at` (0 = now).
    void sendAt(SimTime at, int src, int dst, uint64_t bytes, uint64_t token) {
        sim.scheduleAt(
            at, [this, src, dst, bytes, token] { network.transmit(src, dst, bytes, token); });
    }

    Simulator sim;
    Topology topology;
    ArrivalLog log;
    LinkRecorder recorder;
    CongestionAwareNetwork network;
};

} // namespace

TEST(CongestionAware, OneMessageOnAnIdleLinkTakesLatencyPlusSerialization) {
    // FullyConnected: a direct link. 1 MiB at 50 GiB/s (beta = 50 * 2^30 / 1e9 B/ns) + 500 ns.
    const DimensionSpec d{BlockKind::FullyConnected, 4, 50.0 * (1 << 30), 500.0};
    AwareRig rig({d});
    const uint64_t bytes = 1 << 20;
    rig.network.transmit(0, 3, bytes, 1);
    rig.sim.run();
    const double s = static_cast<double>(bytes) / (d.bandwidthBytesPerSecond / 1e9);
    EXPECT_EQ(rig.log.at(1), floorNs(d.latencyNs + s));
    EXPECT_EQ(rig.log.at(1).nsFloor(), 20031) << "500 + 19531.25, truncated once";
}

TEST(CongestionAware, TwoMessagesOnOneLinkQueueBackToBack) {
    // Zero latency: the second starts when the first has left the link and finishes at 2 S.
    const double beta = 25.0;
    const uint64_t bytes = 100'000;
    AwareRig rig({link(BlockKind::FullyConnected, 2, beta, 0.0)});
    rig.network.transmit(0, 1, bytes, 1);
    rig.network.transmit(0, 1, bytes, 2);
    rig.sim.run();
    const SimTime s = floorNs(static_cast<double>(bytes) / beta);
    EXPECT_EQ(rig.log.at(1), s);
    EXPECT_EQ(rig.log.at(2), s * 2);
}

TEST(CongestionAware, QueuedMessagesPayTheLatencyOnceEach) {
    // With latency L the link is free again after floor(S), before the first message arrives:
    // message k (from 1) arrives at (k - 1) floor(S) + floor(L + S).
    const double beta = 12.5, latency = 333.5;
    const uint64_t bytes = 40'001;
    AwareRig rig({link(BlockKind::Ring, 4, beta, latency)});
    const int k = 5;
    for (int m = 1; m <= k; ++m)
        rig.network.transmit(2, 3, bytes, static_cast<uint64_t>(m));
    rig.sim.run();
    const double s = static_cast<double>(bytes) / beta;
    for (int m = 1; m <= k; ++m)
        EXPECT_EQ(rig.log.at(static_cast<uint64_t>(m)), floorNs(s) * (m - 1) + floorNs(latency + s))
            << "message " << m;
}

TEST(CongestionAware, MessagesOnDifferentLinksDoNotInterfere) {
    // FullyConnected 4: 0->1, 2->3, 1->0 (the reverse direction is its own link) and 0->2
    // (same source, another link) all start at once and all take floor(L + S).
    const double beta = 10.0, latency = 100.0;
    const uint64_t bytes = 5'000;
    AwareRig rig({link(BlockKind::FullyConnected, 4, beta, latency)});
    rig.network.transmit(0, 1, bytes, 1);
    rig.network.transmit(2, 3, bytes, 2);
    rig.network.transmit(1, 0, bytes, 3);
    rig.network.transmit(0, 2, bytes, 4);
    rig.sim.run();
    const SimTime alone = floorNs(latency + static_cast<double>(bytes) / beta);
    for (uint64_t token = 1; token <= 4; ++token)
        EXPECT_EQ(rig.log.at(token), alone) << "token " << token;
}

TEST(CongestionAware, StoreAndForwardPaysEveryHop) {
    // Ring 8, 0 -> 3: three links clockwise, k floor(L + S) with k = 3. Switch: k = 2.
    const double beta = 20.0, latency = 250.0;
    const uint64_t bytes = 64'000;
    const SimTime hop = floorNs(latency + static_cast<double>(bytes) / beta);
    AwareRig ring({link(BlockKind::Ring, 8, beta, latency)});
    ring.network.transmit(0, 3, bytes, 1);
    ring.network.transmit(0, 5, bytes, 2); // anticlockwise, also 3 hops, on other links
    ring.sim.run();
    EXPECT_EQ(ring.log.at(1), hop * 3);
    EXPECT_EQ(ring.log.at(2), hop * 3);
    AwareRig star({link(BlockKind::Switch, 8, beta, latency)});
    star.network.transmit(6, 1, bytes, 1);
    star.sim.run();
    EXPECT_EQ(star.log.at(1), hop * 2);
}

TEST(CongestionAware, StoreAndForwardAcrossDimensionsUsesEachDimensionsRate) {
    // Ring 4 (beta0, L0) x FullyConnected 3 (beta1, L1): 0 = (0,0) -> 11 = (3,2) takes one ring
    // hop anticlockwise, then one direct link: floor(L0 + B/beta0) + floor(L1 + B/beta1).
    const double beta0 = 40.0, l0 = 500.0, beta1 = 16.0, l1 = 1200.0;
    const uint64_t bytes = 123'457;
    AwareRig rig(
        {link(BlockKind::Ring, 4, beta0, l0), link(BlockKind::FullyConnected, 3, beta1, l1)});
    rig.network.transmit(0, 11, bytes, 1);
    rig.sim.run();
    const double b = static_cast<double>(bytes);
    EXPECT_EQ(rig.log.at(1), floorNs(l0 + b / beta0) + floorNs(l1 + b / beta1));
}

TEST(CongestionAware, AMessageWaitsAtTheLinkItSharesAndNotElsewhere) {
    // Ring 6: A = 0 -> 1 and B = 0 -> 2 (links 0->1, 1->2) sent together. B waits floor(S) for
    // link 0->1, then crosses two links: floor(S) + 2 floor(L + S).
    const double beta = 8.0, latency = 70.0;
    const uint64_t bytes = 8'004;
    AwareRig rig({link(BlockKind::Ring, 6, beta, latency)});
    rig.network.transmit(0, 1, bytes, 1);
    rig.network.transmit(0, 2, bytes, 2);
    rig.sim.run();
    const double s = static_cast<double>(bytes) / beta;
    EXPECT_EQ(rig.log.at(1), floorNs(latency + s));
    EXPECT_EQ(rig.log.at(2), floorNs(s) + floorNs(latency + s) * 2);
}

TEST(CongestionAware, ALinkIsFreeAgainAfterSerializationNotAfterArrival) {
    // The second message is sent exactly when the link frees (t = floor(S)), while the first is
    // still in flight: it starts at once and arrives at floor(S) + floor(L + S). A third sent
    // long after both is served at once too: t3 + floor(L + S).
    const double beta = 4.0, latency = 1000.0;
    const uint64_t bytes = 2'000;
    AwareRig rig({link(BlockKind::FullyConnected, 2, beta, latency)});
    const double s = static_cast<double>(bytes) / beta;
    const SimTime t3 = SimTime::fromUs(50);
    rig.sendAt(SimTime::zero(), 1, 0, bytes, 1);
    rig.sendAt(floorNs(s), 1, 0, bytes, 2);
    rig.sendAt(t3, 1, 0, bytes, 3);
    rig.sim.run();
    EXPECT_EQ(rig.log.at(1), floorNs(latency + s));
    EXPECT_EQ(rig.log.at(2), floorNs(s) + floorNs(latency + s));
    EXPECT_EQ(rig.log.at(3), t3 + floorNs(latency + s));
}

TEST(CongestionAware, FifoOrderIsArrivalOrderAtTheLink) {
    // Three messages of different sizes, sent in this order over the same switch route with zero
    // latency, are served in send order on every link.
    const double beta = 3.0;
    const std::vector<uint64_t> sizes{3'001, 299, 90'000};
    AwareRig rig({link(BlockKind::Switch, 3, beta, 0.0)});
    for (size_t i = 0; i < sizes.size(); ++i)
        rig.network.transmit(0, 1, sizes[i], i);
    rig.sim.run();
    // The route is two links, up to the switch and down to NPU 1, each a FIFO server:
    //   up_i = up_{i-1} + floor(S_i)   (all wait at the up link from t = 0)
    //   down_i = max(down_{i-1}, up_i) + floor(S_i)   (starts when it reached the switch and the
    //            down link is free); message i is delivered at down_i.
    SimTime up, down;
    for (size_t i = 0; i < sizes.size(); ++i) {
        const SimTime s = floorNs(static_cast<double>(sizes[i]) / beta);
        up += s;
        down = std::max(down, up) + s;
        EXPECT_EQ(rig.log.at(i), down) << "message " << i;
    }
}

TEST(CongestionAware, PreciseTimingRoundsToThePicosecondInsteadOfFlooring) {
    const double beta = 3.0, latency = 10.4;
    const uint64_t bytes = 1'000;
    AwareRig rig({link(BlockKind::FullyConnected, 2, beta, latency)}, Timing{TimingMode::Precise});
    rig.network.transmit(0, 1, bytes, 1);
    rig.network.transmit(0, 1, bytes, 2);
    rig.sim.run();
    const double s = static_cast<double>(bytes) / beta; // 333.33.. ns
    EXPECT_EQ(rig.log.at(1), SimTime::fromPsRounded((latency + s) * 1000.0));
    EXPECT_EQ(rig.log.at(2),
              SimTime::fromPsRounded(s * 1000.0) + SimTime::fromPsRounded((latency + s) * 1000.0));
}

TEST(CongestionAware, RecorderSeesOneBusyIntervalPerLinkPerHop) {
    // Ring 5, 0 -> 2: link 0->1 busy [0, floor(S)), link 1->2 busy [h, h + floor(S)) with
    // h = floor(L + S). Each link carries the bytes once.
    const double beta = 5.0, latency = 40.0;
    const uint64_t bytes = 1'234;
    AwareRig rig({link(BlockKind::Ring, 5, beta, latency)}, {}, true);
    rig.network.transmit(0, 2, bytes, 1);
    rig.sim.run();
    RunResult result;
    result.endTime = rig.sim.now();
    result.links = rig.topology.links();
    rig.recorder.finish(result, rig.topology.dimensionCount());
    const double s = static_cast<double>(bytes) / beta;
    ASSERT_EQ(result.linkIntervals.size(), 2u);
    std::vector<LinkBusyInterval> byStart = result.linkIntervals;
    std::sort(byStart.begin(), byStart.end(),
              [](const auto& a, const auto& b) { return a.start < b.start; });
    const LinkBusyInterval& first = byStart[0];
    const LinkBusyInterval& second = byStart[1];
    EXPECT_EQ(first.start, SimTime::zero());
    EXPECT_EQ(result.links[size_t(first.link)].src, 0);
    EXPECT_EQ(result.links[size_t(first.link)].dst, 1);
    EXPECT_EQ(first.end, floorNs(s));
    EXPECT_EQ(result.links[size_t(second.link)].src, 1);
    EXPECT_EQ(second.start, floorNs(latency + s));
    EXPECT_EQ(second.end, floorNs(latency + s) + floorNs(s));
    EXPECT_EQ(result.linkStats[size_t(first.link)].bytes, bytes);
    EXPECT_EQ(result.linkStats[size_t(second.link)].bytes, bytes);
    EXPECT_EQ(result.trafficBytes[2], bytes) << "traffic matrix row 0, column 2";
}
