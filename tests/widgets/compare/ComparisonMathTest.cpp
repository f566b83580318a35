// export/Comparison.h on hand-made results: the numbers the CLI and the Compare tab share.

#include "export/Comparison.h"

#include <gtest/gtest.h>
#include <tuple>

namespace astrolabe {
namespace {

RunResult resultWith(int64_t endNs, std::vector<std::tuple<int64_t, int64_t, int64_t>> npus) {
    RunResult r;
    r.endTime = SimTime::fromNs(endNs);
    int i = 0;
    for (auto [gpu, exposed, overlap] : npus) {
        NpuSummary s;
        s.npu = i++;
        s.finish = SimTime::fromNs(endNs);
        s.gpuTime = SimTime::fromNs(gpu);
        s.exposedComm = SimTime::fromNs(exposed);
        s.overlap = SimTime::fromNs(overlap);
        r.npus.push_back(s);
    }
    return r;
}

CollectiveSpan span(int npu, uint64_t node, int64_t startNs, int64_t endNs, uint64_t size) {
    CollectiveSpan c;
    c.npu = npu;
    c.nodeId = node;
    c.start = SimTime::fromNs(startNs);
    c.end = SimTime::fromNs(endNs);
    c.sizeBytes = size;
    return c;
}

TEST(Comparison, NpuRowsAreTheMaximumOrTheMeanOverNpus) {
    const RunResult a = resultWith(1000, {{100, 900, 0}, {300, 700, 50}});
    const RunResult b = resultWith(4000, {{200, 3800, 10}, {600, 3400, 30}});
    const std::vector<ComparisonInput> in{{&a, {}}, {&b, {}}};
    const auto rows = comparisonRows(in);
    ASSERT_GE(rows.size(), 4u);
    EXPECT_EQ(rows[0].key, "end_time");
    EXPECT_DOUBLE_EQ(*rows[0].values[0], 1000);
    EXPECT_DOUBLE_EQ(*rows[0].values[1], 4000);
    EXPECT_EQ(rows[1].label, "compute (max)");
    EXPECT_DOUBLE_EQ(*rows[1].values[1], 600);
    EXPECT_DOUBLE_EQ(*rows[2].values[0], 900); // exposed comm: the worse NPU
    EXPECT_DOUBLE_EQ(*rows[3].values[0], 50);  // overlap
    ComparisonOptions mean;
    mean.npuStatistic = ComparisonOptions::NpuStatistic::Mean;
    const auto meanRows = comparisonRows(in, mean);
    EXPECT_EQ(meanRows[1].label, "compute (mean)");
    EXPECT_DOUBLE_EQ(*meanRows[1].values[1], 400);
    EXPECT_DOUBLE_EQ(*meanRows[2].values[1], 3600);
    EXPECT_DOUBLE_EQ(*metricRatio(rows[0].values[1], rows[0].values[0]), 4.0);
    EXPECT_FALSE(metricRatio(std::nullopt, 1.0));
    EXPECT_FALSE(metricRatio(1.0, 0.0));
}

TEST(Comparison, CollectivesGroupByNodeAndKeepTheLongestPerTypeAndSize) {
    RunResult r = resultWith(1000, {{0, 1000, 0}});
    // Node 7 (1 MiB) on two NPUs: 100 and 140 ns; node 9 (1 MiB) 50 ns; node 3 (4 KiB) 10 ns.
    r.collectives = {span(0, 7, 0, 100, 1 << 20), span(1, 7, 10, 150, 1 << 20),
                     span(0, 9, 200, 250, 1 << 20), span(0, 3, 300, 310, 4096)};
    const auto timings = collectiveTimings(r);
    ASSERT_EQ(timings.size(), 3u);
    EXPECT_DOUBLE_EQ(timings[0].maxDurationNs, 140);
    EXPECT_DOUBLE_EQ(timings[0].meanDurationNs, 120);
    EXPECT_DOUBLE_EQ(timings[1].maxDurationNs, 50);
    EXPECT_EQ(timings[2].sizeBytes, 4096u);
    const auto rows = comparisonRows({{&r, timings}});
    const auto find = [&](const std::string& key) {
        for (const MetricRow& m : rows)
            if (m.key == key)
                return *m.values[0];
        ADD_FAILURE() << "no row " << key;
        return -1.0;
    };
    EXPECT_DOUBLE_EQ(find("collective.ALL_REDUCE.1048576"), 140);
    EXPECT_DOUBLE_EQ(find("collective.ALL_REDUCE.4096"), 10);
}

TEST(Comparison, DimensionBytesAndAchievedBandwidth) {
    RunResult r = resultWith(2000, {});
    r.dimensions = {DimensionStats{0, 4000, SimTime::fromNs(10), 0, 0}};
    const auto rows = comparisonRows({{&r, {}}});
    ASSERT_EQ(rows.back().key, "dim0.bandwidth");
    EXPECT_DOUBLE_EQ(*rows.back().values[0], 4000 / 2e-6); // 2 GB/s
    EXPECT_DOUBLE_EQ(*rows[rows.size() - 2].values[0], 4000);
}

TEST(Comparison, SettingsDifferAndASingleNumericDifferenceIsASweep) {
    SimulationSpec a;
    a.platform.dimensions = {DimensionSpec{BlockKind::Ring, 8, 50.0 * (1 << 30), 500}};
    a.system.preferredDatasetSplits = 4;
    SimulationSpec b = a;
    b.name = "another name"; // names are not settings
    b.platform.dimensions[0].bandwidthBytesPerSecond = 25.0 * (1 << 30);
    auto rows = compareSettings({a, b});
    int differing = 0;
    for (const SettingRow& row : rows)
        if (row.differs) {
            ++differing;
            EXPECT_EQ(row.key, "platform.dim0.bandwidth");
            EXPECT_EQ(row.texts[0], "50 GiB/s");
            EXPECT_EQ(row.texts[1], "25 GiB/s");
        }
    EXPECT_EQ(differing, 1);
    const auto axis = findSweepAxis(rows);
    ASSERT_TRUE(axis);
    EXPECT_DOUBLE_EQ(*axis->numeric[1], 25.0 * (1 << 30));

    // The NPU count follows from the sizes: changing a size is still a one-setting sweep.
    SimulationSpec c = a;
    c.platform.dimensions[0].size = 16;
    const auto bySize = findSweepAxis(compareSettings({a, c}));
    ASSERT_TRUE(bySize);
    EXPECT_EQ(bySize->key, "platform.dim0.size");
    // Two changed settings, or a text setting, are not.
    c.system.preferredDatasetSplits = 8;
    EXPECT_FALSE(findSweepAxis(compareSettings({a, c})));
    SimulationSpec d = a;
    d.system.schedulingPolicy = SchedulingPolicy::FIFO;
    EXPECT_FALSE(findSweepAxis(compareSettings({a, d})));
}

} // namespace
} // namespace astrolabe
