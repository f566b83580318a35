// Interaction with the network drawing: hover, click selection, wheel zoom, drag pan, LOD.
#include "topology/NetworkView.h"

#include "topology/TopologyPresets.h"

#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
PlatformSpec ringByRing(int a, int b) {
    PlatformSpec p;
    p.dimensions = {astraDimension(BlockKind::Ring, a, 50, 500),
                    astraDimension(BlockKind::Ring, b, 25, 700)};
    return p;
}

QPoint widgetPosOfNpu(const NetworkView& view, int id) {
    return view.sceneToWidget(view.networkLayout().npuPosition(id)).toPoint();
}

void sendWheel(QWidget* w, QPoint pos, int delta) {
    QWheelEvent e(QPointF(pos), QPointF(w->mapToGlobal(pos)), QPoint(), QPoint(0, delta),
                  Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}
} // namespace

TEST(NetworkView, HoverShowsCoordinatesAndLinks) {
    NetworkView view;
    view.resize(800, 600);
    view.setPlatform(ringByRing(8, 4));
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    EXPECT_EQ(view.collapseLevel(), 0) << "32 NPUs are drawn one by one";
    // NPU 13 = (5, 1): ring neighbours 12 and 14 in d0, 5 and 21 in d1.
    QTest::mouseMove(&view, widgetPosOfNpu(view, 13));
    EXPECT_EQ(view.hovered().level, 0);
    EXPECT_EQ(view.hovered().firstId, 13);
    const QString text = view.describeNpu(13);
    EXPECT_TRUE(text.startsWith(QStringLiteral("NPU 13 at (5, 1)"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("\u2194 12, 14"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("\u2194 5, 21"))) << text.toStdString();
}

TEST(NetworkView, ClickSelectsGroupThenEnclosingGroup) {
    NetworkView view;
    view.resize(800, 600);
    view.setPlatform(ringByRing(8, 4));
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy clicked(&view, &NetworkView::dimensionClicked);
    const QPoint npu = widgetPosOfNpu(view, 10);
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, npu);
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), 0);
    EXPECT_EQ(view.selectedGroup(), (NetworkLayout::Hit{1, 8}));
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, npu);
    EXPECT_EQ(clicked.at(1).at(0).toInt(), 1);
    EXPECT_EQ(view.selectedGroup().level, 2);
    // A click outside every group clears the selection.
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(2, 598));
    EXPECT_EQ(clicked.last().at(0).toInt(), -1);
    EXPECT_EQ(view.selectedGroup().level, -1);
}

TEST(NetworkView, WheelZoomKeepsThePointUnderTheCursorAndDragPans) {
    NetworkView view;
    view.resize(800, 600);
    // Rings of 64 on switches: at fit their circles are tiles. (A 64 x 64 torus is a compact
    // grid whose NPUs are drawn one by one even at fit.)
    PlatformSpec platform;
    platform.dimensions = {astraDimension(BlockKind::Ring, 64, 50, 500),
                           astraDimension(BlockKind::Switch, 64, 25, 700)};
    view.setPlatform(platform);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    EXPECT_GE(view.collapseLevel(), 1) << "4,096 NPUs at fit are drawn as tiles";
    const QPoint anchor(500, 250);
    const QPointF before = view.widgetToScene(anchor);
    const double scale = view.scale();
    for (int i = 0; i < 12; ++i)
        sendWheel(&view, anchor, 240);
    EXPECT_GT(view.scale(), scale * 10);
    const QPointF after = view.widgetToScene(anchor);
    EXPECT_NEAR(after.x(), before.x(), 1e-6 * std::abs(before.x()) + 1e-6);
    EXPECT_NEAR(after.y(), before.y(), 1e-6 * std::abs(before.y()) + 1e-6);
    EXPECT_EQ(view.collapseLevel(), 0) << "zoomed in, NPUs are drawn one by one";

    const QPointF offset = view.offset();
    QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, QPoint(400, 300));
    QMouseEvent move(QEvent::MouseMove, QPointF(450, 330),
                     QPointF(view.mapToGlobal(QPoint(450, 330))), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, QPoint(450, 330));
    EXPECT_NEAR(view.offset().x() - offset.x(), 50, 1e-9);
    EXPECT_NEAR(view.offset().y() - offset.y(), 30, 1e-9);
    EXPECT_EQ(view.selectedGroup().level, -1) << "a drag is not a click";
}

TEST(NetworkView, TorusAt64By64DrawsEveryNpuAtFit) {
    NetworkView view;
    view.resize(800, 600);
    view.setPlatform(ringByRing(64, 64));
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_TRUE(view.networkLayout().hasTorusGrid());
    EXPECT_EQ(view.collapseLevel(), 0);
    view.repaint();
    EXPECT_EQ(view.lastPaintStats().nodes, 64 * 64);
    // Per row and per column: 63 neighbour links and one wrap-around drawn as two stubs.
    EXPECT_EQ(view.lastPaintStats().lines, 2 * 64 * (63 + 2));
}

TEST(NetworkView, HoveringATorusCornerNamesItsWrapAroundPeers) {
    NetworkView view;
    view.resize(800, 600);
    view.setPlatform(ringByRing(4, 4));
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    // NPU 3 = (3, 0): ring neighbours 2 and 0 (wrap) in d0, 15 (wrap) and 7 in d1.
    QTest::mouseMove(&view, widgetPosOfNpu(view, 3));
    EXPECT_EQ(view.hovered(), (NetworkLayout::Hit{0, 3}));
    const QString text = view.describeNpu(3);
    EXPECT_TRUE(text.contains(QStringLiteral("\u2194 2, 0"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("\u2194 15, 7"))) << text.toStdString();
}

TEST(NetworkView, SwitchPeersAreNamedAndLongListsShortened) {
    NetworkView view;
    view.resize(800, 600);
    view.setPlatform(
        findTopologyPreset(QStringLiteral("DGX cluster (Switch 8 x Switch 16)"))->platform);
    // NPU 77 = 5 + 8 * 9: d0 switch with NPUs 72..79, d1 switch with 5, 13, ..., 125.
    const QString text = view.describeNpu(77);
    EXPECT_TRUE(text.startsWith(QStringLiteral("NPU 77 at (5, 9)"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("(with 72, 73, 74, 75, 76, 78, 79)")))
        << text.toStdString();
    EXPECT_TRUE(
        text.contains(QStringLiteral("(with 5, 13, 21, 29, 37, 45, 53, 61, \u2026 (15 in all))")))
        << text.toStdString();
}

// At fit the drawing covers none of the legend, in a tall view (drawn under it) and in a wide,
// low one, the Serving tab's (drawn beside it; it used to take the whole view there, so the
// legend hid the top NPUs of a switch).
TEST(NetworkView, TheFittedDrawingLeavesTheLegendClear) {
    PlatformSpec platform;
    platform.dimensions = {astraDimension(BlockKind::Switch, 8, 450, 1000)};
    for (const QSize size : {QSize(640, 480), QSize(410, 150), QSize(300, 300)}) {
        NetworkView view;
        view.resize(size);
        view.setPlatform(platform);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        view.fitToView();
        const QRectF bounds = view.drawingBounds();
        const QRectF drawn(view.sceneToWidget(bounds.topLeft()),
                           view.sceneToWidget(bounds.bottomRight()));
        EXPECT_FALSE(drawn.intersects(QRectF(view.legendRect())))
            << size.width() << " x " << size.height() << ": the drawing at (" << drawn.left()
            << ", " << drawn.top() << ") under the legend to (" << view.legendRect().right() << ", "
            << view.legendRect().bottom() << ")";
        EXPECT_GE(drawn.height(), size.height() * 0.5) << size.width() << " x " << size.height();
    }
}
