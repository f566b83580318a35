// Topology at its own level: NPU id <-> coordinates, neighbours, which dimension a peer is in,
// translations, and the size of the physical graph. Every expectation is derived in the test
// from the dimension sizes (spec §4.2: a_d = floor(id / prod_{k<d} n_k) mod n_d).
#include "core/Error.h"
#include "topology/Topology.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace astrolabe;

namespace {

DimensionSpec dimension(BlockKind kind, int size) {
    return DimensionSpec{kind, size, 100e9, 500.0};
}

PlatformSpec platform(std::vector<DimensionSpec> dims) {
    return PlatformSpec{std::move(dims), "platform.yaml"};
}

/// prod_{k<d} n_k: the id distance between neighbours in dimension d.
std::vector<int> stridesOf(const std::vector<int>& sizes) {
    std::vector<int> strides;
    int s = 1;
    for (int n : sizes) {
        strides.push_back(s);
        s *= n;
    }
    return strides;
}

} // namespace

TEST(TopologyCoordinates, IdIsTheMixedRadixSumOfItsCoordinates) {
    const std::vector<int> sizes{3, 4, 2};
    const Topology t(platform({dimension(BlockKind::Ring, 3), dimension(BlockKind::Switch, 4),
                               dimension(BlockKind::FullyConnected, 2)}));
    const std::vector<int> strides = stridesOf(sizes);
    ASSERT_EQ(t.npuCount(), 3 * 4 * 2);
    ASSERT_EQ(t.dimensionCount(), 3);
    for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(t.size(d), sizes[static_cast<size_t>(d)]);
        EXPECT_EQ(t.stride(d), strides[static_cast<size_t>(d)]);
    }
    for (int id = 0; id < t.npuCount(); ++id) {
        int rebuilt = 0;
        for (int d = 0; d < 3; ++d) {
            const int c = t.coordinate(id, d);
            EXPECT_EQ(c, (id / strides[static_cast<size_t>(d)]) % sizes[static_cast<size_t>(d)]);
            rebuilt += c * strides[static_cast<size_t>(d)];
        }
        EXPECT_EQ(rebuilt, id);
    }
}

TEST(TopologyCoordinates, DimensionZeroVariesFastest) {
    const Topology t(platform({dimension(BlockKind::Ring, 5), dimension(BlockKind::Ring, 3)}));
    // Consecutive ids 0..4 walk dimension 0; id 5 is the first NPU of the next dimension-1 row.
    for (int id = 0; id < 5; ++id) {
        EXPECT_EQ(t.coordinate(id, 0), id);
        EXPECT_EQ(t.coordinate(id, 1), 0);
    }
    EXPECT_EQ(t.coordinate(5, 0), 0);
    EXPECT_EQ(t.coordinate(5, 1), 1);
}

TEST(TopologyCoordinates, NeighbourShiftsOneCoordinateModuloTheSize) {
    const std::vector<int> sizes{4, 3, 5};
    const Topology t(platform({dimension(BlockKind::Ring, 4), dimension(BlockKind::Ring, 3),
                               dimension(BlockKind::Ring, 5)}));
    for (int id = 0; id < t.npuCount(); ++id)
        for (int d = 0; d < 3; ++d) {
            const int n = sizes[static_cast<size_t>(d)];
            for (int steps : {1, -1, 2, n, -n - 1, 3 * n + 2}) {
                const int peer = t.neighbour(id, d, steps);
                const int expected = (((t.coordinate(id, d) + steps) % n) + n) % n;
                EXPECT_EQ(t.coordinate(peer, d), expected) << id << " d" << d << " " << steps;
                for (int other = 0; other < 3; ++other)
                    if (other != d) {
                        EXPECT_EQ(t.coordinate(peer, other), t.coordinate(id, other));
                    }
            }
        }
}

TEST(TopologyCoordinates, LowestDifferingDimensionIsTheDimensionAPeerIsIn) {
    const Topology t(platform({dimension(BlockKind::Ring, 2), dimension(BlockKind::Switch, 3),
                               dimension(BlockKind::FullyConnected, 4)}));
    for (int a = 0; a < t.npuCount(); ++a)
        for (int b = 0; b < t.npuCount(); ++b) {
            int expected = -1;
            for (int d = t.dimensionCount() - 1; d >= 0; --d)
                if (t.coordinate(a, d) != t.coordinate(b, d))
                    expected = d;
            EXPECT_EQ(t.lowestDifferingDimension(a, b), expected) << a << " -> " << b;
        }
    // A neighbour in dimension d is "in" dimension d.
    for (int d = 0; d < t.dimensionCount(); ++d)
        EXPECT_EQ(t.lowestDifferingDimension(0, t.neighbour(0, d, 1)), d);
}

TEST(TopologyCoordinates, TranslateAddsCoordinatesModuloEachSize) {
    const std::vector<int> sizes{3, 2, 4};
    const std::vector<int> strides = stridesOf(sizes);
    const Topology t(platform({dimension(BlockKind::FullyConnected, 3),
                               dimension(BlockKind::Switch, 2), dimension(BlockKind::Ring, 4)}));
    for (int a = 0; a < t.npuCount(); ++a)
        for (int b = 0; b < t.npuCount(); ++b) {
            int expected = 0;
            for (int d = 0; d < 3; ++d)
                expected += ((t.coordinate(a, d) + t.coordinate(b, d)) % sizes[size_t(d)]) *
                            strides[size_t(d)];
            EXPECT_EQ(t.translate(a, b), expected);
        }
    EXPECT_EQ(t.translate(7, 0), 7) << "NPU 0 is the identity translation";
}

TEST(TopologyGraph, LinkCountPerBlockKind) {
    // Per line of n NPUs: Ring 2n, FullyConnected n(n-1), Switch 2n; a dimension of size n has
    // N / n lines.
    const std::vector<int> sizes{4, 3, 2};
    const std::vector<BlockKind> kinds{BlockKind::Ring, BlockKind::FullyConnected,
                                       BlockKind::Switch};
    std::vector<DimensionSpec> dims;
    for (size_t d = 0; d < sizes.size(); ++d)
        dims.push_back(dimension(kinds[d], sizes[d]));
    const Topology t(platform(dims));
    const int n = 4 * 3 * 2;
    int expectedLinks = 0;
    int expectedSwitches = 0;
    std::vector<int> perDimension;
    for (size_t d = 0; d < sizes.size(); ++d) {
        const int size = sizes[d];
        const int lines = n / size;
        const int perLine = kinds[d] == BlockKind::FullyConnected ? size * (size - 1) : 2 * size;
        perDimension.push_back(lines * perLine);
        expectedLinks += lines * perLine;
        if (kinds[d] == BlockKind::Switch)
            expectedSwitches += lines;
    }
    EXPECT_EQ(t.linkCount(), expectedLinks);
    EXPECT_EQ(t.deviceCount(), n + expectedSwitches);
    std::vector<int> counted(sizes.size(), 0);
    for (const LinkInfo& link : t.links()) {
        ++counted[static_cast<size_t>(link.dimension)];
        EXPECT_EQ(link.bandwidthBytesPerSecond, 100e9);
    }
    EXPECT_EQ(counted, perDimension);
}

TEST(TopologyGraph, RingLinksGoToBothNeighbours) {
    const int n = 5;
    const Topology t(platform({dimension(BlockKind::Ring, 2), dimension(BlockKind::Ring, n)}));
    for (int npu = 0; npu < t.npuCount(); ++npu) {
        std::vector<int> peers;
        for (const LinkInfo& link : t.links())
            if (link.src == npu && link.dimension == 1)
                peers.push_back(link.dst);
        std::sort(peers.begin(), peers.end());
        std::vector<int> expected{t.neighbour(npu, 1, 1), t.neighbour(npu, 1, -1)};
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(peers, expected) << "NPU " << npu;
    }
}

TEST(TopologyGraph, RingOfTwoHasTwoLinksEachWayBetweenThePair) {
    // i -> i+1 and i -> i-1 are the same peer when n = 2: 2n = 4 links, 2 per direction.
    const Topology t(platform({dimension(BlockKind::Ring, 2)}));
    ASSERT_EQ(t.linkCount(), 4);
    int zeroToOne = 0, oneToZero = 0;
    for (const LinkInfo& link : t.links()) {
        zeroToOne += link.src == 0 && link.dst == 1;
        oneToZero += link.src == 1 && link.dst == 0;
    }
    EXPECT_EQ(zeroToOne, 2);
    EXPECT_EQ(oneToZero, 2);
}

TEST(TopologyGraph, FullyConnectedHasOneLinkPerOrderedPairOfALine) {
    const int n = 4;
    const Topology t(
        platform({dimension(BlockKind::Switch, 2), dimension(BlockKind::FullyConnected, n)}));
    for (int a = 0; a < t.npuCount(); ++a)
        for (int b = 0; b < t.npuCount(); ++b) {
            int count = 0;
            for (const LinkInfo& link : t.links())
                count += link.dimension == 1 && link.src == a && link.dst == b;
            const bool sameLine = a != b && t.lowestDifferingDimension(a, b) == 1 &&
                                  t.coordinate(a, 0) == t.coordinate(b, 0);
            EXPECT_EQ(count, sameLine ? 1 : 0) << a << " -> " << b;
        }
}

TEST(TopologyGraph, EachSwitchServesExactlyTheNpusOfOneLine) {
    // Ring 3 x Switch 4: dimension 1 has 12 / 4 = 3 lines, so 3 switches with ids 12, 13, 14.
    const Topology t(platform({dimension(BlockKind::Ring, 3), dimension(BlockKind::Switch, 4)}));
    const int n = t.npuCount();
    ASSERT_EQ(t.deviceCount(), n + n / 4);
    for (int sw = n; sw < t.deviceCount(); ++sw) {
        std::vector<int> up, down;
        for (const LinkInfo& link : t.links()) {
            if (link.dst == sw)
                up.push_back(link.src);
            if (link.src == sw)
                down.push_back(link.dst);
        }
        ASSERT_EQ(up.size(), 4u) << "switch " << sw;
        std::sort(up.begin(), up.end());
        std::sort(down.begin(), down.end());
        EXPECT_EQ(up, down);
        for (int member : up) {
            EXPECT_EQ(t.coordinate(member, 0), t.coordinate(up.front(), 0))
                << "one line: same coordinate in every other dimension";
        }
        for (size_t i = 0; i < up.size(); ++i)
            EXPECT_EQ(t.coordinate(up[i], 1), static_cast<int>(i));
    }
}

TEST(TopologyGraph, EveryLinkClassHoldsOneLinkPerNpu) {
    // Classes: per dimension Ring cw/ccw (2), Switch up/down (2), FullyConnected offsets (n-1).
    // Translations permute the N NPUs, so every class has exactly N links, all in one dimension.
    const Topology t(
        platform({dimension(BlockKind::Ring, 4), dimension(BlockKind::FullyConnected, 3),
                  dimension(BlockKind::Switch, 2)}));
    const int expectedClasses = 2 + (3 - 1) + 2;
    ASSERT_EQ(t.linkClassCount(), expectedClasses);
    std::vector<int> members(static_cast<size_t>(expectedClasses), 0);
    std::vector<int> dimensionOf(static_cast<size_t>(expectedClasses), -1);
    for (int l = 0; l < t.linkCount(); ++l) {
        const int c = t.linkClass(l);
        ASSERT_GE(c, 0);
        ASSERT_LT(c, expectedClasses);
        ++members[static_cast<size_t>(c)];
        int& d = dimensionOf[static_cast<size_t>(c)];
        if (d < 0)
            d = t.link(l).dimension;
        EXPECT_EQ(d, t.link(l).dimension);
    }
    for (int m : members)
        EXPECT_EQ(m, t.npuCount());
}

TEST(TopologyValidation, RejectsImpossiblePlatforms) {
    auto kindOf = [](const PlatformSpec& p) {
        try {
            Topology t(p);
        } catch (const Error& e) {
            EXPECT_EQ(e.where().file, "platform.yaml");
            return e.kind();
        }
        return ErrorKind::Internal;
    };
    EXPECT_EQ(kindOf(platform({})), ErrorKind::Validation);
    EXPECT_EQ(kindOf(platform({dimension(BlockKind::Ring, 0)})), ErrorKind::Validation);
    // One NPU is a platform only alone (a trace replayed on a single rank, docs/real-traces.md).
    EXPECT_EQ(kindOf(platform({dimension(BlockKind::Ring, 4), dimension(BlockKind::Ring, 1)})),
              ErrorKind::Validation);
    const Topology single(platform({dimension(BlockKind::Ring, 1)}));
    EXPECT_EQ(single.npuCount(), 1);
    EXPECT_EQ(single.linkCount(), 0);
    DimensionSpec noBandwidth = dimension(BlockKind::Ring, 4);
    noBandwidth.bandwidthBytesPerSecond = 0;
    EXPECT_EQ(kindOf(platform({noBandwidth})), ErrorKind::Validation);
    DimensionSpec negativeLatency = dimension(BlockKind::Switch, 4);
    negativeLatency.latencyNs = -1;
    EXPECT_EQ(kindOf(platform({negativeLatency})), ErrorKind::Validation);
    // 2^13 x 2^12 = 2^25 NPUs: above the 2^24 limit.
    EXPECT_EQ(kindOf(platform(
                  {dimension(BlockKind::Ring, 1 << 13), dimension(BlockKind::Ring, 1 << 12)})),
              ErrorKind::Unsupported);
}
