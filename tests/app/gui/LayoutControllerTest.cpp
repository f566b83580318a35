// The layout controller without the main window: window state, recent projects and the unit
// convention go through a QSettings file in a temporary directory and come back.
#include "gui/LayoutController.h"

#include "GuiTestSupport.h"

#include <QDockWidget>
#include <QFile>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {
QDockWidget* addDock(QMainWindow& window) {
    auto* dock = new QDockWidget(QStringLiteral("Runs"), &window);
    dock->setObjectName(QStringLiteral("runsDock"));
    window.addDockWidget(Qt::LeftDockWidgetArea, dock);
    return dock;
}
} // namespace

TEST(LayoutController, WindowStateRoundTripsThroughTheSettingsFile) {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    {
        QMainWindow window;
        QDockWidget* dock = addDock(window);
        window.resize(900, 700);
        window.addDockWidget(Qt::RightDockWidgetArea, dock); // moved by the user
        window.show();
        LayoutController(file).saveWindow(window);
    }
    QSettings written(file, QSettings::IniFormat);
    EXPECT_FALSE(written.value(QStringLiteral("window/state")).toByteArray().isEmpty());

    QMainWindow window;
    QDockWidget* dock = addDock(window);
    ASSERT_EQ(window.dockWidgetArea(dock), Qt::LeftDockWidgetArea);
    LayoutController(file).restoreWindow(window);
    EXPECT_EQ(window.dockWidgetArea(dock), Qt::RightDockWidgetArea);

    QMainWindow fresh; // no saved state in another file: nothing changes
    QDockWidget* freshDock = addDock(fresh);
    LayoutController(dir.filePath(QStringLiteral("other.ini"))).restoreWindow(fresh);
    EXPECT_EQ(fresh.dockWidgetArea(freshDock), Qt::LeftDockWidgetArea);
}

TEST(LayoutController, RecentProjectsAreCappedMostRecentFirstAndPersist) {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    LayoutController layout(file);
    QMenu menu;
    layout.attachRecentMenu(&menu);
    EXPECT_FALSE(menu.isEnabled()) << "no recent projects yet";
    QSignalSpy changed(&layout, &LayoutController::recentChanged);
    for (int i = 0; i < 10; ++i)
        layout.addRecent(dir.filePath(QStringLiteral("p%1.yaml").arg(i)));
    layout.addRecent(dir.filePath(QStringLiteral("p5.yaml"))); // again: moves to the front
    EXPECT_EQ(changed.count(), 11);

    const QStringList recent = LayoutController(file).recentProjects();
    ASSERT_EQ(recent.size(), LayoutController::kMaxRecent);
    EXPECT_EQ(recent.first(), dir.filePath(QStringLiteral("p5.yaml")));
    EXPECT_EQ(recent.at(1), dir.filePath(QStringLiteral("p9.yaml")));
    EXPECT_EQ(recent.count(dir.filePath(QStringLiteral("p5.yaml"))), 1);
    EXPECT_FALSE(recent.contains(dir.filePath(QStringLiteral("p1.yaml")))) << "oldest dropped";

    ASSERT_EQ(menu.actions().size(), LayoutController::kMaxRecent);
    EXPECT_TRUE(menu.isEnabled());
    QSignalSpy requested(&layout, &LayoutController::recentRequested);
    menu.actions().at(1)->trigger();
    ASSERT_EQ(requested.count(), 1);
    EXPECT_EQ(requested.at(0).at(0).toString(), dir.filePath(QStringLiteral("p9.yaml")));
}

// Four projects all called project.yaml were four identical "project.yaml" entries (issue #53,
// Researcher 6): each shows its name and folder.
TEST(LayoutController, RecentEntriesShowTheProjectsNameAndFolder) {
    QTemporaryDir dir;
    LayoutController layout(dir.filePath(QStringLiteral("settings.ini")));
    QMenu menu;
    layout.attachRecentMenu(&menu);
    QStringList folders{QStringLiteral("ring"), QStringLiteral("torus"), QStringLiteral("bare")};
    for (const QString& folder : folders) {
        ASSERT_TRUE(QDir(dir.path()).mkpath(folder));
        QFile file(dir.filePath(folder + QStringLiteral("/project.yaml")));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        if (folder != QStringLiteral("bare"))
            file.write("# a comment first\nname: \"" + folder.toUtf8() + " study\"\nplatform:\n");
        file.close();
        layout.addRecent(file.fileName());
    }
    ASSERT_EQ(menu.actions().size(), 3);
    const QString sep = QStringLiteral(" \u2014 ");
    EXPECT_EQ(menu.actions().at(0)->text(),
              QStringLiteral("bare") + sep + dir.filePath(QStringLiteral("bare")));
    EXPECT_EQ(menu.actions().at(1)->text(),
              QStringLiteral("torus study") + sep + dir.filePath(QStringLiteral("torus")));
    EXPECT_EQ(menu.actions().at(2)->text(),
              QStringLiteral("ring study") + sep + dir.filePath(QStringLiteral("ring")));
}

TEST(LayoutController, UnitConventionIsSavedAndAHandEditedValueFallsBack) {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    LayoutController layout(file);
    EXPECT_EQ(layout.savedUnitConvention(), units::Convention::AsEntered) << "the default";
    QMenu menu;
    layout.attachUnitsMenu(&menu);
    ASSERT_EQ(menu.actions().size(), 3);
    QSignalSpy changed(&layout, &LayoutController::unitConventionChanged);
    menu.actions().at(2)->trigger(); // All Binary
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(units::convention(), units::Convention::Binary);
    EXPECT_EQ(LayoutController(file).savedUnitConvention(), units::Convention::Binary);
    layout.setUnitConvention(units::Convention::Decimal);
    EXPECT_TRUE(menu.actions().at(1)->isChecked());
    EXPECT_FALSE(menu.actions().at(2)->isChecked());

    QSettings(file, QSettings::IniFormat)
        .setValue(QStringLiteral("view/units"), QStringLiteral("furlongs"));
    EXPECT_EQ(LayoutController(file).savedUnitConvention(), units::Convention::AsEntered);
    units::setConvention(units::Convention::AsEntered); // the process-wide default for others
}
