// Mapping: time <-> pixel, axis ticks, zoom history. Pure functions, exact expectations.
#include "timeline/TimeAxis.h"
#include "timeline/TimeMapper.h"
#include "timeline/ZoomHistory.h"

#include <gtest/gtest.h>

using namespace astrolabe::widgets;

TEST(TimeMapper, MapsTimeToPixelsLinearly) {
    // 1000 ps over 1000 px starting at x = 100: one picosecond per pixel.
    const TimeMapper m(0, 1000, 100, 1000);
    EXPECT_DOUBLE_EQ(m.timeToX(0), 100);
    EXPECT_DOUBLE_EQ(m.timeToX(500), 600);
    EXPECT_DOUBLE_EQ(m.timeToX(1000), 1100);
    EXPECT_EQ(m.xToTime(600), 500);
    EXPECT_EQ(m.xToTime(100.4), 0);
    EXPECT_EQ(m.xToTime(100.6), 1);
    EXPECT_EQ(m.pixelsToDuration(3), 3);
}

TEST(TimeMapper, KeepsPrecisionFarFromZero) {
    // A 1 us window 100 s into the run: 2^53 ps is 9007 s, so offsets stay exact.
    const int64_t t0 = 100'000'000'000'000;
    const TimeMapper m(t0, t0 + 1'000'000, 0, 1000);
    EXPECT_DOUBLE_EQ(m.timeToX(t0 + 1000), 1.0);
    EXPECT_EQ(m.xToTime(250), t0 + 250'000);
}

TEST(TimeMapper, ZoomKeepsTheTimeUnderTheCursor) {
    TimeMapper m(0, 1000, 0, 1000);
    m.setLimits(0, 1000);
    m.zoomAround(600, 2.0); // 600 ps stays at x = 600: new span 500, t0 = 600 - 0.6 * 500
    EXPECT_EQ(m.t0(), 300);
    EXPECT_EQ(m.t1(), 800);
    EXPECT_EQ(m.xToTime(600), 600);
    m.zoomAround(600, 0.5);
    EXPECT_EQ(m.t0(), 0);
    EXPECT_EQ(m.t1(), 1000);
}

TEST(TimeMapper, ClampsToLimitsAndMinimumSpan) {
    TimeMapper m(0, 1000, 0, 100);
    m.setLimits(0, 1000);
    m.zoomAround(0, 0.25); // zooming out past the data shows the data
    EXPECT_EQ(m.t0(), 0);
    EXPECT_EQ(m.t1(), 1000);
    m.setWindow(400, 500);
    m.panPixels(-100); // 100 px at 1 ps/px = 100 ps left
    EXPECT_EQ(m.t0(), 300);
    m.panPixels(-1000); // stops at the beginning, span kept
    EXPECT_EQ(m.t0(), 0);
    EXPECT_EQ(m.t1(), 100);
    m.panPixels(5000);
    EXPECT_EQ(m.t1(), 1000);
    EXPECT_EQ(m.t0(), 900);
    m.setMinSpan(50);
    m.zoomAround(50, 1000.0);
    EXPECT_EQ(m.spanPs(), 50);
}

TEST(TimeAxis, NiceStepsAreOneTwoFiveTimesPowersOfTen) {
    EXPECT_EQ(niceStep(0.5), 1);
    EXPECT_EQ(niceStep(1), 1);
    EXPECT_EQ(niceStep(1.5), 2);
    EXPECT_EQ(niceStep(3), 5);
    EXPECT_EQ(niceStep(7), 10);
    EXPECT_EQ(niceStep(1500), 2000);
    EXPECT_EQ(niceStep(4'000'000), 5'000'000);
    EXPECT_EQ(niceStep(5'000'001), 10'000'000);
}

TEST(TimeAxis, UnitFollowsTheStep) {
    EXPECT_STREQ(unitForStep(500).suffix, "ps");
    EXPECT_STREQ(unitForStep(1000).suffix, "ns");
    EXPECT_STREQ(unitForStep(200'000).suffix, "ns");
    EXPECT_STREQ(unitForStep(2'000'000).suffix, "µs");
    EXPECT_STREQ(unitForStep(5'000'000'000).suffix, "ms");
    EXPECT_EQ(formatTickLabel(1'500'000'000, 500'000'000), "1.5 ms");
    EXPECT_EQ(formatTickLabel(3'000'000, 1'000'000), "3 µs");
    EXPECT_EQ(formatTickLabel(250'000, 50'000), "250 ns");
    EXPECT_EQ(formatTickLabel(1'250'000, 250'000), "1.25 µs");
    // Deep into a run the unit follows the values: 50 us steps near 5.7 ms read in ms.
    EXPECT_EQ(formatTickLabel(5'300'000'000, 50'000'000, 5'700'000'000), "5.30 ms");
}

TEST(TimeAxis, TicksCoverTheWindowAtLeastMinSpacingApart) {
    // 1 ms over 1000 px with >= 90 px spacing: the raw step is 90 us, the nice one 100 us.
    const TimeMapper m(0, 1'000'000'000, 0, 1000);
    const std::vector<TimeTick> ticks = timeTicks(m, 90);
    ASSERT_EQ(ticks.size(), 11u);
    EXPECT_EQ(ticks[0].label, "0.0 ms");
    EXPECT_EQ(ticks[1].ps, 100'000'000);
    EXPECT_EQ(ticks[1].label, "0.1 ms");
    EXPECT_DOUBLE_EQ(ticks[1].x, 100);
    EXPECT_EQ(ticks[10].label, "1.0 ms");
    // A window not starting on a multiple: the first tick is the next multiple.
    const TimeMapper shifted(130'000, 1'130'000, 0, 1000); // 1 us wide, step 100 ns
    const std::vector<TimeTick> t2 = timeTicks(shifted, 90);
    ASSERT_FALSE(t2.empty());
    EXPECT_EQ(t2.front().ps, 200'000);
    EXPECT_EQ(t2.front().label, "0.2 µs");
    EXPECT_DOUBLE_EQ(t2.front().x, 70);
}

TEST(TimeAxis, FormatsTimesAsTheRestOfTheApplication) {
    // The engine's formatter with the micro sign: exact to 6 digits, no trailing zeros (the
    // timeline had its own, which wrote 936.2 ns for 936.25 ns and 1.500 ms).
    EXPECT_EQ(formatTime(0), "0 ns");
    EXPECT_EQ(formatTime(936'250), "936.25 ns");
    EXPECT_EQ(formatTime(62'212'000), "62.212 µs");
    EXPECT_EQ(formatTime(1'500'000'000), "1.5 ms");
    EXPECT_EQ(formatTime(117'780'000), "117.78 µs"); // the quick start's end, as the runs list
}

TEST(ZoomHistory, WalksBackAndForwardLikeABrowser) {
    ZoomHistory h;
    EXPECT_FALSE(h.canGoBack());
    h.visit({0, 100}); // leaving the full view for [10, 20]
    h.visit({10, 20}); // leaving [10, 20] for [12, 14]
    EXPECT_EQ(h.back({12, 14}), (ZoomHistory::Window{10, 20}));
    EXPECT_EQ(h.back({10, 20}), (ZoomHistory::Window{0, 100}));
    EXPECT_FALSE(h.canGoBack());
    EXPECT_EQ(h.forward({0, 100}), (ZoomHistory::Window{10, 20}));
    h.visit({10, 20}); // a new zoom drops the forward entries
    EXPECT_FALSE(h.canGoForward());
    EXPECT_EQ(h.back({30, 40}), (ZoomHistory::Window{10, 20}));
}

// Tick labels go right of their tick, left of it at the axis's end, and are left out rather
// than run into the label before (the training and the request timelines place them alike).
TEST(TimeAxis, TickLabelsFlipAtTheEndAndNeverTouch) {
    TickLabelPlacer labels(300);
    EXPECT_EQ(labels.place(0, 40), 3.0);
    EXPECT_EQ(labels.place(30, 40), std::nullopt) << "would start 6 px short of the last end";
    EXPECT_EQ(labels.place(100, 40), 103.0);
    EXPECT_EQ(labels.place(280, 40), 237.0) << "past 300: on the left of its tick";
}
