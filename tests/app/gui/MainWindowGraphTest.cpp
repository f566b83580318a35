// A graph platform in the application: "Edit as graph" on the project's platform, graph edits
// recorded once on the project's single history and copied into the project, Ctrl+Z in the graph
// drawing undoing them one by one back to the opened stack.
#include "GuiTestSupport.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "topology/GraphEditor.h"
#include "topology/GraphView.h"
#include "topology/Topology.h"
#include "topology/TopologyEditor.h"

#include <QApplication>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

TEST(MainWindowGraph, EditAsGraphAndGraphEditsAreProjectStepsUndoneByCtrlZ) {
    QTemporaryDir dir;
    auto files = std::make_shared<test::MemoryFiles>();
    MainWindow window(test::testServices(dir, {}, files));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    auto* editor =
        window.tabs()->widget(MainWindow::TopologyTab)->findChild<widgets::TopologyEditor*>();
    ASSERT_NE(editor, nullptr);
    const PlatformSpec stack = window.document()->spec().platform;
    ASSERT_FALSE(stack.graph);

    editor->editAsGraph();
    EXPECT_EQ(window.document()->spec().platform, stackAsGraph(stack));
    widgets::GraphEditor* graph = editor->graphEditor();
    ASSERT_TRUE(graph->isVisible());
    graph->addDevice(true);
    graph->addLink(0, stack.npuCount() + (window.document()->spec().platform.graph->switches - 1));
    EXPECT_EQ(window.document()->spec().platform, editor->platform()) << "edits reach the project";
    EXPECT_EQ(window.document()->undoStack()->count(), 3) << "one step per edit, none twice";

    graph->view()->setFocus();
    ASSERT_TRUE(test::waitUntil([] { return QApplication::focusWidget() != nullptr; }));
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(window.document()->spec().platform, stack) << "back at the opened stack";
    EXPECT_EQ(editor->platform(), stack);
    EXPECT_FALSE(graph->isVisible());
    window.close();
}
