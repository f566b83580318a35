// NPU ids <-> coordinates, hop counts and the dimension-ordered routes of the congestion-aware
// model, against hand-computed cases.
#include "topology/Topology.h"

#include "engine/golden/GoldenSpec.h"

#include <gtest/gtest.h>

using namespace golden;
using BK = BlockKind;

TEST(Topology, CoordinatesWithDimensionZeroFastest) {
    PlatformSpec p{{dim(BK::Ring, 4), dim(BK::Switch, 2), dim(BK::FullyConnected, 3)}, {}};
    const Topology t(p);
    EXPECT_EQ(t.npuCount(), 24);
    // spec §4.2: 21 = 1 + 4 * (1 + 2 * 2) -> (1, 1, 2)
    EXPECT_EQ(t.coordinate(21, 0), 1);
    EXPECT_EQ(t.coordinate(21, 1), 1);
    EXPECT_EQ(t.coordinate(21, 2), 2);
    EXPECT_EQ(t.lowestDifferingDimension(21, 21 + 8), 2);
    EXPECT_EQ(t.neighbour(21, 0, 3), 20);
    EXPECT_EQ(t.translate(21, 3), 22 - 4 + 2); // (1,1,2) + (3,0,0) = (0,1,2) = 20
}

TEST(Topology, HopsPerBlock) {
    EXPECT_EQ(Topology::hops(BK::Ring, 8, 1, 6), 3);
    EXPECT_EQ(Topology::hops(BK::Ring, 8, 0, 4), 4);
    EXPECT_EQ(Topology::hops(BK::FullyConnected, 8, 0, 5), 1);
    EXPECT_EQ(Topology::hops(BK::Switch, 8, 0, 5), 2);
}

TEST(Topology, DimensionOrderedRoutes) {
    // Ring 4 x Switch 2: 0 -> 7 = (0,0) -> (3,1): dimension 0 first, anticlockwise one hop
    // (0 -> 3), then up and down the switch of dimension 1's line through NPU 3.
    PlatformSpec p{{dim(BK::Ring, 4), dim(BK::Switch, 2)}, {}};
    const Topology t(p);
    std::vector<int32_t> route;
    t.appendRoute(0, 7, route);
    ASSERT_EQ(route.size(), 3u);
    EXPECT_EQ(t.link(route[0]).src, 0);
    EXPECT_EQ(t.link(route[0]).dst, 3);
    EXPECT_EQ(t.link(route[1]).src, 3);
    EXPECT_EQ(t.link(route[1]).dst, t.link(route[2]).src) << "through the switch";
    EXPECT_GE(t.link(route[1]).dst, 8) << "switches are numbered after the NPUs";
    EXPECT_EQ(t.link(route[2]).dst, 7);
    // A tie on a ring of 4 (distance 2 both ways) goes clockwise: 0 -> 1 -> 2.
    route.clear();
    t.appendRoute(0, 2, route);
    ASSERT_EQ(route.size(), 2u);
    EXPECT_EQ(t.link(route[0]).dst, 1);
    EXPECT_EQ(t.link(route[1]).dst, 2);
}

TEST(Topology, MultiDimensionalCongestionAwareCostIsPerHopStoreAndForward) {
    // One 1 MiB message 0 -> 7 over Ring 4 (100 GB/s, 500 ns) x Switch 2 (50 GB/s, 1000 ns):
    // 1 ring link + 2 switch links, each floor(latency + bytes / beta).
    auto s = spec({dim(BK::Ring, 4, 100, 500), dim(BK::Switch, 2, 50, 1000)}, "ring",
                  NetworkBackend::CongestionAware);
    std::vector<WorkloadTrace> traces(8);
    auto [send, recv] = sendRecv(1, 0, 7, 1, kMiB);
    traces[0].nodes.push_back(send);
    traces[7].nodes.push_back(recv);
    const auto r = runTraces(s, traces);
    const double beta0 = 100 * 1073741824.0 / 1e9, beta1 = 50 * 1073741824.0 / 1e9;
    const int64_t expected =
        static_cast<int64_t>(500 + kMiB / beta0) + 2 * static_cast<int64_t>(1000 + kMiB / beta1);
    EXPECT_EQ(cycles(*r, 7), expected);
    // Congestion-unaware: only the lowest differing dimension counts (ASTRA-sim's rule).
    s.options.backend = NetworkBackend::CongestionUnaware;
    EXPECT_EQ(cycles(*runTraces(s, traces), 7), static_cast<int64_t>(500 + kMiB / beta0));
}
