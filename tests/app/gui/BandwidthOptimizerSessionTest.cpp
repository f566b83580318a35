// The Bandwidth tab against a real project: Optimize runs off the GUI thread and shows a front
// whose every point was simulated; Apply sets the platform's bandwidths as one undo step.
#include "gui/BandwidthOptimizerSession.h"

#include "GuiTestSupport.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "optimize/BandwidthOptimizerView.h"

#include <QSignalSpy>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

TEST(BandwidthOptimizerSession, OptimizeShowsTheFrontAndApplyIsOneUndoableStep) {
    QTemporaryDir dir;
    auto files = std::make_shared<test::MemoryFiles>();
    MainWindow window(test::testServices(dir, {}, files));
    window.setAskBeforeDiscarding(false);
    window.newProjectFromPreset(QStringLiteral("torus-2d"));
    BandwidthOptimizerSession* session = window.bandwidthOptimizer();
    ASSERT_NE(session, nullptr);
    widgets::BandwidthOptimizerView* view = session->view();
    EXPECT_EQ(view->model()->columnCount(), 5) << "two dimensions, cost, time, perf/cost";

    QSignalSpy finished(session, &BandwidthOptimizerSession::finished);
    ASSERT_TRUE(session->optimize(200, 3));
    EXPECT_FALSE(session->optimize(200, 3)) << "one optimization at a time";
    ASSERT_TRUE(finished.wait(60000));
    ASSERT_TRUE(finished.at(0).at(0).toBool());
    ASSERT_GE(view->front().size(), 2u);
    for (size_t i = 1; i < view->front().size(); ++i)
        EXPECT_LT(view->front()[i].simulatedSeconds, view->front()[i - 1].simulatedSeconds);

    const std::vector<double> before{
        window.document()->spec().platform.dimensions[0].bandwidthBytesPerSecond,
        window.document()->spec().platform.dimensions[1].bandwidthBytesPerSecond};
    const int steps = window.document()->undoStack()->count();
    const size_t points = view->front().size();
    const std::vector<double> chosen = view->front().front().gbps;
    session->apply(chosen);
    EXPECT_EQ(window.document()->undoStack()->count(), steps + 1);
    EXPECT_DOUBLE_EQ(window.document()->spec().platform.dimensions[0].bandwidthBytesPerSecond,
                     chosen[0] * 1e9);
    EXPECT_DOUBLE_EQ(window.document()->spec().platform.dimensions[1].bandwidthBytesPerSecond,
                     chosen[1] * 1e9);
    EXPECT_EQ(view->front().size(), points) << "a bandwidth edit keeps the front on screen";
    window.document()->undoStack()->undo();
    EXPECT_DOUBLE_EQ(window.document()->spec().platform.dimensions[0].bandwidthBytesPerSecond,
                     before[0]);
    EXPECT_DOUBLE_EQ(window.document()->spec().platform.dimensions[1].bandwidthBytesPerSecond,
                     before[1]);
}
