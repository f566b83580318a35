// The timeline widget on synthetic runs: hit-testing through the widget, selection, search,
// zoom history, export, and screenshots under screenshots/ in the working directory.
#include "timeline/TimelineWidget.h"

#include "SyntheticRun.h"
#include "timeline/ImageExport.h"
#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelineDetailsPanel.h"
#include "timeline/TimelineText.h"
#include "timeline/TimelineView.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}

/// Centre of lane `lane` of NPU row `npu` at time t, in viewport coordinates.
QPoint pointAt(TimelineWidget& w, int npu, Lane lane, int64_t t) {
    const int row = w.rowLayout().rowOfNpu(npu);
    const DisplayRow& r = w.rowLayout().rows()[row];
    const LaneBand band = laneBand(30 + r.top, r.height, lane); // 30: axis height
    return QPoint(static_cast<int>(std::lround(w.mapper().timeToX(t))), band.top + band.height / 2);
}
} // namespace

TEST(TimelineWidget, HitTestFindsTheCollectiveAndItsChunk) {
    TimelineView view;
    view.resize(1200, 500);
    view.setResult(synthetic::quickStartRun(), synthetic::quickStartPlatform());
    view.show();
    TimelineWidget& w = *view.timeline();
    const auto& run = static_cast<const RunResult&>(*synthetic::quickStartRun());
    const int64_t chunk = run.phases[1].end.ps() - run.phases[1].start.ps();
    // NPU 3, in the middle of chunk 2 (it starts 30 ns late).
    const int64_t t = 30'000 + chunk * 2 + chunk / 2;
    const TimelineHit hit = w.hitTest(pointAt(w, 3, Lane::Communication, t));
    ASSERT_TRUE(hit.activity.has_value());
    EXPECT_EQ(hit.npu, 3);
    EXPECT_EQ(hit.activity->nodeId, 1u);
    ASSERT_TRUE(hit.phase.has_value());
    EXPECT_EQ(hit.phase->chunk, 2);
    // The work lane of the quick start is empty.
    EXPECT_FALSE(w.hitTest(pointAt(w, 3, Lane::Work, t)).activity.has_value());
}

TEST(TimelineWidget, TooltipNamesNodeTypeSizeTimesDimensionAndChunk) {
    const auto run = synthetic::quickStartRun();
    const RunResultTimelineSource source(run);
    const ActivityInterval& a = run->activities[3]; // NPU 3, starts at 30 ns
    const QString text = activityTooltip(source, a, run->phases[3 * 4 + 2]);
    EXPECT_TRUE(text.contains(QStringLiteral("all_reduce_1MiB")));
    EXPECT_TRUE(text.contains(QStringLiteral("COMM_COLL_NODE")));
    EXPECT_TRUE(text.contains(QStringLiteral("ALL_REDUCE of 1 MiB, 4 chunks")));
    EXPECT_TRUE(text.contains(QStringLiteral("start 30 ns")));
    EXPECT_TRUE(text.contains(QStringLiteral("duration %1").arg(timeText((a.end - a.start).ps()))));
    EXPECT_TRUE(text.contains(QStringLiteral("chunk 2")));
    EXPECT_TRUE(text.contains(QStringLiteral("dimension 0")));
    EXPECT_FALSE(text.contains(QStringLiteral("critical")));
    EXPECT_TRUE(activityTooltip(source, run->activities[7], std::nullopt)
                    .contains(QStringLiteral("on the critical path")));
}

TEST(TimelineWidget, ClickSelectsAndEmitsTheInterval) {
    TimelineView view;
    view.resize(1200, 500);
    view.setResult(synthetic::quickStartRun(), synthetic::quickStartPlatform());
    view.show();
    TimelineWidget& w = *view.timeline();
    QSignalSpy spy(&w, &TimelineWidget::activitySelected);
    const QPoint p = pointAt(w, 5, Lane::Communication, 20'000'000);
    QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, p);
    ASSERT_EQ(spy.count(), 1);
    const auto selected = spy.at(0).at(0).value<ActivityInterval>();
    EXPECT_EQ(selected.npu, 5);
    ASSERT_TRUE(w.selectedActivity());
    EXPECT_EQ(w.selectedActivity()->npu, 5);
    // The details panel shows it, with its critical-path status (NPU 7 holds the path).
    // (The panel marks break points in names with zero-width spaces.)
    EXPECT_TRUE(view.details()
                    ->toPlainText()
                    .remove(QChar(0x200b))
                    .contains(QStringLiteral("all_reduce_1MiB")));
    EXPECT_TRUE(view.details()->toPlainText().contains(QStringLiteral("Not on the critical path")));
    w.selectActivity(7, synthetic::quickStartRun()->activities[7], false);
    EXPECT_TRUE(view.details()->toPlainText().contains(QStringLiteral("step 1 of 1")));
}

TEST(TimelineWidget, WheelZoomsAroundTheCursorAndHistoryGoesBack) {
    TimelineView view;
    view.resize(1200, 500);
    view.setResult(synthetic::quickStartRun(), synthetic::quickStartPlatform());
    view.show();
    TimelineWidget& w = *view.timeline();
    const int64_t fullSpan = w.mapper().spanPs();
    const QPointF at(600, 100);
    const int64_t under = w.mapper().xToTime(at.x());
    QWheelEvent wheel(at, w.viewport()->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w.viewport(), &wheel);
    EXPECT_NEAR(static_cast<double>(w.mapper().spanPs()), fullSpan / 1.25, 2.0);
    EXPECT_NEAR(static_cast<double>(w.mapper().xToTime(at.x())), static_cast<double>(under),
                w.mapper().psPerPixel());
    EXPECT_TRUE(w.canGoBack());
    w.goBack();
    EXPECT_EQ(w.mapper().spanPs(), fullSpan);
    EXPECT_TRUE(w.canGoForward());
    w.goForward();
    EXPECT_LT(w.mapper().spanPs(), fullSpan);
}

namespace {
void sendMouse(QWidget* target, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers modifiers) {
    QMouseEvent event(type, QPointF(pos), target->mapToGlobal(QPointF(pos)), Qt::LeftButton,
                      buttons, modifiers);
    QCoreApplication::sendEvent(target, &event);
}

void drag(QWidget* target, QPoint from, QPoint to, Qt::KeyboardModifiers modifiers) {
    sendMouse(target, QEvent::MouseButtonPress, from, Qt::LeftButton, modifiers);
    sendMouse(target, QEvent::MouseMove, (from + to) / 2, Qt::LeftButton, modifiers);
    sendMouse(target, QEvent::MouseMove, to, Qt::LeftButton, modifiers);
    sendMouse(target, QEvent::MouseButtonRelease, to, Qt::NoButton, modifiers);
}
} // namespace

TEST(TimelineWidget, RubberBandZoomsDragPansAndKeysMove) {
    TimelineView view;
    view.resize(1200, 500);
    view.setResult(synthetic::quickStartRun(), synthetic::quickStartPlatform());
    view.show();
    TimelineWidget& w = *view.timeline();
    QWidget* viewport = w.viewport();
    // Ctrl+drag from x = 300 to x = 500: the window becomes the times under those pixels.
    const int64_t from = w.mapper().xToTime(300);
    const int64_t to = w.mapper().xToTime(500);
    drag(viewport, QPoint(300, 100), QPoint(500, 100), Qt::ControlModifier);
    EXPECT_EQ(w.mapper().t0(), from);
    EXPECT_EQ(w.mapper().t1(), to);
    // A plain drag 100 px to the right shows earlier times by 100 px worth.
    const int64_t before = w.mapper().t0();
    const double psPerPixel = w.mapper().psPerPixel();
    drag(viewport, QPoint(600, 100), QPoint(700, 100), Qt::NoModifier);
    EXPECT_NEAR(static_cast<double>(before - w.mapper().t0()), 100 * psPerPixel, psPerPixel);
    // Right arrow: a tenth of the span later.
    const int64_t t0 = w.mapper().t0();
    QTest::keyClick(&w, Qt::Key_Right);
    EXPECT_EQ(w.mapper().t0(), t0 + w.mapper().spanPs() / 10);
    // Back through the history: the drag, then the rubber band.
    w.goBack();
    EXPECT_EQ(w.mapper().t0(), before);
    w.goBack();
    EXPECT_EQ(w.mapper().t1(), w.mapper().limitEnd());
    EXPECT_EQ(w.mapper().t0(), w.mapper().limitBegin());
}

TEST(TimelineWidget, ClickingAGroupLabelCollapsesIt) {
    synthetic::SyntheticOptions options;
    options.dimensions = {4, 2};
    options.itemsPerNpu = 10;
    TimelineView view;
    view.resize(1000, 500);
    view.setResult(synthetic::syntheticRun(options), synthetic::syntheticPlatform(options));
    view.show();
    TimelineWidget& w = *view.timeline();
    ASSERT_EQ(w.rowLayout().rows().size(), 10u);                             // 2 nodes + 8 NPUs
    QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, QPoint(20, 30 + 5)); // node 0 label
    EXPECT_EQ(w.rowLayout().rows().size(), 6u);
    EXPECT_TRUE(w.rowLayout().rows()[0].collapsed);
}

TEST(TimelineWidget, SearchHighlightsAndJumpsToMatches) {
    synthetic::SyntheticOptions options;
    options.dimensions = {4, 2};
    options.itemsPerNpu = 40;
    TimelineView view;
    view.resize(1200, 600);
    view.setResult(synthetic::syntheticRun(options), synthetic::syntheticPlatform(options));
    view.show();
    TimelineWidget& w = *view.timeline();
    // 48 layers: "gemm_bwd_L1" matches L1, L10..L19 = 11 names.
    EXPECT_EQ(w.setSearchText(QStringLiteral("GEMM_bwd_L1")), 11);
    ASSERT_TRUE(w.findNext());
    const ActivityInterval first = *w.selectedActivity();
    EXPECT_EQ(first.npu, 0);
    ASSERT_TRUE(w.findNext());
    EXPECT_TRUE(w.selectedActivity()->start > first.start || w.selectedActivity()->npu > 0);
    EXPECT_EQ(w.setSearchText(QStringLiteral("no such node")), 0);
    EXPECT_FALSE(w.findNext());
}

TEST(TimelineWidget, ExportsPngAndSvg) {
    TimelineView view;
    view.resize(900, 400);
    view.setResult(synthetic::quickStartRun(), synthetic::quickStartPlatform());
    view.show();
    const QString png = screenshotPath(QStringLiteral("timeline_export.png"));
    ASSERT_TRUE(view.exportImage(png));
    const QImage image(png);
    EXPECT_EQ(image.width(), view.timeline()->renderSize().width() * 2);
    if (!svgExportAvailable())
        GTEST_SKIP() << "Qt Svg not available at build time: SVG export not tested";
    const QString svg = screenshotPath(QStringLiteral("timeline_export.svg"));
    ASSERT_TRUE(view.exportImage(svg));
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().contains("<svg"));
}

TEST(TimelineScreenshots, QuickStartAndThousandNpus) {
    {
        TimelineView view;
        view.resize(1400, 520);
        view.setResult(synthetic::quickStartRun(), synthetic::quickStartPlatform());
        view.show();
        QCoreApplication::processEvents(); // deliver the resize so the scroll range is final
        view.timeline()->selectActivity(6, synthetic::quickStartRun()->activities[6], false);
        EXPECT_TRUE(view.grab().save(screenshotPath(QStringLiteral("timeline_quickstart.png"))));
    }
    synthetic::SyntheticOptions options; // 8 x 16 x 8 = 1024 NPUs
    const auto run = synthetic::syntheticRun(options);
    TimelineView view;
    view.resize(1400, 800);
    view.setResult(run, synthetic::syntheticPlatform(options));
    view.show();
    EXPECT_TRUE(view.grab().save(screenshotPath(QStringLiteral("timeline_1024.png"))));
    view.timeline()->collapseLevel(1, true); // pods open, nodes collapsed
    EXPECT_TRUE(view.grab().save(screenshotPath(QStringLiteral("timeline_1024_nodes.png"))));
    view.timeline()->zoomBy(20.0, 700);
    EXPECT_TRUE(view.grab().save(screenshotPath(QStringLiteral("timeline_1024_zoom.png"))));
    // Expanded again and zoomed further: single intervals, phases and the search highlight.
    view.timeline()->collapseLevel(1, false);
    view.timeline()->zoomBy(4.0, 700);
    view.timeline()->setSearchText(QStringLiteral("gemm_bwd"));
    EXPECT_TRUE(view.grab().save(screenshotPath(QStringLiteral("timeline_1024_detail.png"))));
}
