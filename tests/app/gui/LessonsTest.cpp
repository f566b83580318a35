// The Lessons dock in the window: lesson 1 and lesson 5 walked through the window's own run path
// (each "Try it" step applied to the open project and run like the Run button's runs), every
// number their text quotes checked against those runs; screenshots of the dock beside the live
// project at 100 % and 200 %; a broken lesson reported at its file and line.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/HelpController.h"
#include "gui/LessonsController.h"
#include "gui/LessonsPanel.h"
#include "gui/MainWindow.h"
#include "gui/PresentationController.h"
#include "gui/ProjectController.h"
#include "gui/ProjectDocument.h"
#include "gui/RunSession.h"
#include "gui/WorkspaceTabs.h"
#include "lesson/LessonRun.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTextBrowser>
#include <cmath>
#include <gtest/gtest.h>
#include <map>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

QString lessonPath(const char* folder) {
    return QString::fromStdString(ASTROLABE_SOURCE_DIR + "/resources/lessons/") +
           QLatin1String(folder) + QStringLiteral("/lesson.md");
}

/// Opens the lesson in the window, runs every step through the Lessons dock and checks every
/// quoted number against the run the window made. Returns the number of quotes checked.
size_t walkInWindow(MainWindow& window, LessonsController* lessons, const char* folder,
                    const std::function<void(int step)>& afterStep = {}) {
    if (!lessons->openLesson(lessonPath(folder))) {
        ADD_FAILURE() << "cannot open " << folder;
        return 0;
    }
    const Lesson& lesson = *lessons->lesson();
    std::map<int, std::shared_ptr<const RunResult>> runs;
    QObject context;
    QObject::connect(window.runController(), &RunController::runFinished, &context,
                     [&](int id, std::shared_ptr<const RunResult> result, double) {
                         runs[id] = std::move(result);
                     });
    std::vector<std::shared_ptr<const RunResult>> byStep;
    for (int step = 0; step < lesson.stepCount(); ++step) {
        const int id = lessons->tryStep(step);
        EXPECT_GT(id, 0) << folder << " step " << step + 1;
        if (!test::waitUntil([&] { return runs.count(id) > 0; }, 60000)) {
            ADD_FAILURE() << folder << " step " << step + 1 << " did not finish";
            return 0;
        }
        byStep.push_back(runs[id]);
        // The document shows the step's settings (so the tabs do).
        EXPECT_EQ(window.document()->spec().platform, lessonStep(lesson, step).spec.platform);
        if (afterStep)
            afterStep(step);
    }
    for (const LessonQuote& quote : lesson.quotes) {
        const auto step = static_cast<size_t>(quote.step);
        const double measured =
            lessonMetric(quote.metric, lessonStep(lesson, quote.step), *byStep.at(step),
                         step > 0 ? byStep[step - 1].get() : nullptr);
        EXPECT_LE(std::abs(measured - std::stod(quote.value)),
                  quotePrecision(quote.value) * (1 + 1e-9))
            << lesson.file << ":" << quote.line << ": [[" << quote.metric << "=" << quote.value
            << "]] but the window's run of step " << quote.step + 1 << " gives " << measured;
    }
    return lesson.quotes.size();
}

} // namespace

TEST(Lessons, LessonOneAndFiveWalkedThroughTheWindow) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1600, 1000);
    window.show();
    LessonsController* lessons = window.lessons();
    lessons->setCopyDirectory(dir.filePath(QStringLiteral("lessons")));
    ASSERT_GE(LessonsController::lessons(LessonsController::directory()).size(), 6);

    const size_t first = walkInWindow(window, lessons, "01-ring-all-reduce", [&](int step) {
        if (step != 0)
            return;
        window.tabs()->setCurrentIndex(MainWindow::TimelineTab);
        test::saveScreenshot(window, QStringLiteral("lessons-ring-100.png"));
        lessons->panel()->revealAnswer(0);
        window.presentation()->setScale(2.0);
        test::saveScreenshot(window, QStringLiteral("lessons-ring-200.png"));
        window.presentation()->setScale(1.0);
    });
    EXPECT_GE(first, 6u);
    EXPECT_TRUE(lessons->dock()->isVisible());
    EXPECT_TRUE(window.document()->path().startsWith(dir.path())) << "runs stored in a copy";
    QSignalSpy stored(&window, &MainWindow::runStored);
    EXPECT_GE(walkInWindow(window, lessons, "05-parallelism"), 10u);
    // Every step's run is stored in the lesson's project like a Run button's run.
    EXPECT_TRUE(test::waitUntil([&] { return stored.size() >= 5; }, 30000)) << stored.size();
    window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
    test::saveScreenshot(window, QStringLiteral("lessons-parallelism-100.png"));
}

// Lessons 7 and 8 through the window: lesson 8's last step names the exported TACOS schedule
// beside its project by a relative path, so the lesson's copy must bring that file along.
TEST(Lessons, InSwitchAndTacosLessonsWalkedThroughTheWindow) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    LessonsController* lessons = window.lessons();
    lessons->setCopyDirectory(dir.filePath(QStringLiteral("lessons")));
    EXPECT_GE(walkInWindow(window, lessons, "07-in-switch"), 11u);
    EXPECT_GE(walkInWindow(window, lessons, "08-tacos"), 5u);
    EXPECT_TRUE(
        QFileInfo::exists(dir.filePath(QStringLiteral("lessons/08-tacos/tacos-mesh4x4.xml"))));
}

// Lesson 9 through the window: its steps are serving runs (the window's Run runs a serving
// project as `serve` does), and the window's runs give the numbers the text quotes.
TEST(Lessons, WhyDisaggregateWalkedThroughTheWindow) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    LessonsController* lessons = window.lessons();
    lessons->setCopyDirectory(dir.filePath(QStringLiteral("lessons")));
    EXPECT_EQ(walkInWindow(window, lessons, "09-why-disaggregate"), 14u);
}

TEST(Lessons, PanelShowsValuesStepsAndAnswersOnClick) {
    LessonsPanel panel;
    const Lesson lesson = loadLesson(lessonPath("01-ring-all-reduce").toStdString());
    panel.showLesson(lesson);
    const QString text = panel.markdown();
    EXPECT_FALSE(text.contains(QStringLiteral("[[")));
    // A step's numbers show once it ran (issue #53, Teacher 5: printed before anything ran).
    EXPECT_FALSE(text.contains(QStringLiteral("9013.5"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("takes *(run step 1)* µs"))) << text.toStdString();
    panel.markStepRun(0);
    EXPECT_TRUE(panel.markdown().contains(QStringLiteral("takes 9013.5 µs")));
    EXPECT_FALSE(panel.markdown().contains(QStringLiteral("9687.9"))) << "step 2 not run yet";
    EXPECT_TRUE(text.contains(QStringLiteral("(try:0)")));
    EXPECT_TRUE(text.contains(QStringLiteral("(answer:0)")));
    EXPECT_FALSE(text.contains(QStringLiteral("local reduction did")) &&
                 text.contains(QStringLiteral("> Each of the 2(N−1) steps")));
    QSignalSpy tried(&panel, &LessonsPanel::tryRequested);
    emit panel.browser()->anchorClicked(QUrl(QStringLiteral("try:2")));
    ASSERT_EQ(tried.size(), 1);
    EXPECT_EQ(tried.front().front().toInt(), 2);
    emit panel.browser()->anchorClicked(QUrl(QStringLiteral("answer:0")));
    EXPECT_TRUE(panel.markdown().contains(QStringLiteral("> Each of the 2(N−1) steps")));
    EXPECT_FALSE(panel.markdown().contains(QStringLiteral("(answer:0)")));
    // ... and "Hide answer" puts it away again.
    ASSERT_TRUE(panel.markdown().contains(QStringLiteral("[Hide answer](hide:0)")));
    emit panel.browser()->anchorClicked(QUrl(QStringLiteral("hide:0")));
    EXPECT_FALSE(panel.markdown().contains(QStringLiteral("> Each of the 2(N−1) steps")));
    EXPECT_TRUE(panel.markdown().contains(QStringLiteral("(answer:0)")));
}

TEST(Lessons, BrokenLessonIsReportedAtItsFileAndLine) {
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath(QStringLiteral("bad")));
    const QString lesson = dir.filePath(QStringLiteral("bad/lesson.md"));
    {
        QFile file(lesson);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("# Broken\n\n```try\nset platform.dimensionz[0].size = 8\nrun\n```\n");
    }
    ASSERT_TRUE(QFile::copy(
        QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml"),
        dir.filePath(QStringLiteral("bad/project.yaml"))));
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    LessonsController* lessons = window.lessons();
    lessons->setCopyDirectory(dir.filePath(QStringLiteral("copies")));
    EXPECT_FALSE(lessons->openLesson(lesson));
    EXPECT_EQ(lessons->lesson(), nullptr);
    EXPECT_EQ(lessons->tryStep(0), 0);
    const QString status = lessons->panel()->findChild<QLabel*>()->text();
    EXPECT_TRUE(status.contains(lesson + QStringLiteral(":4"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("dimensionz"))) << status.toStdString();

    QFile::remove(dir.filePath(QStringLiteral("bad/project.yaml")));
    {
        QFile file(lesson);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("# No project\n```try\nrun\n```\n");
    }
    EXPECT_FALSE(lessons->openLesson(lesson));
    const QString missing = lessons->panel()->findChild<QLabel*>()->text();
    EXPECT_TRUE(missing.contains(lesson + QStringLiteral(":1"))) << missing.toStdString();
    EXPECT_TRUE(missing.contains(QStringLiteral("project.yaml"))) << missing.toStdString();
}

TEST(Lessons, HelpMenuHasLessons) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    QAction* found = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text() == QStringLiteral("&Help"))
            for (QAction* action : menu->menu()->actions())
                if (action->text() == QStringLiteral("&Lessons"))
                    found = action;
    ASSERT_NE(found, nullptr);
    found->trigger();
    EXPECT_FALSE(window.lessons()->dock()->isHidden());
}

// Lesson 8's TACOS step ran the schedule from the installed lessons folder, not from the copy
// beside the open project (issue #53, Teacher 5): a student's edited copy was never used.
/// A main window whose lessons are copied into a temporary folder.
struct LessonWindow {
    QTemporaryDir dir;
    MainWindow window{test::testServices(dir)};
    LessonsController* lessons = window.lessons();
    LessonWindow() {
        window.setAskBeforeDiscarding(false);
        lessons->setCopyDirectory(dir.filePath(QStringLiteral("lessons")));
    }
};

TEST(Lessons, StepsUseTheFilesBesideTheOpenCopy) {
    LessonWindow w;
    QTemporaryDir& dir = w.dir;
    LessonsController* lessons = w.lessons;
    ASSERT_TRUE(lessons->openLesson(lessonPath("08-tacos")));
    const Lesson& lesson = *lessons->lesson();
    const int tacos = lesson.stepCount() - 1;
    const QString copyFolder =
        QFileInfo(dir.filePath(QStringLiteral("lessons/08-tacos"))).absoluteFilePath();
    const QString used =
        QString::fromStdString(lessonStep(lesson, tacos).spec.system.customAllReduce);
    EXPECT_TRUE(QFileInfo(used).absoluteFilePath().startsWith(copyFolder)) << used.toStdString();
    EXPECT_TRUE(used.endsWith(QStringLiteral("tacos-mesh4x4.xml"))) << used.toStdString();
}

// "Cancel" on the unsaved-changes question left the panel on the new lesson while the old
// project stayed open (issue #53, Teacher 5): the panel stays on the lesson still open.
TEST(Lessons, CancellingTheUnsavedChangesQuestionKeepsTheOpenLesson) {
    LessonWindow w;
    MainWindow& window = w.window;
    LessonsController* lessons = w.lessons;
    ASSERT_TRUE(lessons->openLesson(lessonPath("01-ring-all-reduce")));
    const QString firstProject = window.document()->path();
    window.document()->applyEdit({QStringLiteral("system.chunks"), QStringLiteral("edit"),
                                  [](SimulationSpec& s) { s.system.preferredDatasetSplits = 2; }});
    ASSERT_TRUE(window.document()->isModified());
    int asked = 0;
    window.projectController()->setPrompts({[&asked](const QString&) {
                                                ++asked;
                                                return ProjectController::DiscardChoice::Cancel;
                                            },
                                            {}});
    window.setAskBeforeDiscarding(true);
    EXPECT_FALSE(lessons->openLesson(lessonPath("07-in-switch")));
    EXPECT_EQ(asked, 1);
    EXPECT_EQ(window.document()->path(), firstProject);
    ASSERT_NE(lessons->lesson(), nullptr);
    EXPECT_EQ(QString::fromStdString(lessons->lesson()->file), lessonPath("01-ring-all-reduce"));
    auto* chooser = lessons->panel()->findChild<QComboBox*>(QStringLiteral("lessonChooser"));
    ASSERT_NE(chooser, nullptr);
    EXPECT_EQ(chooser->currentText(), QString::fromStdString(lessons->lesson()->title));
    EXPECT_TRUE(lessons->panel()->markdown().contains(QStringLiteral("ring all-reduce")));
    window.setAskBeforeDiscarding(false);
}

// The user guide listed 6 of the 8 lessons, and lesson 8 sent the class to the Topology tab for
// Synthesize, which is on the Timeline tab (issue #53, Teacher 5).
TEST(Lessons, TheUserGuideListsEveryLessonAndLessonEightNamesTheRightTab) {
    QFile guide(QString::fromStdString(ASTROLABE_SOURCE_DIR + "/docs/user-guide.md"));
    ASSERT_TRUE(guide.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString text = QString::fromUtf8(guide.readAll());
    const QStringList paths = LessonsController::lessons(
        QString::fromStdString(ASTROLABE_SOURCE_DIR + "/resources/lessons"));
    ASSERT_EQ(paths.size(), 9);
    for (int i = 0; i < paths.size(); ++i) {
        QString title = QString::fromStdString(loadLesson(paths[i].toStdString()).title);
        title = title.section(QStringLiteral(". "), 1)
                    .section(u':', 0, 0); // "4. Scheduling chunks: Themis"
        const QString entry = QStringLiteral("%1. **%2**").arg(i + 1).arg(title);
        EXPECT_TRUE(text.contains(entry)) << entry.toStdString();
    }

    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    QWidget* timelineTab = window.tabs()->widget(MainWindow::TimelineTab);
    QPushButton* synthesize = nullptr;
    for (QPushButton* button : window.findChildren<QPushButton*>())
        if (button->text().remove(u'&').startsWith(QStringLiteral("Synthesize")))
            synthesize = button;
    ASSERT_NE(synthesize, nullptr);
    EXPECT_TRUE(timelineTab->isAncestorOf(synthesize)) << "Synthesize is on the Timeline tab";
    const Lesson tacos = loadLesson(lessonPath("08-tacos").toStdString());
    QString lessonText;
    for (const LessonBlock& block : tacos.blocks)
        lessonText += QString::fromStdString(block.markdown);
    EXPECT_TRUE(lessonText.contains(QStringLiteral("On the Timeline tab, **Synthesize**")));
    EXPECT_FALSE(lessonText.contains(QStringLiteral("Topology tab, **Synthesize**")));
}

// The last step's outcome stayed under the lesson after another project was opened, as if it
// described that project.
TEST(Lessons, OpeningAnotherProjectReplacesTheStepStatus) {
    LessonWindow w;
    MainWindow& window = w.window;
    LessonsController* lessons = w.lessons;
    ASSERT_TRUE(lessons->openLesson(lessonPath("01-ring-all-reduce")));
    const QString lessonProject = window.document()->path();
    lessons->panel()->setStatus(QStringLiteral("Step 1 ran: 25.4 \u00B5s simulated."));
    ASSERT_TRUE(window.projectController()->open(
        QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml")));
    EXPECT_TRUE(lessons->panel()->status().contains(QStringLiteral("Another project is open")))
        << lessons->panel()->status().toStdString();
    // Try it opens the lesson's project again, and says so.
    EXPECT_GT(lessons->tryStep(0), 0);
    EXPECT_EQ(window.document()->path(), lessonProject);
    EXPECT_TRUE(lessons->panel()->status().startsWith(QStringLiteral("Step 1 running")))
        << lessons->panel()->status().toStdString();
}
