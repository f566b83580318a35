// Inter- and intra-dimension scheduling (spec §5.10): settings ASTRA-sim 2.x parses nowhere and
// ignores; Astrolabe honours them.
#include "collective/DimensionScheduler.h"
#include "engine/golden/GoldenSpec.h"

#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;
using BK = BlockKind;

TEST(DimensionScheduler, AscendingIsNaturalOrderAndDescendingForAllGather) {
    DimensionScheduler s(InterDimensionScheduling::Ascending, {4, 4, 4}, {1, 1, 1});
    EXPECT_EQ(s.orderFor(CollectiveKind::ReduceScatter, kMiB, {0, 1, 2}),
              (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(s.orderFor(CollectiveKind::AllGather, kMiB, {0, 1, 2}), (std::vector<int>{2, 1, 0}));
}

TEST(DimensionScheduler, RoundRobinRotatesPerChunk) {
    DimensionScheduler s(InterDimensionScheduling::RoundRobin, {4, 4, 4}, {1, 1, 1});
    EXPECT_EQ(s.orderFor(CollectiveKind::AllReduce, kMiB, {0, 1, 2}), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(s.orderFor(CollectiveKind::AllReduce, kMiB, {0, 1, 2}), (std::vector<int>{1, 2, 0}));
    EXPECT_EQ(s.orderFor(CollectiveKind::AllReduce, kMiB, {0, 1, 2}), (std::vector<int>{2, 0, 1}));
}

TEST(DimensionScheduler, OfflineGreedySendsTheNextChunkToTheLeastLoadedDimensionFirst) {
    // Two equal dimensions of 4. Chunk 1 (no load yet) goes 0 then 1. Reduce-scatter of 1 MiB:
    // dim 0 gets 1 * 3/4 = 0.75, dim 1 gets 0.25 * 3/4 = 0.1875 MiB-equivalents. The spread,
    // 0.5625 MiB, exceeds chunk/16 = 64 KiB, so chunk 2 goes to dim 1 first.
    DimensionScheduler s(InterDimensionScheduling::OfflineGreedy, {4, 4}, {1, 1});
    s.beginCollective();
    EXPECT_EQ(s.orderFor(CollectiveKind::ReduceScatter, kMiB, {0, 1}), (std::vector<int>{0, 1}));
    EXPECT_EQ(s.orderFor(CollectiveKind::ReduceScatter, kMiB, {0, 1}), (std::vector<int>{1, 0}));
    s.beginCollective();
    EXPECT_EQ(s.orderFor(CollectiveKind::ReduceScatter, kMiB, {0, 1}), (std::vector<int>{0, 1}))
        << "loads restart with every collective";
}

TEST(Scheduling, OfflineGreedyBeatsTheFixedOrderOnAnUnbalancedPlatform) {
    // 8 chunks over a slow dimension 0 and a fast dimension 1: the fixed order reduces every
    // full chunk on the slow dimension first; Themis sends later chunks to the fast one first.
    auto s = spec({dim(BK::Ring, 4, 25, 500), dim(BK::Ring, 4, 200, 500)});
    s.system.preferredDatasetSplits = 8;
    s.system.activeChunksPerDimension = 2;
    s.system.collectiveOptimization = CollectiveOptimization::Baseline;
    const int64_t fixed = maxCycles(*runCollective(s, CT::ReduceScatter, 8 * kMiB));
    s.system.interDimensionScheduling = InterDimensionScheduling::OfflineGreedy;
    const int64_t themis = maxCycles(*runCollective(s, CT::ReduceScatter, 8 * kMiB));
    EXPECT_LT(themis, fixed);
    s.system.interDimensionScheduling = InterDimensionScheduling::RoundRobin;
    EXPECT_NE(maxCycles(*runCollective(s, CT::ReduceScatter, 8 * kMiB)), fixed)
        << "roundRobin must change the schedule, not be silently ignored";
}

TEST(Scheduling, IntraDimensionPoliciesChangeMultiPhaseSchedules) {
    auto s = spec({dim(BK::Ring, 4, 100, 500), dim(BK::Ring, 4, 100, 500)});
    s.system.preferredDatasetSplits = 8;
    s.system.activeChunksPerDimension = 1;
    const int64_t fifo = maxCycles(*runCollective(s, CT::AllReduce, 8 * kMiB));
    s.system.intraDimensionScheduling = IntraDimensionScheduling::SmallestFirst;
    const int64_t scf = maxCycles(*runCollective(s, CT::AllReduce, 8 * kMiB));
    // Smallest-first lets the small all-gathers overtake waiting reduce-scatters: the last
    // chunk's result comes no later, and the schedule is not the FIFO one.
    EXPECT_LE(scf, fifo);
    const auto r = runCollective(s, CT::AllReduce, 8 * kMiB);
    EXPECT_EQ(r->phases.size(), size_t(16) * 8 * 3) << "3 phases per chunk per NPU, recorded";
}
