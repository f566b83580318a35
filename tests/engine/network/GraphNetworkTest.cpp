// Both network models on graph platforms (docs/graph-platforms.md). With S = bytes / beta and
// L the link latency:
//   congestion-aware, one link                   floor(L + S)
//   congestion-aware, k-link path (store, fwd)   k floor(L + S)
//   congestion-aware, two flows on one link      the second ends at floor(S) + floor(L + S),
//                                                 i.e. 2x the time when L = 0
//   congestion-unaware, any route                floor(sum L + bytes / min beta)
#include "NetworkTestSupport.h"
#include "network/CongestionAwareNetwork.h"
#include "network/CongestionUnawareNetwork.h"
#include "record/LinkRecorder.h"
#include "topology/Topology.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::test;

namespace {

GraphLinkSpec bi(int a, int b, double bytesPerNs, double ns) {
    return GraphLinkSpec{a, b, bytesPerNs * 1e9, ns, true, 0};
}

/// NPUs 0..k on a line (a path of k links).
GraphSpec line(int k, double bytesPerNs, double ns) {
    GraphSpec g{k + 1, 0, {}, {}};
    for (int i = 0; i < k; ++i)
        g.links.push_back(bi(i, i + 1, bytesPerNs, ns));
    return g;
}

template <typename Model> struct Rig {
    explicit Rig(GraphSpec g)
        : topology(graphPlatform(std::move(g)))
        , log(sim)
        , recorder(topology.linkCount(), topology.npuCount(), true, true)
        , network(sim, topology, Timing{}, log, &recorder) {}
    Simulator sim;
    Topology topology;
    ArrivalLog log;
    LinkRecorder recorder;
    Model network;
};

} // namespace

TEST(GraphNetwork, SingleLinkIsLatencyPlusSerialization) {
    const double beta = 12.5, latency = 700;
    const uint64_t bytes = 1'000'003;
    const SimTime want = floorNs(latency + static_cast<double>(bytes) / beta);
    Rig<CongestionAwareNetwork> aware(line(1, beta, latency));
    aware.network.transmit(0, 1, bytes, 1);
    aware.sim.run();
    EXPECT_EQ(aware.log.at(1), want);
    Rig<CongestionUnawareNetwork> unaware(line(1, beta, latency));
    unaware.network.transmit(1, 0, bytes, 1);
    unaware.sim.run();
    EXPECT_EQ(unaware.log.at(1), want);
}

TEST(GraphNetwork, KHopPathStoresAndForwardsUnderCongestionAware) {
    const double beta = 50, latency = 250.5;
    const uint64_t bytes = 1 << 20;
    const double s = static_cast<double>(bytes) / beta;
    for (int k : {2, 3, 5, 8}) {
        Rig<CongestionAwareNetwork> aware(line(k, beta, latency));
        aware.network.transmit(0, k, bytes, 7);
        aware.sim.run();
        EXPECT_EQ(aware.log.at(7), SimTime::fromNs(k * floorNs(latency + s).nsFloor())) << k;
        // The unaware model serialises once: k latencies plus one S.
        Rig<CongestionUnawareNetwork> unaware(line(k, beta, latency));
        unaware.network.transmit(0, k, bytes, 7);
        unaware.sim.run();
        EXPECT_EQ(unaware.log.at(7), floorNs(k * latency + s)) << k;
    }
}

TEST(GraphNetwork, TwoFlowsSharingOneLinkTakeTwiceAsLong) {
    // 0 and 1 both send through switch 2 to NPU 3: they share the link sw -> 3. L = 0.
    const double beta = 10;
    const uint64_t bytes = 1'000'000;
    const int64_t s = floorNs(static_cast<double>(bytes) / beta).nsFloor();
    GraphSpec g{3, 1, {bi(0, 3, beta, 0), bi(1, 3, beta, 0), bi(2, 3, beta, 0)}, {}};
    Rig<CongestionAwareNetwork> alone(g);
    alone.network.transmit(0, 2, bytes, 1);
    alone.sim.run();
    EXPECT_EQ(alone.log.at(1).nsFloor(), 2 * s) << "two links, store and forward";
    Rig<CongestionAwareNetwork> shared(g);
    shared.network.transmit(0, 2, bytes, 1);
    shared.network.transmit(1, 2, bytes, 2);
    shared.sim.run();
    // Uplinks in parallel (s), then the shared downlink serves one after the other.
    EXPECT_EQ(shared.log.at(1).nsFloor(), 2 * s);
    EXPECT_EQ(shared.log.at(2).nsFloor(), 3 * s);
    // On one link alone, two flows take exactly 2x the time of one.
    Rig<CongestionAwareNetwork> one(line(1, beta, 0));
    one.network.transmit(0, 1, bytes, 1);
    one.network.transmit(0, 1, bytes, 2);
    one.sim.run();
    EXPECT_EQ(one.log.at(1).nsFloor(), s);
    EXPECT_EQ(one.log.at(2).nsFloor(), 2 * s);
}

TEST(GraphNetwork, UnawareUsesTheBottleneckBandwidthAndRecordsEveryLink) {
    GraphSpec g{3, 0, {bi(0, 1, 40, 100), bi(1, 2, 10, 300)}, {}};
    Rig<CongestionUnawareNetwork> r(g);
    const uint64_t bytes = 5000;
    EXPECT_EQ(r.network.delay(0, 2, bytes), floorNs(400 + 5000.0 / 10));
    r.network.transmit(0, 2, bytes, 1);
    r.sim.run();
    EXPECT_EQ(r.log.at(1), floorNs(900));
}

TEST(GraphNetwork, AsymmetricDirectionsHaveTheirOwnTiming) {
    // A directional fast link 0 -> 1 and a slow one back.
    GraphSpec g{2, 0, {{0, 1, 100e9, 10, false, 0}, {1, 0, 1e9, 1000, false, 0}}, {}};
    Rig<CongestionAwareNetwork> r(g);
    r.network.transmit(0, 1, 1000, 1);
    r.network.transmit(1, 0, 1000, 2);
    r.sim.run();
    EXPECT_EQ(r.log.at(1), floorNs(10 + 10));
    EXPECT_EQ(r.log.at(2), floorNs(1000 + 1000));
}

namespace {

/// A 2x2 leaf-spine: NPUs 0, 1 under leaf sw0 (device 4), NPUs 2, 3 under leaf sw1 (5), spines
/// sw2 (6) and sw3 (7). Every cross-leaf route has two equal-cost paths, one per spine. The
/// leaf -> spine links have beta bytes/ns; every other link is 10^6 times faster (its floor is
/// 0 ns for the test's message), so the only time a flow spends is on its leaf -> spine link.
GraphSpec leafSpine(double beta, GraphRouting routing) {
    const double fast = beta * 1e6;
    GraphSpec g{4,
                4,
                {bi(0, 4, fast, 0),
                 bi(1, 4, fast, 0),
                 bi(2, 5, fast, 0),
                 bi(3, 5, fast, 0),
                 {4, 6, beta * 1e9, 0, false, 0},
                 {4, 7, beta * 1e9, 0, false, 0},
                 {5, 6, beta * 1e9, 0, false, 0},
                 {5, 7, beta * 1e9, 0, false, 0},
                 {6, 4, fast * 1e9, 0, false, 0},
                 {7, 4, fast * 1e9, 0, false, 0},
                 {6, 5, fast * 1e9, 0, false, 0},
                 {7, 5, fast * 1e9, 0, false, 0}},
                {}};
    g.routing = routing;
    return g;
}

/// The spine (6 or 7) that ECMP sends flow src -> dst to from its leaf: the documented rule,
/// candidate ecmpHash(src, dst, leaf) mod 2 of the two uplinks in id order (to 6, then to 7).
int ecmpSpine(int src, int dst) {
    const int leaf = src < 2 ? 4 : 5;
    return 6 + static_cast<int>(ecmpHash(src, dst, leaf) % 2);
}

} // namespace

// Two flows from the two NPUs of one leaf to the two NPUs of the other, sent together, S bytes
// each, S / beta = s. Shortest routes both over the leaf's lowest-id uplink (to sw2): they queue
// on it and the second arrives at 2s. ECMP with a pair whose hashes pick different spines: both
// arrive at s. The pair is chosen from the hash rule above, not from a run.
TEST(GraphNetwork, EcmpSpreadsTwoFlowsOverEqualCostSpinesShortestQueuesThem) {
    const double beta = 10;
    const uint64_t bytes = 1'000'000;
    const int64_t s = floorNs(static_cast<double>(bytes) / beta).nsFloor();
    std::pair<int, int> first{-1, -1}, second{-1, -1};
    for (const auto& [a, b] : std::vector<std::pair<std::pair<int, int>, std::pair<int, int>>>{
             {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}, {{2, 0}, {3, 1}}, {{2, 1}, {3, 0}}})
        if (first.first < 0 && ecmpSpine(a.first, a.second) != ecmpSpine(b.first, b.second)) {
            first = a;
            second = b;
        }
    ASSERT_GE(first.first, 0) << "no flow pair of this leaf-spine hashes apart";
    for (GraphRouting routing : {GraphRouting::Shortest, GraphRouting::Ecmp}) {
        Rig<CongestionAwareNetwork> r(leafSpine(beta, routing));
        r.network.transmit(first.first, first.second, bytes, 1);
        r.network.transmit(second.first, second.second, bytes, 2);
        r.sim.run();
        const int64_t last = std::max(r.log.at(1).nsFloor(), r.log.at(2).nsFloor());
        const int64_t want = routing == GraphRouting::Ecmp ? s : 2 * s;
        EXPECT_EQ(last, want) << graphRoutingName(routing);
        EXPECT_EQ(std::min(r.log.at(1).nsFloor(), r.log.at(2).nsFloor()), s);
    }
    // A pair that hashes together queues under ECMP too: ECMP spreads flows, not bytes.
    for (const auto& [a, b] : std::vector<std::pair<std::pair<int, int>, std::pair<int, int>>>{
             {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}, {{2, 0}, {3, 1}}, {{2, 1}, {3, 0}}}) {
        if (ecmpSpine(a.first, a.second) != ecmpSpine(b.first, b.second))
            continue;
        Rig<CongestionAwareNetwork> r(leafSpine(beta, GraphRouting::Ecmp));
        r.network.transmit(a.first, a.second, bytes, 1);
        r.network.transmit(b.first, b.second, bytes, 2);
        r.sim.run();
        EXPECT_EQ(std::max(r.log.at(1).nsFloor(), r.log.at(2).nsFloor()), 2 * s);
    }
}
