// The runs list's buttons follow what is selected, including when the list is replaced.
#include "gui/RunsPanel.h"

#include "gui/RunsTableModel.h"

#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableView>
#include <gtest/gtest.h>

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
