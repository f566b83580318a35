// Geometry of the network drawing: every NPU has its own place, hit testing finds it again, and
// groups nest as the dimensions do.
#include "topology/NetworkLayout.h"

#include "topology/TopologyPresets.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
PlatformSpec platformOf(std::vector<DimensionSpec> dims) {
    PlatformSpec p;
    p.dimensions = std::move(dims);
    return p;
}

void expectNpusApartAndFound(const PlatformSpec& p) {
    const NetworkLayout layout(p);
    ASSERT_TRUE(layout.drawable());
    const int n = layout.npuCount();
    std::vector<QPointF> pos;
    for (int id = 0; id < n; ++id) {
        pos.push_back(layout.npuPosition(id));
        EXPECT_TRUE(layout.bounds().contains(pos.back())) << id;
        const NetworkLayout::Hit hit = layout.hitTest(pos.back());
        EXPECT_EQ(hit.level, 0) << id;
        EXPECT_EQ(hit.firstId, id);
    }
    // No two NPU disks overlap (checked exhaustively for small platforms).
    if (n <= 512) {
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b) {
                const QPointF d = pos[static_cast<size_t>(a)] - pos[static_cast<size_t>(b)];
                EXPECT_GE(std::hypot(d.x(), d.y()), 2 * NetworkLayout::kNodeRadius)
                    << a << " " << b;
            }
    }
}
} // namespace

TEST(NetworkLayout, EveryNpuHasItsOwnPlaceAndIsHitAgain) {
    using K = BlockKind;
    expectNpusApartAndFound(
        platformOf({astraDimension(K::Ring, 8, 1, 0), astraDimension(K::Ring, 4, 1, 0)}));
    expectNpusApartAndFound(
        platformOf({astraDimension(K::Switch, 8, 1, 0), astraDimension(K::Switch, 16, 1, 0)}));
    for (const TopologyPreset& preset : topologyPresets())
        expectNpusApartAndFound(preset.platform);
}

TEST(NetworkLayout, GroupsNestLikeDimensions) {
    // 8 x 4 ring x ring: dimension 0 varies fastest, so NPUs 0..7 form the first level-1 group.
    const NetworkLayout layout(platformOf(
        {astraDimension(BlockKind::Ring, 8, 1, 0), astraDimension(BlockKind::Ring, 4, 1, 0)}));
    EXPECT_EQ(layout.dimensionCount(), 2);
    EXPECT_EQ(layout.level(1).npusPerGroup, 8);
    EXPECT_EQ(layout.level(2).npusPerGroup, 32);
    const QPointF group0 = layout.groupCentre(1, 0);
    for (int id = 0; id < 8; ++id) {
        EXPECT_EQ(layout.groupCentre(1, id), group0);
        EXPECT_TRUE(layout.groupContains(1, group0, layout.npuPosition(id)));
    }
    EXPECT_FALSE(layout.groupContains(1, group0, layout.npuPosition(8)));
    // Stopping the hit test at level 1 (tiles) returns the group, not the NPU.
    const NetworkLayout::Hit tile = layout.hitTest(layout.npuPosition(13), 1);
    EXPECT_EQ(tile.level, 1);
    EXPECT_EQ(tile.firstId, 8);
    EXPECT_EQ(layout.coordinates(13), (std::vector<int>{5, 1}));
}

TEST(NetworkLayout, HugePlatformsAreNotDrawn) {
    const NetworkLayout layout(platformOf({astraDimension(BlockKind::Ring, 4096, 1, 0),
                                           astraDimension(BlockKind::Ring, 4096, 1, 0)}));
    EXPECT_FALSE(layout.drawable());
    EXPECT_EQ(layout.hitTest(QPointF()).level, -1);
}
