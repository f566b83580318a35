// Geometry: culling through the source, merging into runs, group density, hit-testing, rows.
#include "timeline/TimelineGeometry.h"

#include "timeline/ColorKey.h"
#include "timeline/RowLayout.h"
#include "timeline/RunResultTimelineSource.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
ActivityInterval activity(int npu, int64_t start, int64_t end, ActivityKind kind, uint64_t id,
                          uint32_t name = 0) {
    ActivityInterval a;
    a.start = SimTime::fromPs(start);
    a.end = SimTime::fromPs(end);
    a.npu = npu;
    a.kind = kind;
    a.nodeType = kind == ActivityKind::Communication ? NodeType::CommColl : NodeType::Comp;
    a.nodeId = id;
    a.nameIndex = name;
    return a;
}

std::shared_ptr<RunResult> smallRun() {
    auto r = std::make_shared<RunResult>();
    r->npuCount = 2;
    r->endTime = SimTime::fromPs(1000);
    r->names = {"gemm", "allreduce", "gemm_bwd"};
    // Row 0: a long comm [50, 1000) and short compute items; row 1: one compute.
    r->activities = {activity(0, 0, 100, ActivityKind::Compute, 1, 0),
                     activity(0, 50, 1000, ActivityKind::Communication, 2, 1),
                     activity(0, 200, 300, ActivityKind::Compute, 3, 2),
                     activity(0, 400, 500, ActivityKind::Compute, 4, 0),
                     activity(1, 0, 1000, ActivityKind::Compute, 5, 0)};
    r->collectives = {
        {SimTime::fromPs(50), SimTime::fromPs(1000), 0, 2, CollectiveType::AllGather, 4096, 2, 0}};
    return r;
}
} // namespace

TEST(RunResultTimelineSource, WindowIsTheSortedSupersetOfOverlaps) {
    const RunResultTimelineSource source(smallRun());
    EXPECT_EQ(source.rowCount(), 2);
    EXPECT_EQ(source.endPs(), 1000);
    // Longest item of row 0 lasts 950 ps, so [600, 700) looks at starts in [-350, 700).
    const ActivityWindow w = source.activities(0, 600, 700);
    ASSERT_EQ(w.items.size(), 4u);
    EXPECT_EQ(w.items[1].nodeId, 2u);
    // Starts at or after t1 are culled.
    EXPECT_EQ(source.activities(0, 0, 200).items.size(), 2u);
    EXPECT_EQ(source.activities(0, 0, 201).items.size(), 3u);
    // Colour keys follow the items: comm of an all-gather, computes.
    EXPECT_EQ(w.colorKeys[0], colorkey::Compute);
    EXPECT_EQ(w.colorKeys[1], colorkey::forCollective(CollectiveType::AllGather));
    EXPECT_EQ(source.activities(1, 900, 950).items.size(), 1u);
    EXPECT_TRUE(source.activities(5, 0, 10).items.empty());
}

TEST(RunResultTimelineSource, SortsUnsortedInputOnce) {
    auto r = smallRun();
    std::swap(r->activities[0], r->activities[4]);
    const RunResultTimelineSource source(r);
    const ActivityWindow w = source.activities(0, 0, 1000);
    ASSERT_EQ(w.items.size(), 4u);
    for (size_t i = 1; i < w.items.size(); ++i)
        EXPECT_LE(w.items[i - 1].start, w.items[i].start);
    EXPECT_EQ(source.activities(1, 0, 1000).items.size(), 1u);
}

TEST(RunResultTimelineSource, FindNextWrapsAround) {
    const RunResultTimelineSource source(smallRun());
    const std::vector<bool> gemm{true, false, false}; // name 0: nodes 1, 4 (row 0) and 5 (row 1)
    auto hit = source.findNext(gemm, {});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->nodeId, 1u);
    hit = source.findNext(gemm, *hit);
    EXPECT_EQ(hit->nodeId, 4u);
    hit = source.findNext(gemm, *hit);
    EXPECT_EQ(hit->nodeId, 5u);
    EXPECT_EQ(hit->row, 1);
    hit = source.findNext(gemm, *hit);
    EXPECT_EQ(hit->nodeId, 1u);
    EXPECT_FALSE(source.findNext({false, false, false}, {}));
}

TEST(RunMerger, WideItemsStayExactAndTouchingOnesJoin) {
    std::vector<TimelineRun> runs;
    RunMerger m(runs, 0);
    m.add(10.0, 20.0, 1);
    m.add(20.0, 30.5, 1); // touches, same key: one run
    m.add(40.0, 45.0, 1); // gap: new run
    m.add(45.0, 50.0, 2); // touches but another key
    m.flush();
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0], (TimelineRun{10.0f, 30.5f, 1, 0, 2}));
    EXPECT_EQ(runs[1], (TimelineRun{40.0f, 45.0f, 1, 0, 1}));
    EXPECT_EQ(runs[2], (TimelineRun{45.0f, 50.0f, 2, 0, 1}));
}

TEST(RunMerger, SubPixelItemsTakeOneRunPerColumn) {
    std::vector<TimelineRun> runs;
    RunMerger m(runs, 1);
    // Ten items of 0.1 px alternating keys inside column 5: one run, key of the first.
    for (int i = 0; i < 10; ++i)
        m.add(5.0 + i * 0.1, 5.05 + i * 0.1, static_cast<uint8_t>(i % 2));
    // Same key in the next column joins; another key two columns on starts a run.
    m.add(6.2, 6.3, 0);
    m.add(8.5, 8.6, 1);
    m.flush();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0], (TimelineRun{5.0f, 7.0f, 0, 1, 11}));
    EXPECT_EQ(runs[1], (TimelineRun{8.0f, 9.0f, 1, 1, 1}));
}

TEST(TimelineGeometry, DenseRowHasAtMostOneRunPerColumnPerLane) {
    auto r = std::make_shared<RunResult>();
    r->npuCount = 1;
    for (int i = 0; i < 100'000; ++i) // 100k items of 7 ps every 10 ps, alternating kinds
        r->activities.push_back(activity(0, i * 10, i * 10 + 7,
                                         i % 2 ? ActivityKind::Memory : ActivityKind::Compute, i));
    r->endTime = SimTime::fromPs(1'000'000);
    const RunResultTimelineSource source(r);
    const TimeMapper mapper(0, 1'000'000, 0, 800);
    RowGeometry g;
    buildNpuRow(source, 0, mapper, {}, g);
    EXPECT_EQ(g.itemCount, 100'000);
    EXPECT_LE(g.runs.size(), 800u);
    EXPECT_GE(g.runs.size(), 1u);
    uint32_t merged = 0;
    for (const TimelineRun& run : g.runs) {
        EXPECT_GE(run.x1 - run.x0, 1.0f);
        merged += run.count;
    }
    EXPECT_EQ(merged, 100'000u);
    EXPECT_FLOAT_EQ(g.finishX, 800.0f);
}

TEST(TimelineGeometry, NpuRowClipsToTheWindowAndMarksOverlays) {
    const RunResultTimelineSource source(smallRun());
    const TimeMapper mapper(100, 600, 0, 500); // 1 ps per px, x = t - 100
    TimelineOverlay overlay;
    overlay.criticalByNpu = {{2}, {}};
    overlay.nameMatches = {false, false, true}; // "gemm_bwd": node 3
    RowGeometry g;
    buildNpuRow(source, 0, mapper, overlay, g);
    // Node 1 ends at 100 = t0: culled. Comm clipped to [0, 500); computes at [100,200), [300,400).
    ASSERT_EQ(g.runs.size(), 3u);
    EXPECT_EQ(g.runs[0], (TimelineRun{100.0f, 200.0f, colorkey::Compute, 0, 1}));
    EXPECT_EQ(g.runs[1], (TimelineRun{300.0f, 400.0f, colorkey::Compute, 0, 1}));
    EXPECT_EQ(g.runs[2], (TimelineRun{0.0f, 500.0f,
                                      colorkey::forCollective(CollectiveType::AllGather), 1, 1}));
    ASSERT_EQ(g.overlays.size(), 2u);
    EXPECT_EQ(g.overlays[0], (TimelineRun{0.0f, 500.0f, colorkey::Critical, 1, 1}));
    EXPECT_EQ(g.overlays[1], (TimelineRun{100.0f, 200.0f, colorkey::SearchMatch, 0, 1}));
}

TEST(TimelineGeometry, CollapsedGroupShowsBusyFractionPerColumn) {
    const RunResultTimelineSource source(smallRun());
    const TimeMapper mapper(0, 1000, 0, 10); // 100 ps per column
    RowGeometry g;
    buildGroupRow(source, 0, 2, mapper, g);
    ASSERT_EQ(g.densityWidth, 10);
    // Work lane, column 0: NPU 0 busy [0,100) and NPU 1 busy: 2/2 -> 255.
    EXPECT_EQ(g.density[0], 255);
    // Column 1 [100,200): only NPU 1 -> 1/2 -> 128 (127.5 rounded).
    EXPECT_EQ(g.density[1], 128);
    EXPECT_EQ(g.density[4], 255); // [400, 500): both
    // Comm lane: NPU 0 from 50: column 0 half of one NPU -> 0.25 -> 64, then 0.5 -> 128.
    EXPECT_EQ(g.density[10 + 0], 64);
    EXPECT_EQ(g.density[10 + 5], 128);
    EXPECT_EQ(g.itemCount, 5);
}

TEST(TimelineGeometry, GroupHistogramMatchesTheExactDensity) {
    // 100 buckets of 10 ps; 10 columns of 100 ps: column edges fall on bucket edges, so the
    // histogram gives the exact fractions of CollapsedGroupShowsBusyFractionPerColumn.
    const RunResultTimelineSource source(smallRun());
    const TimeMapper mapper(0, 1000, 0, 10);
    const GroupHistogram h = buildGroupHistogram(source, 0, 2, 100);
    EXPECT_DOUBLE_EQ(h.bucketPs, 10.0);
    // Work lane: NPU 0 busy 300 ps, NPU 1 1000 ps = 130 busy NPU-buckets.
    EXPECT_DOUBLE_EQ(h.prefix[0].back(), 130.0);
    RowGeometry fromHistogram, exact;
    groupRowFromHistogram(h, mapper, fromHistogram);
    buildGroupRow(source, 0, 2, mapper, exact);
    EXPECT_EQ(fromHistogram.density, exact.density);
    EXPECT_FLOAT_EQ(fromHistogram.finishX, exact.finishX);
    // Zoomed to [250, 750) over 5 columns: still aligned (100 ps = 10 buckets per column).
    const TimeMapper zoomed(250, 750, 0, 5);
    groupRowFromHistogram(h, zoomed, fromHistogram);
    buildGroupRow(source, 0, 2, zoomed, exact);
    EXPECT_EQ(fromHistogram.density, exact.density);
}

TEST(TimelineGeometry, CacheUsesHistogramsForLargeCollapsedGroupsOnly) {
    auto r = std::make_shared<RunResult>();
    r->npuCount = 32;
    for (int npu = 0; npu < 32; ++npu)
        for (int i = 0; i < 100; ++i)
            r->activities.push_back(
                activity(npu, i * 1000, i * 1000 + 500 + npu, ActivityKind::Compute, i));
    r->endTime = SimTime::fromPs(100'000);
    const RunResultTimelineSource source(r);
    RowLayout layout;
    layout.setDimensions({16, 2}, 32);
    layout.setAllCollapsed(true); // two collapsed nodes of 16 NPUs
    TimelineGeometryCache cache;
    TimeMapper mapper(0, 100'000, 0, 100); // 1000 ps per column, buckets of ~6 ps
    const RowGeometry& row = cache.row(source, layout, 0, mapper, {}, 1);
    EXPECT_EQ(cache.histograms(), 1);
    RowGeometry exact;
    buildGroupRow(source, 0, 16, mapper, exact);
    ASSERT_EQ(row.density.size(), exact.density.size());
    for (size_t i = 0; i < exact.density.size(); ++i)
        EXPECT_NEAR(row.density[i], exact.density[i], 1) << i;
    mapper.setWindow(0, 50); // a column is shorter than a bucket: exact again
    cache.row(source, layout, 1, mapper, {}, 1);
    EXPECT_EQ(cache.histograms(), 1);
}

TEST(TimelineGeometry, HitTestPrefersTheItemUnderTheCursor) {
    const RunResultTimelineSource source(smallRun());
    const ActivityWindow w = source.activities(0, 0, 1000);
    EXPECT_EQ(hitTestActivities(w.items, Lane::Work, 250, 10), 2);
    EXPECT_EQ(hitTestActivities(w.items, Lane::Communication, 250, 10), 1);
    EXPECT_EQ(hitTestActivities(w.items, Lane::Work, 305, 10), 2); // 5 ps past the end
    EXPECT_EQ(hitTestActivities(w.items, Lane::Work, 350, 10), -1);
    EXPECT_EQ(hitTestActivities(w.items, Lane::Work, 395, 10), 3); // 5 ps before the start
    EXPECT_EQ(laneAt(0, 26, 3), 0);
    EXPECT_EQ(laneAt(0, 26, 13), 1);
    EXPECT_EQ(laneAt(0, 26, 21), 2);
    EXPECT_EQ(laneAt(0, 26, 0), -1);
}

TEST(TimelineGeometry, CacheBuildsEachRowOncePerKey) {
    const RunResultTimelineSource source(smallRun());
    RowLayout layout;
    layout.setDimensions({2}, 2);
    TimelineGeometryCache cache;
    TimeMapper mapper(0, 1000, 0, 100);
    const TimelineOverlay overlay;
    cache.row(source, layout, 0, mapper, overlay, 1);
    cache.row(source, layout, 0, mapper, overlay, 1);
    cache.row(source, layout, 1, mapper, overlay, 1);
    EXPECT_EQ(cache.builds(), 2);
    mapper.setWindow(0, 500); // a new window: rebuilt
    cache.row(source, layout, 0, mapper, overlay, 1);
    EXPECT_EQ(cache.builds(), 3);
    EXPECT_EQ(cache.cachedRows(), 1);
    cache.row(source, layout, 0, mapper, overlay, 2); // overlay changed
    EXPECT_EQ(cache.builds(), 4);
}

TEST(RowLayout, GroupsByDimensionCoordinates) {
    RowLayout layout;
    layout.setDimensions({4, 2}, 8); // two nodes of four NPUs
    ASSERT_EQ(layout.rows().size(), 10u);
    EXPECT_EQ(layout.label(layout.rows()[0]), "node 0 (4 NPUs)");
    EXPECT_EQ(layout.rows()[5].kind, DisplayRow::Kind::Group);
    EXPECT_EQ(layout.rows()[5].firstNpu, 4);
    EXPECT_EQ(layout.rowOfNpu(6), 8);
    layout.toggle(0);
    ASSERT_EQ(layout.rows().size(), 6u);
    EXPECT_TRUE(layout.rows()[0].collapsed);
    EXPECT_EQ(layout.rowOfNpu(2), 0);
    EXPECT_EQ(layout.rowAt(RowLayout::kCollapsedGroupRowHeight), 1);
    layout.reveal(2);
    EXPECT_EQ(layout.rows().size(), 10u);
}

TEST(RowLayout, PresentationScaleMultipliesEveryRowHeight) {
    // Two nodes of four NPUs: 2 group rows of 20 px and 8 NPU rows of 26 px = 248 px at 100 %.
    RowLayout layout;
    layout.setDimensions({4, 2}, 8);
    ASSERT_EQ(layout.totalHeight(), 2 * RowLayout::kGroupRowHeight + 8 * RowLayout::kNpuRowHeight);
    const uint64_t version = layout.version();
    layout.setScale(2.0);
    EXPECT_GT(layout.version(), version) << "cached geometry must be rebuilt";
    EXPECT_EQ(layout.totalHeight(), 2 * 248);
    EXPECT_EQ(layout.npuRowHeight(), 52);
    EXPECT_EQ(layout.rows()[1].top, 40);
    EXPECT_EQ(layout.rowAt(40 + 51), 1);
    EXPECT_EQ(layout.rowAt(40 + 52), 2);
    layout.setScale(1.25); // 26 * 1.25 = 32.5 rounds to 33; 20 * 1.25 = 25
    EXPECT_EQ(layout.totalHeight(), 2 * 25 + 8 * 33);
    layout.setScale(1.0);
    EXPECT_EQ(layout.totalHeight(), 248);
}

TEST(RowLayout, NestsPodsAndNodes) {
    RowLayout layout;
    layout.setDimensions({2, 2, 2}, 8); // pods of 2 nodes of 2 NPUs
    // pod 0, node 0, 2 NPUs, node 1, 2 NPUs; the same for pod 1: 2 * (1 + 2 * 3) = 14 rows.
    ASSERT_EQ(layout.rows().size(), 14u);
    EXPECT_EQ(layout.label(layout.rows()[0]), "pod 0 (4 NPUs)");
    EXPECT_EQ(layout.label(layout.rows()[4]), "node 1 (2 NPUs)");
    EXPECT_EQ(layout.rows()[5].depth, 2);
    layout.setAllCollapsed(true, 2);
    EXPECT_EQ(layout.rows().size(), 2u);
    EXPECT_EQ(layout.rowOfNpu(5), 1);
    // Sizes that do not multiply to the NPU count: flat rows.
    layout.setDimensions({3, 3}, 8);
    EXPECT_EQ(layout.rows().size(), 8u);
}
