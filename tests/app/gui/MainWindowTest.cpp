#include "gui/MainWindow.h"

#include <QDir>
#include <QMenuBar>
#include <QTest>

#include <gtest/gtest.h>

using astrolabe::gui::MainWindow;

namespace {
// Screenshots go to the test's working directory (the build tree), under screenshots/.
QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}
} // namespace

TEST(MainWindow, StartsShowsAndQuitsCleanly) {
    MainWindow window;
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_EQ(window.windowTitle(), QStringLiteral("Astrolabe"));
    const QString path = screenshotPath(QStringLiteral("main-window.png"));
    ASSERT_TRUE(window.grab().save(path)) << path.toStdString();
    EXPECT_GT(QFileInfo(path).size(), 1000);
    QStringList menus;
    for (QAction* a : window.menuBar()->actions())
        menus << a->text();
    EXPECT_TRUE(menus.contains(QStringLiteral("&File")));
    EXPECT_TRUE(menus.contains(QStringLiteral("&Help")));
    EXPECT_TRUE(window.close());
}

TEST(MainWindow, AboutTextNamesTheVersion) {
    EXPECT_TRUE(MainWindow::aboutText().contains(QStringLiteral("Astrolabe 0.")));
}
