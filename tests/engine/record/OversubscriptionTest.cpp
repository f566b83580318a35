// Over-subscription: a link is over when busy > end (utilization busy / end above 100%); a
// dimension when its utilization (sum busy / (links * end)) is above 1. Exactly 100% is not over.
#include "record/Oversubscription.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace astrolabe;

namespace {

RunResult runWithBusy(int64_t endPs, const std::vector<int64_t>& busyPs) {
    RunResult r;
    r.endTime = SimTime::fromPs(endPs);
    for (int64_t b : busyPs) {
        LinkStats s;
        s.busy = SimTime::fromPs(b);
        r.linkStats.push_back(s);
    }
    return r;
}

} // namespace

TEST(Oversubscription, LinkUtilizationIsBusyOverEndTime) {
    const RunResult r = runWithBusy(8000, {0, 2000, 8000, 12'000});
    for (size_t l = 0; l < 4; ++l)
        EXPECT_DOUBLE_EQ(linkUtilization(r, l),
                         static_cast<double>(r.linkStats[l].busy.ps()) / 8000.0);
    EXPECT_EQ(linkUtilization(r, 4), 0.0) << "a link that does not exist";
    EXPECT_EQ(linkUtilization(runWithBusy(0, {5}), 0), 0.0) << "an empty run";
}

TEST(Oversubscription, OnlyLinksBusyLongerThanTheRunAreFlagged) {
    // end 10 us; busy 10 us exactly (100%) is not over, 10 us + 1 ps is, 25 us is 250%.
    const int64_t end = 10'000'000;
    const std::vector<int64_t> busy{end / 2, end, end + 1, 5 * end / 2};
    const Oversubscription o = findOversubscription(runWithBusy(end, busy));
    const auto over = std::count_if(busy.begin(), busy.end(), [&](int64_t b) { return b > end; });
    EXPECT_EQ(o.links, over);
    EXPECT_EQ(o.links, 2);
    EXPECT_DOUBLE_EQ(o.peakUtilization,
                     static_cast<double>(*std::max_element(busy.begin(), busy.end())) / end);
    EXPECT_TRUE(o.any());
}

TEST(Oversubscription, ARunWithinCapacityHasNothingToReport) {
    const int64_t end = 1000;
    const Oversubscription o = findOversubscription(runWithBusy(end, {1000, 999, 0}));
    EXPECT_EQ(o.links, 0);
    EXPECT_TRUE(o.dimensions.empty());
    EXPECT_FALSE(o.any());
    EXPECT_DOUBLE_EQ(o.peakUtilization, 1.0);
}

TEST(Oversubscription, DimensionsAboveOneAreListed) {
    RunResult r = runWithBusy(1000, {500});
    for (int d = 0; d < 3; ++d) {
        DimensionStats s;
        s.dimension = d;
        s.utilization = d == 0 ? 1.0 : d == 1 ? 1.0000001 : 3.5;
        r.dimensions.push_back(s);
    }
    const Oversubscription o = findOversubscription(r);
    EXPECT_EQ(o.links, 0);
    EXPECT_EQ(o.dimensions, (std::vector<int>{1, 2}));
    EXPECT_TRUE(o.any()) << "a dimension alone is enough";
}

TEST(Oversubscription, TheExplanationGivesCountAndPeakPercentage) {
    // Peak 2.5 = 250.0%; 2 links.
    const Oversubscription o = findOversubscription(runWithBusy(4000, {10'000, 4001, 100}));
    const std::string text = explainOversubscription(o);
    EXPECT_NE(text.find("2 links busy longer than the run"), std::string::npos) << text;
    char peak[32];
    std::snprintf(peak, sizeof peak, "(up to %.1f%%)", 100.0 * 10'000 / 4000);
    EXPECT_NE(text.find(peak), std::string::npos) << text;
    EXPECT_NE(text.find("congestion-aware"), std::string::npos) << "says what to do";
    Oversubscription one;
    one.links = 1;
    one.peakUtilization = 1.004;
    EXPECT_NE(explainOversubscription(one).find("1 link busy"), std::string::npos);
    EXPECT_NE(explainOversubscription(one).find("100.4%"), std::string::npos);
}
