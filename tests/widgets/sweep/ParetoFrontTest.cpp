// The Pareto front of two costs, both minimized, against fronts worked out by hand.
#include "sweep/ParetoFront.h"

#include "sweep/SweepChartData.h"

#include <gtest/gtest.h>

using namespace astrolabe::widgets;

TEST(ParetoFront, KeepsTheNonDominatedPointsSortedByTheFirstCost) {
    // (time, cost):   0:(5,5)  1:(1,9)  2:(3,4)  3:(4,4)  4:(2,8)  5:(6,1)  6:(7,2)
    // 1 has the least time; 4 beats 1 on cost; 2 beats 4 on cost; 3 ties 2 on cost but is
    // slower (dominated by 2); 0 is dominated by 2 (3<5, 4<5); 5 has the least cost; 6 is
    // dominated by 5. Front by time: 1, 4, 2, 5.
    const std::vector<CostPoint> points{{5, 5}, {1, 9}, {3, 4}, {4, 4}, {2, 8}, {6, 1}, {7, 2}};
    EXPECT_EQ(paretoFront(points), (std::vector<size_t>{1, 4, 2, 5}));
}

TEST(ParetoFront, EqualPointsKeepTheFirstAndEqualFirstCostsKeepTheLowerSecond) {
    // 0 and 2 are the same design outcome: one of them (the first) stands for both. 1 has the
    // same time as 0 but a higher cost: dominated.
    const std::vector<CostPoint> points{{2, 3}, {2, 5}, {2, 3}, {1, 7}};
    EXPECT_EQ(paretoFront(points), (std::vector<size_t>{3, 0}));
}

TEST(ParetoFront, EmptyAndSinglePoints) {
    EXPECT_TRUE(paretoFront({}).empty());
    EXPECT_EQ(paretoFront({{4, 4}}), (std::vector<size_t>{0}));
}

TEST(ParetoFront, AChainWhereEveryPointTradesOneCostForTheOther) {
    // x + y = 10 on a line: nothing is dominated, all five are on the front, left to right.
    const std::vector<CostPoint> points{{8, 2}, {2, 8}, {5, 5}, {10, 0}, {0, 10}};
    EXPECT_EQ(paretoFront(points), (std::vector<size_t>{4, 1, 2, 0, 3}));
}

namespace {

SweepRow servingRow(size_t index, double tpotMs, double tokensPerGpu,
                    SweepPointStatus status = SweepPointStatus::Ok) {
    SweepRow row;
    row.summary.index = index;
    row.summary.status = status;
    row.summary.serving = true;
    row.summary.tpotP50Seconds = tpotMs / 1e3;
    row.summary.outputTokensPerGpuSecond = tokensPerGpu;
    return row;
}

} // namespace

TEST(ParetoFront, AServingSweepTradesTokensPerGpuForTpot) {
    // (TPOT ms, tokens/s/GPU): 0:(10, 1000) 1:(5, 400) 2:(20, 3000) 3:(12, 900) 4:(8, 1500)
    // 5 failed. Lower TPOT and more tokens are better. 3 is beaten by 0 (10 < 12, 1000 > 900);
    // 0 by 4 (8 < 10, 1500 > 1000). Front by TPOT: 1 (5 ms), 4 (8 ms), 2 (20 ms).
    const std::vector<SweepRow> rows{
        servingRow(0, 10, 1000), servingRow(1, 5, 400),
        servingRow(2, 20, 3000), servingRow(3, 12, 900),
        servingRow(4, 8, 1500),  servingRow(5, 1, 9999, SweepPointStatus::Failed)};
    const ServingScatter byTpot = servingScatter(rows, false);
    EXPECT_EQ(byTpot.all.size(), 5u);
    EXPECT_EQ(byTpot.frontPoints, (std::vector<size_t>{1, 4, 2}));
    EXPECT_EQ(byTpot.front.front(), (std::pair<double, double>{5, 400}));
    // Interactivity, tokens/s per user = 1000 / TPOT ms: the same front, joined left to right
    // (50, 125, 200 tokens/s per user).
    const ServingScatter byUser = servingScatter(rows, true);
    EXPECT_EQ(byUser.frontPoints, (std::vector<size_t>{2, 4, 1}));
    EXPECT_DOUBLE_EQ(byUser.front.front().first, 50);
    EXPECT_DOUBLE_EQ(byUser.front.back().first, 200);
}
