// Value axes keep round ticks that fit: the pure tick choice against hand-computed cases and its
// invariants over a sweep, and a chart that gains ticks when it grows and loses them when it
// shrinks.
#include "utilization/ReadableAxis.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QCoreApplication>
#include <QValueAxis>
#include <cmath>
#include <gtest/gtest.h>

using namespace astrolabe::widgets;

namespace {

bool isRoundStep(double step) {
    const double decade = std::pow(10.0, std::floor(std::log10(step)));
    const double m = step / decade;
    for (double round : {1.0, 2.0, 2.5, 5.0})
        if (std::abs(m - round) < 1e-9)
            return true;
    return false;
}

TEST(ReadableAxis, HandComputedCases) {
    // 150 px, 20 px a label: 7 fit; 1000 / 7 = 142.9 -> step 200, 5 intervals to 1000.
    AxisTicks t = readableTicks(1000, 150, 20);
    EXPECT_DOUBLE_EQ(t.step, 200);
    EXPECT_DOUBLE_EQ(t.max, 1000);
    // The chart that dropped its 600 label: about 80 px for 22 px labels fits 3 -> step 500.
    t = readableTicks(1000, 80, 22.4);
    EXPECT_DOUBLE_EQ(t.step, 500);
    EXPECT_DOUBLE_EQ(t.max, 1000);
    // 44.78 ms on 400 px with 40 px labels: 10 fit -> step 5, max 45.
    t = readableTicks(44.78, 400, 40);
    EXPECT_DOUBLE_EQ(t.step, 5);
    EXPECT_DOUBLE_EQ(t.max, 45);
    // 840 on 30 px: one interval, still round.
    t = readableTicks(840, 30, 20);
    EXPECT_EQ(t.intervals(), 1);
    EXPECT_DOUBLE_EQ(t.max, 1000);
    // Nothing to show: a unit axis, never a division by zero.
    t = readableTicks(0, 100, 20);
    EXPECT_DOUBLE_EQ(t.max, 1);
}

TEST(ReadableAxis, TicksAreRoundFitAndEndJustAboveTheTop) {
    for (double top : {0.013, 0.9, 1.0, 3.7, 12.5, 99.0, 101.0, 777.0, 1e4, 3.3e7})
        for (double length : {25.0, 60.0, 110.0, 240.0, 600.0})
            for (double label : {14.0, 22.0, 45.0}) {
                const AxisTicks t = readableTicks(top, length, label);
                SCOPED_TRACE(testing::Message() << top << " on " << length << " px, " << label);
                EXPECT_TRUE(isRoundStep(t.step)) << t.step;
                EXPECT_GE(t.max, top * (1 - 1e-12));
                EXPECT_LT(t.max - t.step, top); // no empty interval above the top
                const int fit = std::max(1, static_cast<int>(length / label));
                EXPECT_LE(t.intervals(), std::min(fit, 10));
            }
}

TEST(ReadableAxis, AChartGainsTicksWhenItGrows) {
    QChartView view;
    QChart* chart = view.chart();
    auto* set = new QBarSet(QStringLiteral("achieved"));
    *set << 120.7 << 800;
    auto* series = new QBarSeries;
    series->append(set);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append({QStringLiteral("a"), QStringLiteral("b")});
    auto* y = new QValueAxis;
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    keepTicksReadable(chart, y, 840, Qt::Vertical);
    const auto intervalsAt = [&](int height) {
        view.resize(400, height);
        view.show();
        for (int i = 0; i < 5; ++i) // layout, then the queued re-ranging, then layout again
            QCoreApplication::processEvents();
        return static_cast<int>(std::lround(y->max() / y->tickInterval()));
    };
    const int small = intervalsAt(150);
    const int large = intervalsAt(600);
    EXPECT_LT(small, large);
    const double labelHeight = QFontMetricsF(y->labelsFont()).height();
    EXPECT_LE(small * labelHeight, chart->plotArea().height() * 150 / 600 + labelHeight);
    EXPECT_GE(y->max(), 840);
    EXPECT_EQ(intervalsAt(150), small); // and gives them back when it shrinks
}

} // namespace
