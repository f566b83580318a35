// Link detail beyond the limit: a run with more links than LinkDetailPolicy::maxLinks keeps its
// per-link totals exactly and its utilization series per group of links (record/LinkGroups.h);
// a run within the limit is stored per link, as before.
#include "record/LinkGroups.h"
#include "store/ProjectDatabase.h"
#include "store/Sqlite.h"
#include "support/SyntheticRun.h"
#include "support/TempDir.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using astrolabe::test::TempDir;

namespace {

int64_t rowsOf(const std::string& path, const std::string& table, int64_t run) {
    SqliteConnection db(path);
    return db.queryInt("SELECT COUNT(*) FROM " + table + " WHERE run_id = " + std::to_string(run));
}

void expectSameLinkTotals(const RunResult& stored, const RunResult& original) {
    ASSERT_EQ(stored.links.size(), original.links.size());
    ASSERT_EQ(stored.linkStats.size(), original.linkStats.size());
    for (size_t l = 0; l < original.links.size(); ++l) {
        EXPECT_EQ(stored.links[l].src, original.links[l].src);
        EXPECT_EQ(stored.links[l].dst, original.links[l].dst);
        EXPECT_EQ(stored.links[l].dimension, original.links[l].dimension);
        EXPECT_EQ(stored.linkStats[l].bytes, original.linkStats[l].bytes);
        EXPECT_EQ(stored.linkStats[l].messages, original.linkStats[l].messages);
        EXPECT_EQ(stored.linkStats[l].busy, original.linkStats[l].busy);
    }
    ASSERT_EQ(stored.dimensions.size(), original.dimensions.size());
    for (size_t d = 0; d < original.dimensions.size(); ++d) {
        EXPECT_EQ(stored.dimensions[d].bytes, original.dimensions[d].bytes);
        EXPECT_EQ(stored.dimensions[d].busy, original.dimensions[d].busy);
        EXPECT_EQ(stored.dimensions[d].utilization, original.dimensions[d].utilization);
    }
    EXPECT_EQ(stored.seriesBucket, original.seriesBucket);
}

} // namespace

TEST(LinkGroups, GroupsAreConsecutiveRanksOfOneDimensionWithMeanAndMax) {
    // 2 dimensions x 10 links, 3 groups per dimension: ceil(10 / 3) = 4 links a group, so the
    // groups hold ranks [0, 4), [4, 8), [8, 10) of each dimension.
    test::SyntheticRunShape shape;
    shape.npus = 10;
    shape.dims = 2;
    const RunResult r = test::makeSyntheticRun(shape);
    const std::vector<LinkGroupSeries> groups = groupLinkSeries(r, 3);
    ASSERT_EQ(groups.size(), 6u);
    const int expectedFirst[] = {0, 4, 8, 0, 4, 8};
    const int expectedCount[] = {4, 4, 2, 4, 4, 2};
    for (size_t g = 0; g < groups.size(); ++g) {
        EXPECT_EQ(groups[g].dimension, g < 3 ? 0 : 1);
        EXPECT_EQ(groups[g].firstRank, expectedFirst[g]);
        EXPECT_EQ(groups[g].linkCount, expectedCount[g]);
        // The synthetic run puts dimension d's links at indices d * 10 + rank.
        for (size_t b = 0; b < groups[g].mean.size(); ++b) {
            double sum = 0;
            float max = 0;
            for (int rank = expectedFirst[g]; rank < expectedFirst[g] + expectedCount[g]; ++rank) {
                const float v = r.linkSeries[(g < 3 ? 0 : 10) + rank][b];
                sum += v;
                max = std::max(max, v);
            }
            EXPECT_FLOAT_EQ(groups[g].mean[b], static_cast<float>(sum / expectedCount[g]));
            EXPECT_EQ(groups[g].max[b], max);
        }
    }
    RunResult grouped = r;
    grouped.linkGroupSeries = groups;
    const std::vector<int> groupOf = linkGroupIndex(grouped);
    ASSERT_EQ(groupOf.size(), 20u);
    EXPECT_EQ(groupOf[0], 0);
    EXPECT_EQ(groupOf[5], 1);
    EXPECT_EQ(groupOf[9], 2);
    EXPECT_EQ(groupOf[10], 3);
    EXPECT_EQ(groupOf[19], 5);
}

TEST(LinkDetail, SmallRunIsStoredPerLinkExactlyAsBefore) {
    TempDir dir("link_detail_small");
    const std::string path = dir.path("p.db");
    const RunResult r = test::makeSyntheticRun(); // 8 NPUs x 2 dimensions: 16 links
    int64_t id = 0;
    std::shared_ptr<const RunResult> back;
    {
        ProjectDatabase db(path);
        EXPECT_EQ(db.linkDetailPolicy().maxLinks, 8192u);
        id = db.saveRun(r, {});
        back = db.loadResult(id);
    }
    EXPECT_EQ(rowsOf(path, "link_series", id), 16);
    EXPECT_EQ(rowsOf(path, "link_group_series", id), 0);
    EXPECT_EQ(back->linkSeries, r.linkSeries);
    EXPECT_TRUE(back->linkGroupSeries.empty());
    expectSameLinkTotals(*back, r);
}

TEST(LinkDetail, ThresholdIsMoreLinksThanTheLimit) {
    TempDir dir("link_detail_threshold");
    const std::string path = dir.path("p.db");
    const RunResult r = test::makeSyntheticRun(); // 16 links
    ProjectDatabase db(path);
    LinkDetailPolicy policy;
    policy.maxLinks = 16; // exactly at the limit: per link
    db.setLinkDetailPolicy(policy);
    const int64_t atLimit = db.saveRun(r, {});
    policy.maxLinks = 15; // one link over: grouped
    policy.groupsPerDimension = 4;
    db.setLinkDetailPolicy(policy);
    const int64_t overLimit = db.saveRun(r, {});
    EXPECT_EQ(rowsOf(path, "link_series", atLimit), 16);
    EXPECT_EQ(rowsOf(path, "link_group_series", atLimit), 0);
    EXPECT_EQ(rowsOf(path, "link_series", overLimit), 0);
    EXPECT_EQ(rowsOf(path, "link_group_series", overLimit), 8); // 4 groups x 2 dimensions
    EXPECT_EQ(db.loadResult(atLimit)->linkSeries.size(), 16u);
    EXPECT_EQ(db.loadResult(overLimit)->linkGroupSeries.size(), 8u);
}

TEST(LinkDetail, GroupedRunKeepsWhatTheViewsNeedAndExactTotals) {
    TempDir dir("link_detail_grouped");
    const std::string path = dir.path("p.db");
    test::SyntheticRunShape shape;
    shape.npus = 64;
    shape.dims = 3;
    shape.seriesBuckets = 40;
    const RunResult r = test::makeSyntheticRun(shape); // 192 links
    ProjectDatabase db(path);
    db.setLinkDetailPolicy({32, 5}); // 64 links a dimension: groups of 13, the last of 12
    const int64_t id = db.saveRun(r, {});
    const std::shared_ptr<const RunResult> back = db.loadResult(id);

    // The utilization views: links and their totals exactly (hottest links, dimension table).
    expectSameLinkTotals(*back, r);
    // Series per group, as groupLinkSeries computes them, bit for bit.
    EXPECT_TRUE(back->linkSeries.empty());
    const std::vector<LinkGroupSeries> expected = groupLinkSeries(r, 5);
    ASSERT_EQ(back->linkGroupSeries.size(), expected.size());
    ASSERT_EQ(expected.size(), 15u);
    for (size_t g = 0; g < expected.size(); ++g) {
        EXPECT_EQ(back->linkGroupSeries[g].dimension, expected[g].dimension);
        EXPECT_EQ(back->linkGroupSeries[g].firstRank, expected[g].firstRank);
        EXPECT_EQ(back->linkGroupSeries[g].linkCount, expected[g].linkCount);
        EXPECT_EQ(back->linkGroupSeries[g].mean, expected[g].mean);
        EXPECT_EQ(back->linkGroupSeries[g].max, expected[g].max);
    }
    // Each dimension's mean series (the utilization chart) = the link-count-weighted mean of
    // its groups' means, up to float rounding; its area is the dimension's busy share.
    for (int d = 0; d < shape.dims; ++d)
        for (int b = 0; b < shape.seriesBuckets; ++b) {
            double overLinks = 0, overGroups = 0;
            int links = 0;
            for (size_t l = 0; l < r.links.size(); ++l)
                if (r.links[l].dimension == d) {
                    overLinks += r.linkSeries[l][static_cast<size_t>(b)];
                    ++links;
                }
            for (const LinkGroupSeries& g : back->linkGroupSeries)
                if (g.dimension == d)
                    overGroups += static_cast<double>(g.mean[static_cast<size_t>(b)]) * g.linkCount;
            EXPECT_NEAR(overGroups / links, overLinks / links, 1e-6);
        }
    // Every link belongs to exactly one group of its dimension.
    const std::vector<int> groupOf = linkGroupIndex(*back);
    for (size_t l = 0; l < r.links.size(); ++l) {
        ASSERT_GE(groupOf[l], 0);
        EXPECT_EQ(back->linkGroupSeries[static_cast<size_t>(groupOf[l])].dimension,
                  r.links[l].dimension);
    }
    // The rest of the run (timeline, summaries, spans) is stored as before.
    EXPECT_EQ(back->activities.size(), r.activities.size());
    EXPECT_EQ(back->npus.size(), r.npus.size());
    EXPECT_EQ(back->collectives.size(), r.collectives.size());
    EXPECT_EQ(back->phases.size(), r.phases.size());
    EXPECT_EQ(back->reportLines, r.reportLines);

    // A grouped run read back and saved again (an export, a copy) keeps its groups.
    const int64_t again = db.saveRun(*back, {});
    const auto twice = db.loadResult(again);
    ASSERT_EQ(twice->linkGroupSeries.size(), back->linkGroupSeries.size());
    EXPECT_EQ(twice->linkGroupSeries.back().max, back->linkGroupSeries.back().max);
    // Deleting the run removes its groups.
    db.deleteRun(id);
    EXPECT_EQ(rowsOf(path, "link_group_series", id), 0);
    EXPECT_EQ(db.integrityCheck(), "ok");
}
