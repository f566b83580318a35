// LinkRecorder's accounting and its utilization series. The series has K = kBuckets buckets of
// width w = 1 ns * 2^k, k the smallest with K w >= the latest busy end; bucket b holds
// |[s, e) ∩ [b w, (b+1) w)| / w for each busy interval [s, e), capped at 1.
#include "record/LinkRecorder.h"

#include "record/LinkGroups.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <utility>
#include <vector>

using namespace astrolabe;

namespace {

constexpr int K = LinkRecorder::kBuckets;

SimTime ps(int64_t v) {
    return SimTime::fromPs(v);
}

/// The bucket width the recorder must reach for a busy interval (or run) ending at `end`.
int64_t bucketFor(int64_t endPs) {
    int64_t w = 1000;
    while (w * K < endPs)
        w *= 2;
    return w;
}

/// Overlap of [s, e) with bucket b of width w, as a fraction of w.
double overlap(int64_t s, int64_t e, int64_t b, int64_t w) {
    const int64_t lo = std::max(s, b * w), hi = std::min(e, (b + 1) * w);
    return hi > lo ? static_cast<double>(hi - lo) / static_cast<double>(w) : 0.0;
}

/// `links` links, all in dimension 0 at 1 B/ns.
RunResult finished(LinkRecorder& r, int links, SimTime end) {
    RunResult result;
    result.endTime = end;
    for (int l = 0; l < links; ++l)
        result.links.push_back({l, l + 1, 0, 1e9});
    r.finish(result, 1);
    return result;
}

} // namespace

TEST(LinkRecorder, StatsAddBytesMessagesAndBusyTime) {
    LinkRecorder r(3, 4, true, false);
    r.add(1, ps(0), ps(1500), 100);
    r.add(1, ps(2000), ps(2750), 50);
    r.add(2, ps(10), ps(20), 7);
    const RunResult result = finished(r, 3, ps(5000));
    EXPECT_EQ(result.linkStats[0].messages, 0u);
    EXPECT_EQ(result.linkStats[1].bytes, 150u);
    EXPECT_EQ(result.linkStats[1].messages, 2u);
    EXPECT_EQ(result.linkStats[1].busy, ps(1500 + 750));
    EXPECT_EQ(result.linkStats[2].busy, ps(10));
}

TEST(LinkRecorder, AnIntervalInsideOneBucketFillsItsFraction) {
    LinkRecorder r(1, 2, true, false);
    r.add(0, ps(200), ps(700), 1);
    const RunResult result = finished(r, 1, ps(1000));
    ASSERT_EQ(result.seriesBucket, ps(1000));
    ASSERT_EQ(result.linkSeries[0].size(), 1u);
    EXPECT_FLOAT_EQ(result.linkSeries[0][0], 500.0f / 1000.0f);
}

TEST(LinkRecorder, AnIntervalStraddlingABoundaryIsSplitExactly) {
    // [600, 1400) ps over 1 ns buckets: 400 ps in bucket 0 and 400 ps in bucket 1.
    // [2500, 5250): 0.5, 1, 1, 0.25.
    LinkRecorder r(2, 2, true, false);
    r.add(0, ps(600), ps(1400), 1);
    r.add(1, ps(2500), ps(5250), 1);
    const RunResult result = finished(r, 2, ps(6000));
    const int64_t w = 1000;
    ASSERT_EQ(result.linkSeries[0].size(), 6u);
    for (int64_t b = 0; b < 6; ++b) {
        EXPECT_FLOAT_EQ(result.linkSeries[0][size_t(b)], overlap(600, 1400, b, w)) << b;
        EXPECT_FLOAT_EQ(result.linkSeries[1][size_t(b)], overlap(2500, 5250, b, w)) << b;
    }
    EXPECT_FLOAT_EQ(result.linkSeries[0][0] + result.linkSeries[0][1], 800.0f / 1000.0f);
}

TEST(LinkRecorder, BucketsDoubleUntilTheLatestBusyEndFits) {
    // A busy interval ending at 1,300,001 ps needs w with 512 w >= end: w = 1000 * 2^2 = 4 ns
    // (512 * 2 ns = 1,024,000 is too short).
    const int64_t end = 1'300'001;
    LinkRecorder r(1, 2, true, false);
    r.add(0, ps(end - 10'000), ps(end), 1);
    const RunResult result = finished(r, 1, ps(end));
    EXPECT_EQ(result.seriesBucket.ps(), bucketFor(end));
    EXPECT_EQ(result.seriesBucket.ps(), 4000);
    const int64_t w = result.seriesBucket.ps();
    ASSERT_EQ(result.linkSeries[0].size(), static_cast<size_t>((end + w - 1) / w));
    for (size_t b = 0; b < result.linkSeries[0].size(); ++b)
        EXPECT_FLOAT_EQ(result.linkSeries[0][b], overlap(end - 10'000, end, int64_t(b), w)) << b;
}

TEST(LinkRecorder, MergingBucketsKeepsEveryPicosecondOfBusyTime) {
    // Busy time recorded at 1 ns resolution survives the doubling: after growing to w, bucket b
    // holds the sum of the overlaps with [b w, (b+1) w), whatever the width was when added.
    LinkRecorder r(1, 2, true, false);
    const std::vector<std::pair<int64_t, int64_t>> busy{
        {0, 1000}, {1000, 1500}, {2999, 3001}, {400'000, 400'700}, {700'000, 2'000'000}};
    for (const auto& [s, e] : busy)
        r.add(0, ps(s), ps(e), 1);
    const int64_t end = 2'000'000;
    const RunResult result = finished(r, 1, ps(end));
    const int64_t w = bucketFor(end);
    ASSERT_EQ(result.seriesBucket.ps(), w);
    double total = 0;
    for (size_t b = 0; b < result.linkSeries[0].size(); ++b) {
        double expected = 0;
        for (const auto& [s, e] : busy)
            expected += overlap(s, e, int64_t(b), w);
        EXPECT_NEAR(result.linkSeries[0][b], expected, 1e-6) << "bucket " << b;
        total += result.linkSeries[0][b];
    }
    int64_t busyPs = 0;
    for (const auto& [s, e] : busy)
        busyPs += e - s;
    EXPECT_NEAR(total * static_cast<double>(w), static_cast<double>(busyPs), 1.0);
    EXPECT_EQ(result.linkStats[0].busy, ps(busyPs));
}

TEST(LinkRecorder, TheSeriesNeverHoldsMoreThanKBuckets) {
    // A run 1000x longer than K ns: w = bucketFor(end), and the series has ceil(end / w) <= K.
    for (int64_t end : {int64_t(1), int64_t(511'999), int64_t(512'001), int64_t(987'654'321'987)}) {
        LinkRecorder r(1, 2, true, false);
        r.add(0, ps(0), ps(end), 1);
        const RunResult result = finished(r, 1, ps(end));
        const int64_t w = bucketFor(end);
        EXPECT_EQ(result.seriesBucket.ps(), w) << end;
        EXPECT_EQ(result.linkSeries[0].size(), static_cast<size_t>((end + w - 1) / w)) << end;
        EXPECT_LE(result.linkSeries[0].size(), static_cast<size_t>(K));
    }
}

TEST(LinkRecorder, TheSeriesSpansTheWholeRunWhenTheLinksFallIdleEarly) {
    // The last busy interval ends at 100 ns, the run at 1 ms: the series must still cover the
    // run (K w >= end), or views that draw seriesBucket * size() show 0.05% of it.
    const int64_t busyEnd = 100'000, end = 1'000'000'000;
    LinkRecorder r(1, 2, true, false);
    r.add(0, ps(0), ps(busyEnd), 1);
    const RunResult result = finished(r, 1, ps(end));
    const int64_t w = bucketFor(end);
    EXPECT_EQ(result.seriesBucket.ps(), w);
    ASSERT_EQ(result.linkSeries[0].size(), static_cast<size_t>((end + w - 1) / w));
    EXPECT_GE(result.seriesBucket.ps() * static_cast<int64_t>(result.linkSeries[0].size()), end);
    EXPECT_FLOAT_EQ(result.linkSeries[0][0], overlap(0, busyEnd, 0, w));
}

TEST(LinkRecorder, UtilizationIsCappedAtOneWhereIntervalsOverlap) {
    // The congestion-unaware model puts overlapping intervals on one link: the series is capped
    // at 100% per bucket; the busy total keeps the sum (and so can exceed the run).
    LinkRecorder r(1, 2, true, false);
    for (int i = 0; i < 3; ++i)
        r.add(0, ps(0), ps(2000), 1);
    const RunResult result = finished(r, 1, ps(2000));
    ASSERT_EQ(result.linkSeries[0].size(), 2u);
    EXPECT_FLOAT_EQ(result.linkSeries[0][0], 1.0f);
    EXPECT_FLOAT_EQ(result.linkSeries[0][1], 1.0f);
    EXPECT_EQ(result.linkStats[0].busy, ps(3 * 2000));
}

TEST(LinkRecorder, EmptyIntervalsCountMessagesButNoBusyTime) {
    LinkRecorder r(2, 2, true, false);
    r.add(1, ps(500), ps(500), 64);
    const RunResult result = finished(r, 2, ps(3000));
    EXPECT_EQ(result.linkStats[1].messages, 1u);
    EXPECT_EQ(result.linkStats[1].bytes, 64u);
    EXPECT_EQ(result.linkStats[1].busy, SimTime::zero());
    ASSERT_EQ(result.linkSeries[1].size(), 3u) << "ceil(3000 / 1000) buckets, all zero";
    ASSERT_EQ(result.linkSeries[0].size(), 3u) << "an unused link gets zeros too";
    for (size_t b = 0; b < 3; ++b) {
        EXPECT_EQ(result.linkSeries[0][b], 0.0f);
        EXPECT_EQ(result.linkSeries[1][b], 0.0f);
    }
}

TEST(LinkRecorder, IntervalsAreKeptOnlyOnRequestSortedByLinkThenStart) {
    LinkRecorder keep(3, 2, true, true), drop(3, 2, true, false);
    const std::vector<LinkBusyInterval> added{
        {ps(50), ps(60), 2}, {ps(30), ps(40), 0}, {ps(10), ps(20), 2}, {ps(0), ps(5), 1}};
    for (const LinkBusyInterval& i : added) {
        keep.add(i.link, i.start, i.end, 1);
        drop.add(i.link, i.start, i.end, 1);
    }
    const RunResult kept = finished(keep, 3, ps(100));
    EXPECT_TRUE(finished(drop, 3, ps(100)).linkIntervals.empty());
    ASSERT_EQ(kept.linkIntervals.size(), added.size());
    const std::vector<std::pair<int, int64_t>> order{{0, 30}, {1, 0}, {2, 10}, {2, 50}};
    for (size_t i = 0; i < order.size(); ++i) {
        EXPECT_EQ(kept.linkIntervals[i].link, order[i].first);
        EXPECT_EQ(kept.linkIntervals[i].start, ps(order[i].second));
    }
}

TEST(LinkRecorder, TrafficMatrixAccumulatesBySourceAndDestination) {
    const int n = 3;
    LinkRecorder r(1, n, true, false);
    r.addTraffic(0, 2, 100);
    r.addTraffic(0, 2, 23);
    r.addTraffic(2, 1, 5);
    const RunResult result = finished(r, 1, ps(1));
    ASSERT_EQ(result.trafficBytes.size(), size_t(n * n));
    std::vector<uint64_t> expected(size_t(n * n), 0);
    expected[0 * n + 2] = 123;
    expected[2 * n + 1] = 5;
    EXPECT_EQ(result.trafficBytes, expected);
}

TEST(LinkRecorder, TrafficMatrixIsDroppedWhenDisabledOrAbove2048Npus) {
    // A dense N x N matrix of 2049^2 uint64 would be 33 MB; 2048 is the documented limit.
    LinkRecorder off(1, 4, false, false), big(1, 2049, true, false), limit(1, 2048, true, false);
    off.addTraffic(0, 1, 1);
    big.addTraffic(0, 1, 1);
    limit.addTraffic(2047, 0, 9);
    EXPECT_TRUE(finished(off, 1, ps(1)).trafficBytes.empty());
    EXPECT_TRUE(finished(big, 1, ps(1)).trafficBytes.empty());
    const RunResult atLimit = finished(limit, 1, ps(1));
    ASSERT_EQ(atLimit.trafficBytes.size(), size_t(2048) * 2048);
    EXPECT_EQ(atLimit.trafficBytes[size_t(2047) * 2048], 9u);
}

TEST(LinkRecorder, DimensionStatisticsSumTheirLinks) {
    // busy_d = mean over the links; utilization_d = sum busy / (links_d * end); peak bandwidth =
    // sum of link bandwidths.
    LinkRecorder r(3, 2, true, false);
    r.add(0, ps(0), ps(400), 10);
    r.add(1, ps(100), ps(300), 20);
    r.add(2, ps(0), ps(1000), 30);
    RunResult result;
    result.endTime = ps(1000);
    result.links = {{0, 1, 0, 2e9}, {1, 0, 0, 3e9}, {0, 2, 1, 5e9}};
    r.finish(result, 2);
    ASSERT_EQ(result.dimensions.size(), 2u);
    EXPECT_EQ(result.dimensions[0].bytes, 30u);
    EXPECT_EQ(result.dimensions[0].busy, ps(300));
    EXPECT_EQ(result.dimensions[1].busy, ps(1000));
    EXPECT_DOUBLE_EQ(result.dimensions[0].peakBandwidthBytesPerSecond, 5e9);
    EXPECT_DOUBLE_EQ(result.dimensions[0].utilization, 600.0 / (2 * 1000.0));
    EXPECT_DOUBLE_EQ(result.dimensions[1].utilization, 1000.0 / (1 * 1000.0));
}

// Near the end of the simulated clock the buckets' end (512 x width) passes int64: an interval
// ending at 3.8e18 ps once doubled the width forever (a hang at 108,000 TB on a 50 GiB/s ring).
// And links whose busy times sum past the clock: the dimension keeps their mean.
TEST(LinkRecorder, RunsNearTheEndOfTheClockAndDimensionsOfManyLinks) {
    for (int64_t endPs : {int64_t{3'800'000'000'000'000'000}, INT64_MAX - 1, INT64_MAX}) {
        LinkRecorder r(1, 2, true, false);
        r.add(0, ps(0), ps(endPs), 1);
        RunResult result;
        result.endTime = ps(endPs);
        result.links = {{0, 1, 0, 1e9}};
        r.finish(result, 1);
        ASSERT_GT(result.linkSeries.at(0).size(), static_cast<size_t>(LinkRecorder::kBuckets / 2));
        ASSERT_LE(result.linkSeries[0].size(), static_cast<size_t>(LinkRecorder::kBuckets));
        EXPECT_GE(result.seriesBucket.ps(), endPs / LinkRecorder::kBuckets);
        EXPECT_FLOAT_EQ(result.linkSeries[0].front(), 1.0f);
        EXPECT_EQ(result.dimensions.at(0).busy, ps(endPs));
        EXPECT_DOUBLE_EQ(result.dimensions[0].utilization, 1.0);
    }
    // Three links busy 4e18 ps each: 1.2e19 ps in all, past int64.
    const int64_t long4 = 4'000'000'000'000'000'000;
    LinkRecorder r(3, 2, true, false);
    RunResult result;
    result.endTime = ps(long4);
    for (int l = 0; l < 3; ++l) {
        r.add(l, ps(0), ps(long4), 1);
        result.links.push_back({0, 1, 0, 1e9});
    }
    r.finish(result, 1);
    EXPECT_EQ(result.dimensions.at(0).busy, ps(long4));
    EXPECT_DOUBLE_EQ(result.dimensions[0].utilization, 1.0);
    EXPECT_EQ(result.dimensions[0].bytes, 3u);
}

TEST(LinkRecorder, SymmetricExpansionSpreadsEachClassOverItsLinks) {
    // 4 NPUs, links {0,1} in class 0, {2,3} in class 1. Recorded on one NPU only: each link of
    // class c gets N / |c| times the class total; traffic row r is row 0 translated by r.
    const int n = 4;
    LinkRecorder r(4, n, true, false);
    r.add(0, ps(0), ps(1000), 40);
    r.add(2, ps(0), ps(500), 8);
    r.add(3, ps(0), ps(100), 2);
    r.addTraffic(0, 1, 7);
    r.expandSymmetric({0, 0, 1, 1}, 2, [n](int a, int b) { return (a + b) % n; });
    const RunResult result = finished(r, 4, ps(1000));
    const double factor = static_cast<double>(n) / 2;
    for (int l : {0, 1}) {
        EXPECT_EQ(result.linkStats[size_t(l)].bytes, uint64_t(40 * factor));
        EXPECT_EQ(result.linkStats[size_t(l)].busy, SimTime::fromPsRounded(1000 * factor));
    }
    for (int l : {2, 3})
        EXPECT_EQ(result.linkStats[size_t(l)].bytes, uint64_t((8 + 2) * factor));
    for (int row = 0; row < n; ++row)
        EXPECT_EQ(result.trafficBytes[size_t(row * n + (row + 1) % n)], 7u) << "row " << row;
}

// Past the link detail limit the recorder makes only the groups of links (record/LinkGroups.h),
// never the per-link series: each group's mean and maximum are those of its links' series.
TEST(LinkRecorder, PastTheDetailLimitOnlyTheGroupsAreMade) {
    const int links = static_cast<int>(kLinkDetailLimit) * 2; // 64 links a group
    LinkRecorder r(links, 4, true, false);
    r.add(0, ps(0), ps(500), 1);  // link 0: half of bucket 0
    r.add(1, ps(0), ps(1000), 1); // link 1: all of it
    r.add(links - 1, ps(1000), ps(2000), 1);
    const RunResult result = finished(r, links, ps(2000));
    EXPECT_TRUE(result.linkSeries.empty());
    ASSERT_EQ(result.linkGroupSeries.size(), static_cast<size_t>(kLinkGroupsPerDimension));
    const LinkGroupSeries& first = result.linkGroupSeries.front();
    EXPECT_EQ(first.firstRank, 0);
    EXPECT_EQ(first.linkCount, links / kLinkGroupsPerDimension);
    ASSERT_EQ(first.mean.size(), 2u);
    EXPECT_FLOAT_EQ(first.mean[0], (0.5f + 1.0f) / static_cast<float>(first.linkCount));
    EXPECT_FLOAT_EQ(first.max[0], 1.0f);
    EXPECT_FLOAT_EQ(first.max[1], 0.0f);
    const LinkGroupSeries& last = result.linkGroupSeries.back();
    EXPECT_FLOAT_EQ(last.max[1], 1.0f);
    EXPECT_FLOAT_EQ(last.max[0], 0.0f);
    // Totals stay per link.
    EXPECT_EQ(result.linkStats[1].busy, ps(1000));
}
