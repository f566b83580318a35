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

// A 2-D torus is drawn as on paper: NPU k of Ring a x Ring b sits in column k % a and row k / a,
// one pitch apart along both axes; every link but the wrap-around joins adjacent cells.
TEST(NetworkLayout, TorusNpusSitOnAGridWithEqualSpacing) {
    using K = BlockKind;
    const NetworkLayout layout(
        platformOf({astraDimension(K::Ring, 4, 100, 500), astraDimension(K::Ring, 4, 50, 1000)}));
    ASSERT_TRUE(layout.hasTorusGrid());
    EXPECT_EQ(layout.level(1).arrangement, NetworkLayout::Arrangement::GridRow);
    EXPECT_EQ(layout.level(2).arrangement, NetworkLayout::Arrangement::Grid);
    const double pitch = NetworkLayout::kGridPitch;
    EXPECT_GE(pitch, 3 * NetworkLayout::kNodeRadius) << "room for a visible link between NPUs";
    const QPointF origin = layout.npuPosition(0);
    for (int k = 0; k < 16; ++k) {
        const QPointF p = layout.npuPosition(k);
        EXPECT_NEAR(p.x(), origin.x() + (k % 4) * pitch, 1e-9) << k;
        EXPECT_NEAR(p.y(), origin.y() + (k / 4) * pitch, 1e-9) << k;
    }
    // The grid is centred on the platform's centre.
    EXPECT_NEAR(layout.npuPosition(0).x() + layout.npuPosition(15).x(), 0, 1e-9);
    EXPECT_NEAR(layout.npuPosition(0).y() + layout.npuPosition(15).y(), 0, 1e-9);
    expectNpusApartAndFound(
        platformOf({astraDimension(K::Ring, 4, 1, 0), astraDimension(K::Ring, 4, 1, 0)}));
}

// Ring 4 x Ring 4: each of the 4 rows and 4 columns is a ring of 4 links, 3 between adjacent
// cells and 1 wrap-around from the last cell to the first: 24 neighbour links and 8 wraps.
TEST(NetworkLayout, TorusLinksJoinAdjacentCellsAndEightWrapsJoinTheEnds) {
    using K = BlockKind;
    const NetworkLayout layout(
        platformOf({astraDimension(K::Ring, 4, 100, 500), astraDimension(K::Ring, 4, 50, 1000)}));
    const std::vector<NetworkLayout::GridLink> links = layout.gridLinks(0);
    ASSERT_EQ(links.size(), 32u);
    const double pitch = NetworkLayout::kGridPitch;
    const auto column = [](int id) { return id % 4; };
    const auto row = [](int id) { return id / 4; };
    int neighbourLinks = 0;
    int wraps = 0;
    int rowWraps = 0;
    for (const NetworkLayout::GridLink& link : links) {
        EXPECT_EQ(link.line.p1(), layout.npuPosition(link.from));
        EXPECT_EQ(link.line.p2(), layout.npuPosition(link.to));
        const QPointF d = link.line.p2() - link.line.p1();
        if (!link.wrap) {
            ++neighbourLinks;
            if (link.dimension == 0) {
                EXPECT_EQ(row(link.from), row(link.to));
                EXPECT_EQ(column(link.to) - column(link.from), 1);
                EXPECT_NEAR(d.y(), 0, 1e-9) << "a row link is horizontal";
                EXPECT_NEAR(d.x(), pitch, 1e-9);
            } else {
                EXPECT_EQ(column(link.from), column(link.to));
                EXPECT_EQ(row(link.to) - row(link.from), 1);
                EXPECT_NEAR(d.x(), 0, 1e-9) << "a column link is vertical";
                EXPECT_NEAR(d.y(), pitch, 1e-9);
            }
            continue;
        }
        ++wraps;
        if (link.dimension == 0) {
            ++rowWraps;
            EXPECT_EQ(row(link.from), row(link.to));
            EXPECT_EQ(column(link.from), 3);
            EXPECT_EQ(column(link.to), 0);
        } else {
            EXPECT_EQ(column(link.from), column(link.to));
            EXPECT_EQ(row(link.from), 3);
            EXPECT_EQ(row(link.to), 0);
        }
        // Drawn as two stubs pointing out of the grid, along the row or column, inside the
        // drawing's bounds.
        const auto stubs = NetworkLayout::wrapStubs(link.line.p1(), link.line.p2());
        EXPECT_EQ(stubs[0].p1(), link.line.p1());
        EXPECT_EQ(stubs[1].p1(), link.line.p2());
        for (const QLineF& stub : stubs) {
            EXPECT_NEAR(stub.length(), NetworkLayout::kWrapStubLength, 1e-9);
            EXPECT_GT(stub.length(), NetworkLayout::kNodeRadius * 2) << "visible past the NPU";
            EXPECT_TRUE(layout.bounds().contains(stub.p2()));
            const QPointF grid = layout.npuPosition(link.dimension == 0 ? 3 : 12);
            const QPointF out = stub.p2() - stub.p1();
            if (link.dimension == 0) {
                EXPECT_NEAR(out.y(), 0, 1e-9);
                EXPECT_TRUE(stub.p2().x() > grid.x() || stub.p2().x() < layout.npuPosition(0).x());
            } else {
                EXPECT_NEAR(out.x(), 0, 1e-9);
                EXPECT_TRUE(stub.p2().y() > grid.y() || stub.p2().y() < layout.npuPosition(0).y());
            }
        }
    }
    EXPECT_EQ(neighbourLinks, 24);
    EXPECT_EQ(wraps, 8);
    EXPECT_EQ(rowWraps, 4);
}

// A ring of two has a single link and no wrap-around; from three on, every ring wraps.
TEST(NetworkLayout, TorusRingsOfTwoHaveNoWrap) {
    using K = BlockKind;
    const NetworkLayout layout(
        platformOf({astraDimension(K::Ring, 2, 1, 0), astraDimension(K::Ring, 3, 1, 0)}));
    ASSERT_TRUE(layout.hasTorusGrid());
    int wraps = 0;
    int links = 0;
    for (const NetworkLayout::GridLink& link : layout.gridLinks(0)) {
        ++links;
        if (link.wrap) {
            ++wraps;
            EXPECT_EQ(link.dimension, 1);
        }
    }
    // 3 rows of 1 link; 2 columns of 2 links and 1 wrap.
    EXPECT_EQ(links, 3 + 2 * 3);
    EXPECT_EQ(wraps, 2);
}

// Above a torus, each group is a whole grid; grids never overlap and NPUs stay apart.
TEST(NetworkLayout, HierarchiesAboveATorusGroupWholeGrids) {
    using K = BlockKind;
    for (const PlatformSpec& p :
         {platformOf({astraDimension(K::Ring, 4, 1, 0), astraDimension(K::Ring, 4, 1, 0),
                      astraDimension(K::Switch, 4, 1, 0)}),
          platformOf({astraDimension(K::Ring, 4, 1, 0), astraDimension(K::Ring, 3, 1, 0),
                      astraDimension(K::Ring, 8, 1, 0)}),
          platformOf({astraDimension(K::Ring, 8, 1, 0), astraDimension(K::Ring, 4, 1, 0),
                      astraDimension(K::FullyConnected, 2, 1, 0),
                      astraDimension(K::Switch, 3, 1, 0)})}) {
        expectNpusApartAndFound(p);
        const NetworkLayout layout(p);
        ASSERT_TRUE(layout.hasTorusGrid());
        const int perGrid = layout.level(2).npusPerGroup;
        const int columns = layout.level(1).childCount;
        std::vector<QRectF> grids;
        for (int first = 0; first < layout.npuCount(); first += perGrid) {
            grids.push_back(layout.groupRect(2, layout.groupCentre(2, first)));
            // Each grid is laid out as the first one, shifted.
            const QPointF origin = layout.npuPosition(first);
            for (int k = 0; k < perGrid; ++k) {
                const QPointF q = layout.npuPosition(first + k) - origin;
                EXPECT_NEAR(q.x(), (k % columns) * NetworkLayout::kGridPitch, 1e-9);
                EXPECT_NEAR(q.y(), (k / columns) * NetworkLayout::kGridPitch, 1e-9);
            }
            EXPECT_EQ(layout.gridLinks(first).front().from, first);
        }
        for (size_t a = 0; a < grids.size(); ++a) {
            EXPECT_TRUE(layout.bounds().contains(grids[a]));
            for (size_t b = a + 1; b < grids.size(); ++b)
                EXPECT_FALSE(grids[a].intersects(grids[b])) << a << " " << b;
        }
    }
}

// Only two inner rings make a grid: a single ring, switches, fully connected blocks and rings
// above another block keep their circles.
TEST(NetworkLayout, OtherShapesAreNotGrids) {
    using K = BlockKind;
    for (const PlatformSpec& p :
         {platformOf({astraDimension(K::Ring, 8, 1, 0)}),
          platformOf({astraDimension(K::Ring, 8, 1, 0), astraDimension(K::Switch, 4, 1, 0)}),
          platformOf({astraDimension(K::Switch, 8, 1, 0), astraDimension(K::Ring, 4, 1, 0)}),
          platformOf({astraDimension(K::FullyConnected, 4, 1, 0), astraDimension(K::Ring, 4, 1, 0),
                      astraDimension(K::Ring, 4, 1, 0)})}) {
        const NetworkLayout layout(p);
        EXPECT_FALSE(layout.hasTorusGrid());
        EXPECT_EQ(layout.level(1).arrangement, NetworkLayout::Arrangement::Circle);
        EXPECT_TRUE(layout.gridLinks(0).empty());
    }
}
