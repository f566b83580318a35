// The local-memory counter line of the timeline (track-local-mem): its geometry against the
// usage points, its decimation to pixel columns, and a screenshot of it over a run.
#include "timeline/MemoryTrack.h"

#include "SyntheticRun.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

MemoryUsagePoint at(int64_t ps, uint64_t bytes) {
    return {SimTime::fromPs(ps), bytes};
}

/// The line's y at x (the last vertex at or left of x).
qreal yAt(const QPolygonF& line, qreal x) {
    qreal y = line.front().y();
    for (const QPointF& p : line)
        if (p.x() <= x)
            y = p.y();
    return y;
}

} // namespace

// 0..100 ps: nothing; 100..300: 50 of 100 B; 300..: 100 B. One pixel per picosecond, a row
// 40 px high from y = 10: empty at y = 50, half at 30, full at 10.
TEST(MemoryTrack, StepsFollowTheUsageAndScaleToThePeak) {
    const std::vector<MemoryUsagePoint> usage{at(0, 0), at(100, 50), at(300, 100)};
    const TimeMapper mapper(0, 400, 0, 400);
    const QPolygonF line = memoryTrackLine(usage, 100, mapper, 400, 10, 40);
    ASSERT_FALSE(line.isEmpty());
    EXPECT_DOUBLE_EQ(line.front().x(), 0);
    EXPECT_DOUBLE_EQ(line.back().x(), 400);
    EXPECT_DOUBLE_EQ(yAt(line, 50), 50);
    EXPECT_DOUBLE_EQ(yAt(line, 200), 30);
    EXPECT_DOUBLE_EQ(yAt(line, 350), 10);
    // A window that starts inside the plateau starts at the value in effect there.
    const QPolygonF inside = memoryTrackLine(usage, 100, TimeMapper(150, 250, 0, 100), 400, 10, 40);
    ASSERT_FALSE(inside.isEmpty());
    EXPECT_DOUBLE_EQ(inside.front().y(), 30);
    EXPECT_DOUBLE_EQ(inside.back().y(), 30);
    // Nothing to draw without data or scale.
    EXPECT_TRUE(memoryTrackLine({}, 100, mapper, 400, 10, 40).isEmpty());
    EXPECT_TRUE(memoryTrackLine(usage, 0, mapper, 400, 10, 40).isEmpty());
}

// A million allocations over 1,000 pixels: at most four vertices per column, and the column's
// vertical stroke still reaches the highest value in it.
TEST(MemoryTrack, ManyPointsPerColumnBecomeOneStroke) {
    std::vector<MemoryUsagePoint> usage;
    usage.reserve(1'000'000);
    for (int64_t i = 0; i < 1'000'000; ++i)
        usage.push_back(at(i, static_cast<uint64_t>(i % 1000 == 500 ? 1000 : i % 7)));
    const QPolygonF line =
        memoryTrackLine(usage, 1000, TimeMapper(0, 1'000'000, 0, 1000), 1'000'000, 0, 100);
    EXPECT_LE(line.size(), 4 * 1001 + 2);
    qreal top = 100;
    for (const QPointF& p : line)
        top = std::min(top, p.y());
    EXPECT_DOUBLE_EQ(top, 0); // the 1000-byte peaks are drawn
}

TEST(MemoryTrack, DrawnOverTheTimelineRowsAndNamedInTheLegend) {
    auto run = synthetic::quickStartRun();
    const int64_t end = run->endTime.ps();
    run->memoryUsage.resize(static_cast<size_t>(run->npuCount));
    for (int npu = 0; npu < run->npuCount; ++npu) {
        // NPU k peaks at (k + 1) / 8 of 8 MiB halfway through the run.
        const uint64_t peak = (uint64_t{1} << 20) * static_cast<uint64_t>(npu + 1);
        run->memoryUsage[static_cast<size_t>(npu)] = {at(0, peak / 4), at(end / 2, peak),
                                                      at(3 * end / 4, peak / 8)};
    }
    TimelineView view;
    view.resize(1400, 520);
    view.setResult(run, synthetic::quickStartPlatform());
    view.show();
    QCoreApplication::processEvents();
    const QImage image = view.timeline()->grab().toImage();
    QDir().mkpath(QStringLiteral("screenshots"));
    EXPECT_TRUE(view.grab().save(QStringLiteral("screenshots/timeline_memory.png")));
    int purple = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            purple += std::abs(c.red() - 0x7b) < 30 && std::abs(c.green() - 0x1f) < 30 &&
                      std::abs(c.blue() - 0xa2) < 30;
        }
    EXPECT_GT(purple, 500) << "the memory line is not drawn";
    bool named = false;
    for (QObject* child : view.findChildren<QObject*>())
        if (auto* label = qobject_cast<QLabel*>(child))
            named = named || label->text().contains(QStringLiteral("memory in use"));
    EXPECT_TRUE(named);
}
