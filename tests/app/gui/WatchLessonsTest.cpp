// Record and watch on lessons 7 (in-switch) and 8 (TACOS), in the main window (issue #53,
// Teacher 1): the lesson's step is applied, Record and watch runs it with the recorder on, and
// the Watch tab animates it. Lesson 7's in-switch step: each of the 64 NPUs sends its input up
// to the switch and gets the sum back down, 2 x 64 messages; lesson 8's TACOS step: the
// schedule's 960 sends. Before, both runs recorded nothing and the tab said so. Screenshots of
// both go to screenshots/ (watch-lesson7-inswitch.png, watch-lesson8-tacos.png). Lesson 8's
// 4 x 4 mesh is drawn as the mesh, not as its logical ring (Teacher 2).
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/LessonsController.h"
#include "gui/MainWindow.h"
#include "gui/RunsTableModel.h"
#include "gui/WatchPage.h"
#include "lesson/LessonRun.h"
#include "topology/CollectiveAnimationView.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <functional>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

/// Opens `folder`'s lesson, applies the first step that `wanted` accepts, then Record and watch;
/// the recorded run holds `expectedMessages` and the Watch tab animates them all.
void recordLessonStep(const char* folder, const std::function<bool(const SimulationSpec&)>& wanted,
                      size_t expectedMessages, bool drawnAsGraph, const QString& screenshot) {
    SCOPED_TRACE(folder);
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    LessonsController* lessons = window.lessons();
    lessons->setCopyDirectory(dir.filePath(QStringLiteral("lessons")));
    ASSERT_TRUE(lessons->openLesson(QString::fromStdString(
        ASTROLABE_SOURCE_DIR + "/resources/lessons/" + folder + "/lesson.md")));
    int step = -1;
    for (int s = 0; s < lessons->lesson()->stepCount() && step < 0; ++s)
        if (wanted(lessonStep(*lessons->lesson(), s).spec))
            step = s;
    ASSERT_GE(step, 0);
    QSignalSpy stored(&window, &MainWindow::runStored);
    ASSERT_GT(lessons->tryStep(step), 0);
    ASSERT_TRUE(stored.count() > 0 || stored.wait(60000));

    window.tabs()->setCurrentIndex(MainWindow::WatchTab);
    auto* watch = qobject_cast<WatchPage*>(window.tabs()->currentWidget());
    ASSERT_NE(watch, nullptr);
    ASSERT_TRUE(watch->recordButton()->isEnabled());
    watch->recordButton()->click();
    ASSERT_TRUE(stored.count() > 1 || stored.wait(60000));
    ASSERT_TRUE(test::waitUntil([watch] { return !watch->animation()->animation().empty(); }))
        << "the recorded run shows no message";
    const RunRecord* recorded = nullptr; // the store's newest run, whatever its row order
    for (int row = 0; row < window.runsModel()->store()->count(); ++row) {
        const RunRecord& r = window.runsModel()->store()->at(row);
        if (!recorded || r.id > recorded->id)
            recorded = &r;
    }
    ASSERT_TRUE(recorded && recorded->result);
    const RunRecord& run = *recorded;
    EXPECT_EQ(run.result->transfers.size(), expectedMessages);
    EXPECT_EQ(watch->animation()->animation().transferCount(), expectedMessages);
    EXPECT_EQ(watch->animation()->networkView()->graphDrawing() != nullptr, drawnAsGraph);
    // Halfway through the middle message, chunks are on the drawing.
    const ChunkTransfer& t = run.result->transfers[run.result->transfers.size() / 2];
    watch->animation()->setTime((t.start.ps() + t.end.ps()) / 2);
    EXPECT_FALSE(watch->animation()->frame().chunks.empty());
    QApplication::processEvents();
    test::saveScreenshot(window, screenshot);
}

} // namespace

TEST(WatchLessons, InSwitchStepOfLesson7Animates) {
    recordLessonStep(
        "07-in-switch",
        [](const SimulationSpec& s) {
            return !s.system.allReduce.empty() &&
                   s.system.allReduce.front().kind == AlgorithmKind::InSwitch;
        },
        2 * 64, false, QStringLiteral("watch-lesson7-inswitch.png"));
}

TEST(WatchLessons, TacosStepOfLesson8Animates) {
    recordLessonStep(
        "08-tacos", [](const SimulationSpec& s) { return !s.system.customAllReduce.empty(); }, 960,
        true, QStringLiteral("watch-lesson8-tacos.png"));
}
