// Hop counts and routes. The maths (spec §4.3, §4.4):
//   Ring: cw = (j - i) mod n, hops = min(cw, n - cw), ties clockwise; FullyConnected 1;
//   Switch 2 (up, down). A multi-dimensional route is dimension-ordered from dimension 0, so
//   its length is the sum over the dimensions whose coordinates differ of that block's hops.
#include "topology/Topology.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace astrolabe;

namespace {

DimensionSpec dimension(BlockKind kind, int size) {
    return DimensionSpec{kind, size, 100e9, 500.0};
}

int ringHops(int n, int i, int j) {
    const int cw = ((j - i) % n + n) % n;
    return std::min(cw, n - cw);
}

/// Links of `route` chain from src to dst: each starts where the previous one ended.
void expectChain(const Topology& t, const std::vector<int32_t>& route, int src, int dst) {
    int at = src;
    for (int32_t l : route) {
        EXPECT_EQ(t.link(l).src, at);
        at = t.link(l).dst;
    }
    EXPECT_EQ(at, dst);
}

} // namespace

TEST(TopologyHops, RingIsTheShorterWayRound) {
    for (int n : {2, 3, 7, 8})
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const int hops = Topology::hops(BlockKind::Ring, n, i, j);
                EXPECT_EQ(hops, ringHops(n, i, j)) << n << ": " << i << " -> " << j;
                EXPECT_EQ(hops, Topology::hops(BlockKind::Ring, n, j, i)) << "symmetric";
                EXPECT_LE(hops, n / 2);
            }
}

TEST(TopologyHops, FullyConnectedIsOneAndSwitchIsTwo) {
    for (int n : {2, 5, 16})
        for (int j = 1; j < n; ++j) {
            EXPECT_EQ(Topology::hops(BlockKind::FullyConnected, n, 0, j), 1);
            EXPECT_EQ(Topology::hops(BlockKind::Switch, n, 0, j), 2);
        }
}

TEST(TopologyRoutes, RingRouteWithinADimensionHasHopsLinksAlongTheRing) {
    const int n = 7;
    const Topology t(
        PlatformSpec{{dimension(BlockKind::Ring, 2), dimension(BlockKind::Ring, n)}, {}});
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const int a = 1 + 2 * i, b = 1 + 2 * j; // dimension-0 coordinate 1, varying in d = 1
            std::vector<int32_t> route;
            t.appendRouteWithin(1, a, b, route);
            ASSERT_EQ(static_cast<int>(route.size()), ringHops(n, i, j)) << i << " -> " << j;
            expectChain(t, route, a, b);
            const int step = ((j - i + n) % n) <= n / 2 ? 1 : -1;
            int at = a;
            for (int32_t l : route) {
                EXPECT_EQ(t.link(l).dimension, 1);
                EXPECT_EQ(t.link(l).dst, t.neighbour(at, 1, step)) << "one direction only";
                at = t.link(l).dst;
            }
        }
}

TEST(TopologyRoutes, RingTieGoesClockwise) {
    // n even, j = i + n/2: both directions take n/2 hops; the route climbs coordinates.
    const int n = 6;
    const Topology t(PlatformSpec{{dimension(BlockKind::Ring, n)}, {}});
    for (int i = 0; i < n; ++i) {
        std::vector<int32_t> route;
        const int j = (i + n / 2) % n;
        t.appendRoute(i, j, route);
        ASSERT_EQ(route.size(), static_cast<size_t>(n / 2));
        for (size_t s = 0; s < route.size(); ++s)
            EXPECT_EQ(t.link(route[s]).dst, (i + static_cast<int>(s) + 1) % n);
    }
}

TEST(TopologyRoutes, FullyConnectedIsOneDirectLinkAndSwitchGoesUpAndDown) {
    const int n = 5;
    const Topology fc(PlatformSpec{{dimension(BlockKind::FullyConnected, n)}, {}});
    const Topology sw(PlatformSpec{{dimension(BlockKind::Switch, n)}, {}});
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b)
                continue;
            std::vector<int32_t> direct, viaSwitch;
            fc.appendRoute(a, b, direct);
            ASSERT_EQ(direct.size(), 1u);
            EXPECT_EQ(fc.link(direct[0]).src, a);
            EXPECT_EQ(fc.link(direct[0]).dst, b);
            sw.appendRoute(a, b, viaSwitch);
            ASSERT_EQ(viaSwitch.size(), 2u);
            expectChain(sw, viaSwitch, a, b);
            EXPECT_EQ(sw.link(viaSwitch[0]).dst, n) << "one switch, numbered after the NPUs";
        }
}

TEST(TopologyRoutes, MultiDimensionalRouteIsDimensionOrderedWithSummedHops) {
    const std::vector<DimensionSpec> dims{dimension(BlockKind::Ring, 5),
                                          dimension(BlockKind::Switch, 3),
                                          dimension(BlockKind::FullyConnected, 4)};
    const Topology t(PlatformSpec{dims, {}});
    for (int src = 0; src < t.npuCount(); src += 7)
        for (int dst = 0; dst < t.npuCount(); ++dst) {
            int expectedHops = 0;
            for (int d = 0; d < 3; ++d) {
                const int i = t.coordinate(src, d), j = t.coordinate(dst, d);
                if (i != j)
                    expectedHops +=
                        Topology::hops(dims[size_t(d)].kind, dims[size_t(d)].size, i, j);
            }
            std::vector<int32_t> route;
            t.appendRoute(src, dst, route);
            ASSERT_EQ(static_cast<int>(route.size()), expectedHops) << src << " -> " << dst;
            expectChain(t, route, src, dst);
            for (size_t k = 1; k < route.size(); ++k)
                EXPECT_LE(t.link(route[k - 1]).dimension, t.link(route[k]).dimension);
        }
}

TEST(TopologyRoutes, RouteAppendsWithoutClearing) {
    const Topology t(PlatformSpec{{dimension(BlockKind::FullyConnected, 3)}, {}});
    std::vector<int32_t> route{-7};
    t.appendRoute(0, 2, route);
    t.appendRoute(2, 1, route);
    ASSERT_EQ(route.size(), 3u);
    EXPECT_EQ(route[0], -7);
    expectChain(t, {route[1], route[2]}, 0, 1);
}
