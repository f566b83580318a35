// Closed forms of the live figures (see the formulas in widgets/topology/TopologyMath.h).
#include "topology/TopologyMath.h"

#include "topology/TopologyPresets.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
constexpr double kGiB = 1073741824.0;

PlatformSpec platformOf(std::vector<DimensionSpec> dims) {
    PlatformSpec p;
    p.dimensions = std::move(dims);
    return p;
}
} // namespace

TEST(TopologyMath, CoordinatesFollowAstraSimExample) {
    // ASTRA-sim compat spec 4.2: sizes [4,2,3], id 21 -> (1, 1, 2) since 21 = 1 + 4*(1 + 2*2).
    const PlatformSpec p = platformOf({astraDimension(BlockKind::Ring, 4, 1, 0),
                                       astraDimension(BlockKind::Ring, 2, 1, 0),
                                       astraDimension(BlockKind::Ring, 3, 1, 0)});
    EXPECT_EQ(npuCoordinates(p, 21), (std::vector<int>{1, 1, 2}));
    EXPECT_EQ(npuIdOf(p, {1, 1, 2}), 21);
    for (int id = 0; id < 24; ++id)
        EXPECT_EQ(npuIdOf(p, npuCoordinates(p, id)), id);
}

TEST(TopologyMath, InjectionSumsLinksTimesBandwidth) {
    // Conv-3D: Ring 16 @ 200 (2 links) + FC 8 @ 100 (7 links) + Switch 4 @ 50 (1 link)
    //        = 400 + 700 + 50 = 1150 GiB/s.
    const TopologyPreset* conv3d =
        findTopologyPreset(QStringLiteral("Conv-3D (Ring 16 x FC 8 x Switch 4)"));
    ASSERT_NE(conv3d, nullptr);
    EXPECT_DOUBLE_EQ(injectionBandwidthBytesPerSecond(conv3d->platform), 1150 * kGiB);
    // A 2-NPU ring has a single neighbour.
    EXPECT_EQ(linksPerNpu(astraDimension(BlockKind::Ring, 2, 1, 0)), 1);
}

TEST(TopologyMath, BisectionOfStandardNetworks) {
    const double b = 10 * kGiB;
    // Ring of 8: cutting a ring in two cuts 2 links.
    EXPECT_DOUBLE_EQ(
        bisectionBandwidthBytesPerSecond(platformOf({astraDimension(BlockKind::Ring, 8, 10, 0)})),
        2 * b);
    // FC of 8: 4 * 4 = 16 links cross. Switch of 8: 4 NPUs' links.
    EXPECT_DOUBLE_EQ(bisectionBandwidthBytesPerSecond(
                         platformOf({astraDimension(BlockKind::FullyConnected, 8, 10, 0)})),
                     16 * b);
    EXPECT_DOUBLE_EQ(
        bisectionBandwidthBytesPerSecond(platformOf({astraDimension(BlockKind::Switch, 8, 10, 0)})),
        4 * b);
    // 8x4 torus: cut d0 -> 4 rings * 2 links = 8b; cut d1 -> 8 rings * 2 = 16b; min 8b.
    EXPECT_DOUBLE_EQ(
        bisectionBandwidthBytesPerSecond(platformOf({astraDimension(BlockKind::Ring, 8, 10, 0),
                                                     astraDimension(BlockKind::Ring, 4, 10, 0)})),
        8 * b);
    // k-ary n-cube 16x16x16: 2 N / k = 2 * 4096 / 16 = 512 links.
    const TopologyPreset* torus =
        findTopologyPreset(QStringLiteral("TPU-style 3-D torus (Ring 16 x Ring 16 x Ring 16)"));
    ASSERT_NE(torus, nullptr);
    EXPECT_DOUBLE_EQ(bisectionBandwidthBytesPerSecond(torus->platform), 512 * 50 * kGiB);
}

TEST(TopologyMath, ProblemsNameEveryInvalidValue) {
    PlatformSpec p = platformOf(
        {astraDimension(BlockKind::Ring, 1, 0, 5), astraDimension(BlockKind::Switch, 4, 10, 0)});
    const std::vector<PlatformProblem> problems = platformProblems(p);
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_EQ(problems[0].dimension, 0);
    // The messages are the project reader's (the dimension settings' declared ranges).
    EXPECT_EQ(problems[0].message, "dimension 0 size: expected 2 or more NPUs, found 1");
    EXPECT_EQ(problems[1].message, "dimension 0 bandwidth: expected 1000 B/s or more, found 0");
    EXPECT_EQ(platformProblems(PlatformSpec{}).size(), 1u);
    p.dimensions[0] = astraDimension(BlockKind::Ring, 2, 1, 0);
    EXPECT_TRUE(platformProblems(p).empty());
    // The platform's limits (docs/limits.md): 2^20 NPUs, 16 dimensions.
    p.dimensions = {astraDimension(BlockKind::Switch, 2048, 1, 0),
                    astraDimension(BlockKind::Switch, 1024, 1, 0)};
    ASSERT_EQ(platformProblems(p).size(), 1u);
    EXPECT_EQ(platformProblems(p)[0].message,
              "expected at most 1048576 NPUs (docs/limits.md), found 2097152");
    p.dimensions.assign(17, astraDimension(BlockKind::Ring, 2, 1, 0));
    ASSERT_EQ(platformProblems(p).size(), 1u);
    EXPECT_EQ(platformProblems(p)[0].message, "expected at most 16 dimensions, found 17");
}
