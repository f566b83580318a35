// Pure utilization computations, with the expected values worked out by hand.
#include "utilization/UtilizationData.h"

#include "../timeline/SyntheticRun.h"
#include "spec/SystemConfig.h"
#include "utilization/DimensionStatsModel.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

TEST(UtilizationData, DownsampleKeepsMinAndMaxPerColumnInOrder) {
    const std::vector<float> v{0, 4, 1, 3, 2, 9, 5, 8, 6, 7};
    // Two columns of five samples: [0,4,1,3,2] -> min 0 @0, max 4 @1; [9,5,8,6,7] -> max 9 @5
    // then min 5 @6.
    const auto points = downsampleMinMax(v, 100.0, 10.0, 2);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0], (SeriesPoint{100, 0}));
    EXPECT_EQ(points[1], (SeriesPoint{110, 4}));
    EXPECT_EQ(points[2], (SeriesPoint{150, 9}));
    EXPECT_EQ(points[3], (SeriesPoint{160, 5}));
    // Few samples: all kept.
    EXPECT_EQ(downsampleMinMax(v, 0, 1, 5).size(), 10u);
    // A flat column gives one point.
    const std::vector<float> flat(100, 0.5f);
    EXPECT_EQ(downsampleMinMax(flat, 0, 1, 10).size(), 10u);
}

TEST(UtilizationData, DownsampleBoundsThePointCount) {
    std::vector<float> v(100'000);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
    const auto points = downsampleMinMax(v, 0, 1, 640);
    EXPECT_LE(points.size(), 1280u);
    EXPECT_GE(points.size(), 640u);
    for (size_t i = 1; i < points.size(); ++i)
        EXPECT_LT(points[i - 1].x, points[i].x);
}

TEST(UtilizationData, DimensionSeriesIsTheMeanOfItsLinks) {
    RunResult r;
    r.links = {{0, 1, 0, 1e9}, {1, 0, 0, 1e9}, {0, 2, 1, 1e9}};
    r.linkSeries = {{0.2f, 0.4f}, {0.6f, 0.0f}, {1.0f, 1.0f}};
    EXPECT_EQ(linkDimensionCount(r), 2);
    const std::vector<float> d0 = dimensionSeries(r, 0);
    ASSERT_EQ(d0.size(), 2u);
    EXPECT_FLOAT_EQ(d0[0], 0.4f);
    EXPECT_FLOAT_EQ(d0[1], 0.2f);
    EXPECT_FLOAT_EQ(dimensionSeries(r, 1)[1], 1.0f);
    EXPECT_TRUE(dimensionSeries(r, 2).empty());
}

TEST(UtilizationData, DimensionSeriesOfAGroupedRunWeighsGroupsByTheirLinks) {
    // A stored run with grouped link detail: dimension 0 has a group of 3 links at mean 0.2
    // and one of 1 link at 0.6, so the mean over its 4 links is (3 * 0.2 + 0.6) / 4 = 0.3.
    RunResult r;
    r.links.assign(4, {0, 1, 0, 1e9});
    r.links.push_back({0, 2, 1, 1e9});
    r.linkGroupSeries = {{0, 0, 3, {0.2f, 0.0f}, {0.5f, 0.0f}},
                         {0, 3, 1, {0.6f, 1.0f}, {0.6f, 1.0f}},
                         {1, 0, 1, {1.0f, 1.0f}, {1.0f, 1.0f}}};
    EXPECT_EQ(linkDimensionCount(r), 2);
    const std::vector<float> d0 = dimensionSeries(r, 0);
    ASSERT_EQ(d0.size(), 2u);
    EXPECT_FLOAT_EQ(d0[0], 0.3f);
    EXPECT_FLOAT_EQ(d0[1], 0.25f);
    EXPECT_FLOAT_EQ(dimensionSeries(r, 1)[0], 1.0f);
}

TEST(UtilizationData, AggregateMaxKeepsTheHottestCell) {
    // 4 x 4 into 2 x 2: each output cell is the max of a 2 x 2 block.
    const std::vector<float> grid{1, 2, 0, 0, //
                                  3, 4, 0, 9, //
                                  0, 0, 5, 0, //
                                  7, 0, 0, 6};
    const std::vector<float> out = aggregateMax(grid, 4, 4, 2, 2);
    EXPECT_EQ(out, (std::vector<float>{4, 9, 7, 6}));
    // Asking for more cells than there are leaves the grid as it is.
    EXPECT_EQ(aggregateMax(grid, 4, 4, 10, 10), grid);
}

TEST(UtilizationData, QuickStartBreakdownAndSummary) {
    // Each of the 8 NPUs spends 4 chunks x T in its all-reduce, T = 14 (500 ns + 32 KiB / 50
    // GiB/s).
    const auto run = synthetic::quickStartRun();
    const int64_t chunk =
        SimTime::fromNsRounded(14 * (500.0 + 32768.0 / (50.0 * (1 << 30)) * 1e9)).ps();
    const std::vector<CollectiveTime> times = collectiveBreakdown(*run);
    ASSERT_EQ(times.size(), 1u);
    EXPECT_EQ(times[0].type, CollectiveType::AllReduce);
    EXPECT_EQ(times[0].count, 8);
    EXPECT_EQ(times[0].totalPs, 8 * 4 * chunk);
    EXPECT_EQ(times[0].meanPerNpuPs, 4 * chunk);
    EXPECT_EQ(times[0].bytes, 8u << 20);
    // No compute: exposed communication = finish = 4T + 10 ns * i; mean skew 35 ns, max 70 ns.
    const RunSummaryFigures f = summarize(*run);
    EXPECT_EQ(f.endPs, 4 * chunk + 70'000);
    EXPECT_EQ(f.meanComputePs, 0);
    EXPECT_EQ(f.meanExposedCommPs, 4 * chunk + 35'000);
    EXPECT_EQ(f.maxExposedCommPs, 4 * chunk + 70'000);
    EXPECT_EQ(f.meanOverlapPs, 0);
}

TEST(UtilizationData, AchievedBandwidthIsBytesOverTheRun) {
    DimensionStats d;
    d.bytes = 5'000'000'000;
    EXPECT_DOUBLE_EQ(achievedBandwidth(d, SimTime::fromMs(100)), 50e9);
    EXPECT_DOUBLE_EQ(achievedBandwidth(d, SimTime::zero()), 0.0);
}

// The tables use the engine's formatters, as the CLI report does: sizes in binary units, a
// bandwidth in GiB/s when it is a whole number of them (what the user typed), else in GB/s; an
// achieved bandwidth in the family of the peak beside it.
TEST(DimensionStatsModel, SizesAndBandwidthsReadAsTheCliReportsThem) {
    auto run = std::make_shared<RunResult>();
    run->endTime = SimTime::fromMs(1);
    DimensionStats d;
    d.dimension = 0;
    d.bytes = 14 * (uint64_t{1} << 20);
    d.peakBandwidthBytesPerSecond = 16 * 50.0 * (1ull << 30); // 16 links of 50 GiB/s
    run->dimensions = {d};
    DimensionStatsModel model;
    model.setResult(run);
    EXPECT_EQ(model.index(0, DimensionStatsModel::Peak).data().toString(),
              QStringLiteral("800 GiB/s"));
    EXPECT_EQ(model.index(0, DimensionStatsModel::Bytes).data().toString(),
              QStringLiteral("14 MiB"));
    EXPECT_EQ(model.index(0, DimensionStatsModel::Achieved).data().toString(),
              QStringLiteral("13.67 GiB/s")); // against a GiB/s peak; 4 digits, derived
}

// A dimension whose switches reduced in the network says so; the others stay plain numbers.
TEST(DimensionStatsModel, InSwitchDimensionIsMarked) {
    auto run = std::make_shared<RunResult>();
    run->endTime = SimTime::fromMs(1);
    DimensionStats d0, d1;
    d0.dimension = 0;
    d1.dimension = 1;
    run->dimensions = {d0, d1};
    PhaseSpan ring, inSwitch;
    ring.dimension = 1;
    ring.algorithm = static_cast<uint8_t>(AlgorithmKind::Ring);
    inSwitch.dimension = 0;
    inSwitch.algorithm = static_cast<uint8_t>(AlgorithmKind::InSwitch);
    run->phases = {ring, inSwitch};
    DimensionStatsModel model;
    model.setResult(run);
    EXPECT_EQ(model.index(0, DimensionStatsModel::Dimension).data().toString(),
              QStringLiteral("0 · in-switch"));
    EXPECT_TRUE(model.index(0, DimensionStatsModel::Dimension)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("in the network")));
    EXPECT_EQ(model.index(1, DimensionStatsModel::Dimension).data().toString(),
              QStringLiteral("1"));
    EXPECT_TRUE(model.reducedInNetwork(0));
    EXPECT_FALSE(model.reducedInNetwork(1));
}

// The totals are over both directions of every link: the headers say so.
TEST(DimensionStatsModel, TheHeadersSayTheTotalsAreOverBothDirections) {
    DimensionStatsModel model;
    for (const int column : {int(DimensionStatsModel::Peak), int(DimensionStatsModel::Utilization),
                             int(DimensionStatsModel::PercentOfPeak)})
        EXPECT_TRUE(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole)
                        .toString()
                        .contains(QStringLiteral("both directions")))
            << column;
}
