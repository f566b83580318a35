// The runs list's buttons follow what is selected, including when the list is replaced; its
// title says when the folder's projects share its runs.
#include "gui/RunsPanel.h"

#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/MainWindow.h"
#include "gui/RunsTableModel.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableView>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

// "Compare selected" is enabled for two to six selected runs, and not after the list was replaced
// by another project's (a reset clears the selection without announcing it).
TEST(RunsPanel, CompareFollowsTheSelectionAndAReplacedList) {
    InMemoryRunStore first, second;
    RunsTableModel model;
    model.setStore(&first);
    for (int i = 0; i < 3; ++i) {
        RunRecord r;
        r.name = QStringLiteral("run %1").arg(i);
        model.addRun(r);
    }
    RunsPanel panel(&model);
    QPushButton* compare = nullptr;
    for (QPushButton* b : panel.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Compare selected"))
            compare = b;
    ASSERT_NE(compare, nullptr);
    EXPECT_FALSE(compare->isEnabled());
    QItemSelectionModel* selection = panel.view()->selectionModel();
    selection->select(model.index(0, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    EXPECT_FALSE(compare->isEnabled()) << "one run";
    selection->select(model.index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    EXPECT_TRUE(compare->isEnabled()) << "two runs";
    model.setStore(&second);
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_FALSE(compare->isEnabled()) << "the list was replaced and nothing is selected";
}

// The runs are those of the project database in the project's folder: when other projects share
// that folder (projects/serving/ has several), the Runs dock's title says whose runs it lists.
TEST(RunsPanel, TheTitleSaysWhenTheFoldersProjectsShareTheRuns) {
    QTemporaryDir dir;
    const QString source = QString::fromStdString(ASTROLABE_SOURCE_DIR) +
                           QStringLiteral("/projects/quickstart/project.yaml");
    const QString first = dir.filePath(QStringLiteral("first.yaml"));
    ASSERT_TRUE(QFile::copy(source, first));
    QFile sweep(dir.filePath(QStringLiteral("sweep.yaml"))); // not a project: not counted
    ASSERT_TRUE(sweep.open(QIODevice::WriteOnly));
    sweep.write("base: first.yaml\nvalues: {system.chunks: [1, 2]}\n");
    sweep.close();
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    auto* runsDock = window.findChild<QDockWidget*>(QStringLiteral("runsDock"));
    ASSERT_NE(runsDock, nullptr);
    ASSERT_TRUE(window.openProject(first));
    EXPECT_EQ(runsDock->windowTitle(), QStringLiteral("Runs"));
    ASSERT_TRUE(QFile::copy(source, dir.filePath(QStringLiteral("second.yaml"))));
    ASSERT_TRUE(window.openProject(first));
    EXPECT_EQ(runsDock->windowTitle(), QStringLiteral("Runs \u00b7 shared by the 2 projects in %1/")
                                           .arg(QDir(dir.path()).dirName()));
    EXPECT_TRUE(runsDock->toolTip().endsWith(QStringLiteral("astrolabe.db")))
        << runsDock->toolTip().toStdString();
}
