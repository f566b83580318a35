// Presentation mode, driven by the keys a teacher would press: Ctrl+= / Ctrl+- / Ctrl+0 scale the
// application font, the timeline's rows and the charts' fonts together; View > High Contrast
// swaps the palette; F11 shows the current tab alone, full screen; both choices are remembered.
#include "GuiTestSupport.h"
#include "common/InterfaceScale.h"
#include "gui/LessonsController.h"
#include "gui/MainWindow.h"
#include "gui/PresentationController.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/TimelinePage.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineSeries>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTabBar>
#include <QTableView>
#include <QTest>
#include <cmath>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;
using widgets::InterfaceScale;

namespace {

/// Sends a key to the focused widget (the window when none), as the keyboard would.
void press(QWidget& window, Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QWidget* target = QApplication::focusWidget();
    QTest::keyClick(target ? target : &window, key, modifiers);
    QApplication::processEvents(); // Qt passes the application font on to widgets by events
}

double pointSize(const QFont& font) {
    return font.pointSizeF();
}

/// A window with the quick start run once, its result in the Timeline and Utilization tabs.
struct RunWindow {
    QTemporaryDir dir;
    MainWindow window{test::testServices(dir)};

    bool start() {
        window.setAskBeforeDiscarding(false);
        window.show();
        window.activateWindow();
        if (!QTest::qWaitForWindowActive(&window))
            return false;
        window.newProjectFromPreset(QStringLiteral("quickstart"));
        QSignalSpy stored(&window, &MainWindow::runStored);
        if (window.startRun() == 0 || !(stored.count() > 0 || stored.wait(30000)))
            return false;
        window.runsPanel()->selectRun(window.runsModel()->store()->at(0).id);
        window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
        window.tabs()->setCurrentIndex(MainWindow::TimelineTab);
        auto* page = qobject_cast<TimelinePage*>(window.tabs()->widget(MainWindow::TimelineTab));
        return page && test::waitUntil([page] { return page->isReady(); });
    }
    widgets::TimelineWidget* timeline() {
        return qobject_cast<TimelinePage*>(window.tabs()->widget(MainWindow::TimelineTab))
            ->view()
            ->timeline();
    }
    /// The first chart of the Utilization tab that has axes.
    QAbstractAxis* chartAxis() {
        for (QChartView* view :
             window.tabs()->widget(MainWindow::UtilizationTab)->findChildren<QChartView*>())
            if (!view->chart()->axes().isEmpty())
                return view->chart()->axes().first();
        return nullptr;
    }
};

} // namespace

TEST(Presentation, CtrlEqualsScalesFontsDrawingsAndChartsAndCtrl0RestoresThem) {
    RunWindow w;
    ASSERT_TRUE(w.start());
    PresentationController* presentation = w.window.presentation();
    const double baseFont = pointSize(presentation->baseFont());
    ASSERT_GT(baseFont, 0);
    ASSERT_EQ(InterfaceScale::factor(), 1.0);
    widgets::TimelineWidget* timeline = w.timeline();
    // At 100 %: the timeline's own constants (RowLayout, TimelineWidget).
    EXPECT_EQ(timeline->rowLayout().npuRowHeight(), 26);
    EXPECT_EQ(timeline->labelWidth(), 150);
    EXPECT_EQ(timeline->axisHeight(), 30);
    QAbstractAxis* axis = w.chartAxis();
    ASSERT_NE(axis, nullptr);
    const double baseChartFont = pointSize(axis->labelsFont());
    const int baseRows = timeline->rowLayout().totalHeight();

    // Ctrl+= once: 125 %. Row heights round to the nearest pixel (26 * 1.25 = 32.5 -> 33).
    press(w.window, Qt::Key_Equal, Qt::ControlModifier);
    EXPECT_DOUBLE_EQ(InterfaceScale::factor(), 1.25);
    EXPECT_DOUBLE_EQ(pointSize(QApplication::font()), baseFont * 1.25);
    EXPECT_EQ(timeline->rowLayout().npuRowHeight(), 33);

    // Three more: 150, 175, 200 %. Everything doubles.
    for (int i = 0; i < 3; ++i)
        press(w.window, Qt::Key_Equal, Qt::ControlModifier);
    EXPECT_DOUBLE_EQ(InterfaceScale::factor(), 2.0);
    EXPECT_DOUBLE_EQ(pointSize(QApplication::font()), baseFont * 2);
    EXPECT_DOUBLE_EQ(pointSize(timeline->font()), baseFont * 2) << "widgets follow the app font";
    EXPECT_EQ(timeline->rowLayout().npuRowHeight(), 52);
    EXPECT_EQ(timeline->rowLayout().totalHeight(), 2 * baseRows);
    EXPECT_EQ(timeline->labelWidth(), 300);
    EXPECT_EQ(timeline->axisHeight(), 60);
    EXPECT_DOUBLE_EQ(InterfaceScale::penWidth(3), 6.0); // the topology drawing's selection pen
    axis = w.chartAxis(); // (the same axis: the run is not shown again)
    ASSERT_NE(axis, nullptr);
    EXPECT_DOUBLE_EQ(pointSize(axis->labelsFont()), baseChartFont * 2);

    // Past the last step (250 %) nothing grows any more.
    for (int i = 0; i < 4; ++i)
        press(w.window, Qt::Key_Equal, Qt::ControlModifier);
    EXPECT_DOUBLE_EQ(InterfaceScale::factor(), 2.5);

    // Ctrl+- one step down, Ctrl+0 back to 100 %.
    press(w.window, Qt::Key_Minus, Qt::ControlModifier);
    EXPECT_DOUBLE_EQ(InterfaceScale::factor(), 2.0);
    press(w.window, Qt::Key_0, Qt::ControlModifier);
    EXPECT_EQ(InterfaceScale::factor(), 1.0);
    EXPECT_DOUBLE_EQ(pointSize(QApplication::font()), baseFont);
    EXPECT_EQ(timeline->rowLayout().npuRowHeight(), 26);
    EXPECT_EQ(timeline->rowLayout().totalHeight(), baseRows);
    EXPECT_EQ(timeline->labelWidth(), 150);
    EXPECT_DOUBLE_EQ(pointSize(w.chartAxis()->labelsFont()), baseChartFont);
    press(w.window, Qt::Key_Minus, Qt::ControlModifier);
    EXPECT_EQ(InterfaceScale::factor(), 1.0) << "100 % is the smallest step";
}

// Each zoom step's larger minimums reach the window's layout before the tabs give way to fit the
// screen; they never reach the window itself, whose minimum a window manager enforces (one that
// exceeds the screen makes a manager drop a maximized state and stretch the window past it).
TEST(Presentation, TheWindowNeverGrowsPastTheScreenWhileZooming) {
    RunWindow w;
    ASSERT_TRUE(w.start());
    const QSize frame = w.window.frameGeometry().size() - w.window.size();
    const QSize room =
        (w.window.screen()->availableGeometry().size() - frame).expandedTo(w.window.size());
    struct Watch : QObject {
        int tallest = 0, tallestMinimum = 0;
        bool eventFilter(QObject* object, QEvent* event) override {
            auto* window = static_cast<QWidget*>(object);
            if (event->type() == QEvent::Resize)
                tallest = std::max(tallest, window->height());
            tallestMinimum = std::max(tallestMinimum, window->minimumHeight());
            return false;
        }
    } watch;
    w.window.installEventFilter(&watch);
    for (int i = 0; i < 6; ++i)
        press(w.window, Qt::Key_Equal, Qt::ControlModifier);
    ASSERT_DOUBLE_EQ(InterfaceScale::factor(), 2.5);
    press(w.window, Qt::Key_0, Qt::ControlModifier);
    w.window.removeEventFilter(&watch);
    EXPECT_LE(watch.tallest, room.height());
    EXPECT_LE(watch.tallestMinimum, room.height());
    EXPECT_LE(w.window.minimumHeight(), room.height()) << "the layout's own minimum again";
    EXPECT_GT(w.window.minimumHeight(), 1) << "not the minimum held while zooming";
}

TEST(Presentation, HighContrastSwapsThePaletteAndBack) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    PresentationController* presentation = window.presentation();
    const QPalette base = QApplication::palette();
    QAction* contrast = presentation->highContrastAction();
    bool inViewMenu = false;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == QStringLiteral("&View"))
            inViewMenu = menu->menu()->actions().contains(contrast);
    EXPECT_TRUE(inViewMenu);

    contrast->trigger();
    EXPECT_TRUE(InterfaceScale::highContrast());
    const QPalette high = QApplication::palette();
    EXPECT_EQ(high.color(QPalette::Window), QColor(Qt::white));
    EXPECT_EQ(high.color(QPalette::WindowText), QColor(Qt::black));
    EXPECT_EQ(high.color(QPalette::Text), QColor(Qt::black));
    EXPECT_EQ(window.palette().color(QPalette::WindowText), QColor(Qt::black));
    EXPECT_DOUBLE_EQ(InterfaceScale::penWidth(2), 3.0) << "drawings' lines are thicker";

    contrast->trigger();
    EXPECT_FALSE(InterfaceScale::highContrast());
    EXPECT_EQ(QApplication::palette().color(QPalette::Window), base.color(QPalette::Window));
    EXPECT_EQ(QApplication::palette().color(QPalette::WindowText),
              base.color(QPalette::WindowText));
    EXPECT_DOUBLE_EQ(InterfaceScale::penWidth(2), 2.0);
}

// Chart series follow the theme too: strong colours and thick lines in high contrast, and
// exactly the theme's own pens and colours back afterwards.
TEST(Presentation, HighContrastRecoloursChartSeriesAndBack) {
    QChartView view;
    auto* line = new QLineSeries;
    line->append({QPointF(0, 1), QPointF(1, 2)});
    line->setPen(QPen(QColor(0xa6, 0xce, 0xe3), 1.0)); // a pale blue, hard to see projected
    auto* set = new QBarSet(QStringLiteral("busy"));
    *set << 1 << 2;
    set->setColor(QColor(0xfd, 0xbf, 0x6f));
    auto* bars = new QBarSeries;
    bars->append(set);
    view.chart()->addSeries(line);
    view.chart()->addSeries(bars);
    InterfaceScale::followChart(&view);

    InterfaceScale::instance().setHighContrast(true);
    int h = 0, s = 0, v = 0;
    line->pen().color().getHsv(&h, &s, &v);
    EXPECT_GE(s, 210);
    EXPECT_LE(v, 165);
    EXPECT_NEAR(h, QColor(0xa6, 0xce, 0xe3).hue(), 1) << "the same hue, stronger";
    EXPECT_GE(line->pen().widthF(), 2.5);
    set->color().getHsv(&h, &s, &v);
    EXPECT_GE(s, 210);
    EXPECT_EQ(set->borderColor(), QColor(Qt::black));

    InterfaceScale::instance().setHighContrast(false);
    EXPECT_EQ(line->pen().color(), QColor(0xa6, 0xce, 0xe3));
    EXPECT_DOUBLE_EQ(line->pen().widthF(), 1.0);
    EXPECT_EQ(set->color(), QColor(0xfd, 0xbf, 0x6f));
    EXPECT_NE(set->borderColor(), QColor(Qt::black));
}

TEST(Presentation, F11ShowsTheCurrentTabAloneFullScreenAndF11OrEscGoBack) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    QList<QDockWidget*> docks; // those shown: the Lessons dock starts hidden, and stays so
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible())
            docks << dock;
    ASSERT_FALSE(docks.isEmpty());

    for (Qt::Key back : {Qt::Key_F11, Qt::Key_Escape}) {
        press(window, Qt::Key_F11);
        ASSERT_TRUE(test::waitUntil([&] { return window.isFullScreen(); }));
        EXPECT_TRUE(window.presentation()->isTabFullScreen());
        EXPECT_FALSE(window.menuBar()->isVisible());
        EXPECT_FALSE(window.tabs()->tabBar()->isVisible());
        for (QDockWidget* dock : docks)
            EXPECT_FALSE(dock->isVisible()) << dock->objectName().toStdString();
        EXPECT_EQ(window.tabs()->currentIndex(), MainWindow::TopologyTab);
        EXPECT_TRUE(window.tabs()->currentWidget()->isVisible());

        press(window, back);
        ASSERT_TRUE(test::waitUntil([&] { return !window.isFullScreen(); }));
        EXPECT_FALSE(window.presentation()->isTabFullScreen());
        EXPECT_TRUE(window.menuBar()->isVisible());
        EXPECT_TRUE(window.tabs()->tabBar()->isVisible());
        for (QDockWidget* dock : docks)
            EXPECT_TRUE(dock->isVisible()) << dock->objectName().toStdString();
    }
    // Outside full screen, Esc is not taken from the widgets that use it.
    EXPECT_FALSE(window.presentation()->isTabFullScreen());
    EXPECT_FALSE(window.lessons()->dock()->isVisible());
}

TEST(Presentation, ScaleAndThemeAreRememberedAcrossSessions) {
    QTemporaryDir dir; // the settings file is in it: the user's own settings are not touched
    const QFont before = QApplication::font();
    {
        MainWindow window(test::testServices(dir));
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        window.presentation()->setScale(1.5);
        window.presentation()->setHighContrast(true);
    }
    // The window is gone: the application has its own font and palette back.
    EXPECT_EQ(InterfaceScale::factor(), 1.0);
    EXPECT_FALSE(InterfaceScale::highContrast());
    EXPECT_EQ(QApplication::font(), before);
    const QSettings saved(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    EXPECT_DOUBLE_EQ(saved.value(QStringLiteral("view/scale")).toDouble(), 1.5);
    EXPECT_TRUE(saved.value(QStringLiteral("view/highContrast")).toBool());
    {
        MainWindow window(test::testServices(dir));
        EXPECT_DOUBLE_EQ(window.presentation()->scale(), 1.5);
        EXPECT_DOUBLE_EQ(pointSize(QApplication::font()), pointSize(before) * 1.5);
        EXPECT_TRUE(window.presentation()->highContrast());
        EXPECT_TRUE(window.presentation()->highContrastAction()->isChecked());
        EXPECT_EQ(QApplication::palette().color(QPalette::Window), QColor(Qt::white));
        window.presentation()->resetZoom();
        window.presentation()->setHighContrast(false);
    }
    {
        MainWindow window(test::testServices(dir));
        EXPECT_EQ(window.presentation()->scale(), 1.0);
        EXPECT_FALSE(window.presentation()->highContrast());
    }
}

TEST(Presentation, TableColumnsRowsAndDockTitlesFollowTheScale) {
    // Sizes given in pixels when a table was made (the runs list's columns and rows) grow with
    // the scale; the docks' titles, which keep a font of their own, too.
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* table = window.runsPanel()->findChild<QTableView*>();
    ASSERT_NE(table, nullptr);
    QHeaderView* columns = table->horizontalHeader();
    const int name = columns->sectionSize(0), date = columns->sectionSize(1);
    const int row = table->verticalHeader()->defaultSectionSize();
    window.presentation()->setScale(2.0);
    EXPECT_EQ(columns->sectionSize(0), 2 * name);
    EXPECT_EQ(columns->sectionSize(1), 2 * date);
    EXPECT_EQ(table->verticalHeader()->defaultSectionSize(), 2 * row);
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
        EXPECT_DOUBLE_EQ(dock->font().pointSizeF(), QApplication::font().pointSizeF());
        EXPECT_NE(dock->font(), QApplication::font()) << "else Qt draws the theme's small title";
        EXPECT_FALSE(dock->widget()->font().bold()) << "the title's bold is not passed on";
    }
    window.presentation()->resetZoom();
    EXPECT_EQ(columns->sectionSize(0), name);
    EXPECT_EQ(columns->sectionSize(1), date);
    EXPECT_EQ(table->verticalHeader()->defaultSectionSize(), row);
}
