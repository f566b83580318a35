// What a run records beside its end time: activities, spans, link statistics, critical path.
#include "engine/golden/GoldenSpec.h"

#include <gtest/gtest.h>

using namespace golden;
using CT = CollectiveType;

TEST(Result, RecordsActivitiesSpansAndLinks) {
    auto s = spec({dim(BlockKind::Ring, 8)});
    s.system.preferredDatasetSplits = 4;
    s.options.exploitSymmetry = false;
    const auto r = runCollective(s, CT::AllReduce, kMiB);
    EXPECT_EQ(r->endTime.nsFloor(), 117780);
    ASSERT_EQ(r->activities.size(), 8u);
    EXPECT_EQ(r->activities[0].kind, ActivityKind::Communication);
    EXPECT_EQ(r->collectives.size(), 8u);
    EXPECT_EQ(r->phases.size(), 8u * 4u) << "4 chunks x 1 phase per NPU";
    // Ring all-reduce: every NPU sends 2 (n - 1) messages of C / n per chunk to its clockwise
    // neighbour: 4 chunks x 14 x 32 KiB = 1,835,008 bytes per clockwise link.
    uint64_t clockwise = 0, anticlockwise = 0;
    for (size_t l = 0; l < r->links.size(); ++l)
        (l % 2 == 0 ? clockwise : anticlockwise) += r->linkStats[l].bytes;
    EXPECT_EQ(clockwise, 8u * 4u * 14u * 32768u);
    EXPECT_EQ(anticlockwise, 0u);
    EXPECT_EQ(r->trafficBytes[0 * 8 + 1], 4u * 14u * 32768u);
    ASSERT_EQ(r->dimensions.size(), 1u);
    EXPECT_GT(r->dimensions[0].utilization, 0.0);
    EXPECT_LE(r->dimensions[0].utilization, 1.0);
    ASSERT_FALSE(r->linkSeries.empty());
    EXPECT_FALSE(r->criticalPath.empty());
}

TEST(Result, SymmetricRunsRecordTheSameTotals) {
    auto s = spec({dim(BlockKind::Ring, 8)});
    s.system.preferredDatasetSplits = 4;
    const auto fast = runCollective(s, CT::AllReduce, kMiB);
    s.options.exploitSymmetry = false;
    const auto full = runCollective(s, CT::AllReduce, kMiB);
    ASSERT_EQ(fast->linkStats.size(), full->linkStats.size());
    for (size_t l = 0; l < full->linkStats.size(); ++l) {
        EXPECT_EQ(fast->linkStats[l].bytes, full->linkStats[l].bytes) << l;
        EXPECT_EQ(fast->linkStats[l].busy, full->linkStats[l].busy) << l;
    }
    EXPECT_EQ(fast->activities.size(), full->activities.size());
    EXPECT_EQ(fast->phases.size(), full->phases.size());
}

TEST(Result, CriticalPathFollowsTheLatestParent) {
    const auto r = runTraces(spec({dim(BlockKind::Ring, 2)}),
                             {WorkloadTrace{"", "", {comp(1, 5), comp(2, 3), comp(3, 1, {1, 2})}},
                              WorkloadTrace{"", "", {comp(1, 5)}}});
    // Node 2 waits for the compute slot after node 1, and node 3 waits for node 2.
    ASSERT_EQ(r->criticalPath.size(), 3u);
    EXPECT_EQ(r->criticalPath[0].second, 1u);
    EXPECT_EQ(r->criticalPath[1].second, 2u);
    EXPECT_EQ(r->criticalPath[2].second, 3u);
}
