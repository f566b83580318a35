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

namespace {

/// Two all-reduces (8 MiB and 1 MiB) issued together on every NPU of a 4 x 4 x 2 ring stack, 8
/// chunks with 2 in flight per dimension: the phases' start times, in record order (the
/// schedule), under the given orders.
std::vector<int64_t> twoAllReduceSchedule(CollectiveOptimization optimization,
                                          InterDimensionScheduling inter,
                                          IntraDimensionScheduling intra) {
    auto s =
        spec({dim(BK::Ring, 4, 100, 500), dim(BK::Ring, 4, 100, 500), dim(BK::Ring, 2, 100, 500)});
    s.system.preferredDatasetSplits = 8;
    s.system.activeChunksPerDimension = 2;
    s.system.collectiveOptimization = optimization;
    s.system.interDimensionScheduling = inter;
    s.system.intraDimensionScheduling = intra;
    std::vector<WorkloadTrace> traces(32);
    for (auto& trace : traces) {
        trace.nodes.push_back(coll(1, CT::AllReduce, 8 * kMiB));
        trace.nodes.push_back(coll(2, CT::AllReduce, kMiB));
    }
    const auto r = runTraces(s, std::move(traces));
    std::vector<int64_t> starts;
    for (const auto& span : r->phases)
        starts.push_back(span.start.ps());
    return starts;
}

} // namespace

TEST(Scheduling, IntraDimensionPoliciesReorderChunksThatVisitTheDimensionsInDifferentOrders) {
    using ID = IntraDimensionScheduling;
    const auto themis = [](ID intra) {
        return twoAllReduceSchedule(CollectiveOptimization::LocalBWAware,
                                    InterDimensionScheduling::OfflineGreedy, intra);
    };
    // Themis gives chunks different dimension orders, so a queue holds reduce-scatters and
    // all-gathers of different sizes and phases: every policy reorders them.
    const auto fifo = themis(ID::FIFO);
    EXPECT_NE(themis(ID::RG), fifo) << "RG must change the schedule";
    EXPECT_NE(themis(ID::SmallestFirst), fifo) << "smallestFirst must change the schedule";
    EXPECT_NE(themis(ID::LessRemainingPhaseFirst), fifo);

    // In the ascending order every chunk of a collective visits the dimensions in the same
    // order with the same sizes: RG and smallestFirst find nothing to reorder (docs/
    // network-models.md says so), lessRemainingPhaseFirst still lets returning all-gathers pass.
    const auto ascending = [](CollectiveOptimization optimization, ID intra) {
        return twoAllReduceSchedule(optimization, InterDimensionScheduling::Ascending, intra);
    };
    const auto local = ascending(CollectiveOptimization::LocalBWAware, ID::FIFO);
    EXPECT_EQ(ascending(CollectiveOptimization::LocalBWAware, ID::RG), local);
    EXPECT_EQ(ascending(CollectiveOptimization::LocalBWAware, ID::SmallestFirst), local);
    EXPECT_NE(ascending(CollectiveOptimization::LocalBWAware, ID::LessRemainingPhaseFirst), local);
    // A baseline all-reduce is all-reduce phases only, which the policies leave alone.
    const auto baseline = ascending(CollectiveOptimization::Baseline, ID::FIFO);
    EXPECT_EQ(ascending(CollectiveOptimization::Baseline, ID::LessRemainingPhaseFirst), baseline);
}
