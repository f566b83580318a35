// Presentation zoom both ways (issue #53, Teacher 4), headless: lesson 1 open in its dock, its
// run recorded for the Watch tab, then every tab at 100, 150, 200 and 250 % and back at 100 %.
// At each step no label, button, tab, header or table cell is cut (ClippedWidgets.h), and the
// Watch drawing keeps most of its page. Back at 100 % the lesson's lines are laid out exactly as
// they were before the zoom (same heights, same number of lines: no huge code, no line broken
// mid-word) and the docks have their widths back. The Timeline, Utilization and Watch tabs are
// saved at each step (screenshots/zoom-N-SCALE-TAB.png).
#include "ClippedWidgets.h"
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/LessonsController.h"
#include "gui/LessonsPanel.h"
#include "gui/MainWindow.h"
#include "gui/PresentationController.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/TimelinePage.h"
#include "gui/WatchPage.h"
#include "topology/CollectiveAnimationView.h"

#include <QAbstractTextDocumentLayout>
#include <QDockWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextLayout>
#include <gtest/gtest.h>
#include <map>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

/// Each block of the lesson's text: its height and its number of lines, as laid out now.
std::vector<std::pair<int, int>> lessonLayout(QTextBrowser* browser) {
    std::vector<std::pair<int, int>> out;
    QTextDocument* document = browser->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        out.emplace_back(
            static_cast<int>(document->documentLayout()->blockBoundingRect(block).height()),
            block.layout() ? block.layout()->lineCount() : 0);
    return out;
}

std::map<QString, int> dockWidths(QMainWindow& window) {
    std::map<QString, int> out;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible())
            out[dock->objectName()] = dock->width();
    return out;
}

} // namespace

TEST(ZoomGeometry, EveryTabAt100To250PercentAndBackHasNothingClipped) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    // Wide enough for every tab's full bar beside the Project and Lessons docks at 250 % (1,931
    // px); on a smaller screen the window keeps to the screen and the tab bar scrolls instead
    // (GuiScenario.ALessonAt250PercentKeepsTheWindowOnTheScreen).
    window.resize(2000, 1200);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    LessonsController* lessons = window.lessons();
    lessons->setCopyDirectory(dir.filePath(QStringLiteral("lessons")));
    ASSERT_TRUE(lessons->openLesson(QString::fromStdString(
        ASTROLABE_SOURCE_DIR + "/resources/lessons/01-ring-all-reduce/lesson.md")));
    ASSERT_TRUE(lessons->dock()->isVisible());

    window.tabs()->setCurrentIndex(MainWindow::WatchTab);
    auto* watch = qobject_cast<WatchPage*>(window.tabs()->currentWidget());
    ASSERT_NE(watch, nullptr);
    QSignalSpy stored(&window, &MainWindow::runStored);
    watch->recordButton()->click();
    ASSERT_TRUE(stored.count() > 0 || stored.wait(30000));
    ASSERT_TRUE(test::waitUntil([watch] { return !watch->animation()->animation().empty(); }));
    window.runsPanel()->selectRun(window.runsModel()->store()->at(0).id);
    QTest::qWait(100);

    QTextBrowser* lesson = lessons->panel()->browser();
    const auto lessonBefore = lessonLayout(lesson);
    const auto docksBefore = dockWidths(window);
    ASSERT_FALSE(lessonBefore.empty());

    PresentationController* presentation = window.presentation();
    int shot = 0;
    for (double scale : {1.0, 1.5, 2.0, 2.5, 1.0}) {
        presentation->setScale(scale);
        const QString zoom = QStringLiteral("%1 %").arg(scale * 100);
        for (int tab = 0; tab < window.tabs()->count(); ++tab) {
            window.tabs()->setCurrentIndex(tab);
            if (tab == MainWindow::TimelineTab) {
                auto* page = qobject_cast<TimelinePage*>(window.tabs()->widget(tab));
                ASSERT_TRUE(test::waitUntil([page] { return page->isReady(); }));
            }
            QTest::qWait(60);
            if (tab == MainWindow::WatchTab || tab == MainWindow::UtilizationTab ||
                tab == MainWindow::TimelineTab)
                test::saveScreenshot(window, QStringLiteral("zoom-%1-%2-%3.png")
                                                 .arg(++shot)
                                                 .arg(scale * 100)
                                                 .arg(window.tabs()->tabText(tab).toLower()));
            test::expectNothingClipped(window,
                                       zoom + QStringLiteral(" ") + window.tabs()->tabText(tab));
        }
        // The drawing, not the timeline under it, has most of the Watch page.
        window.tabs()->setCurrentIndex(MainWindow::WatchTab);
        QTest::qWait(60);
        const QWidget* drawing = watch->animation()->networkView();
        EXPECT_GE(drawing->height(), watch->height() / 2) << zoom.toStdString();
        EXPECT_GE(drawing->width(), watch->width() * 9 / 10) << zoom.toStdString();
    }

    // Back at 100 %: as before the zoom.
    QTest::qWait(60);
    EXPECT_EQ(lessonLayout(lesson), lessonBefore) << "the lesson's blocks: (height, lines)";
    for (const auto& [name, width] : dockWidths(window)) {
        ASSERT_TRUE(docksBefore.count(name)) << name.toStdString();
        EXPECT_NEAR(width, docksBefore.at(name), 4) << name.toStdString();
    }
}
