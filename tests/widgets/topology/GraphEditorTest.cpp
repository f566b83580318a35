// Editing a graph platform in the topology editor (GraphEditor, GraphEdits): adding and deleting
// NPUs, switches and links (by a real drag between two devices), editing a link in place,
// multi-select and delete, problems shown, generators from the palette, "Edit as graph", every
// step undoable back to the exact project, and project -> editor -> project unchanged.
#include "topology/GraphEditor.h"

#include "GeneratedGraph.h"
#include "TestPaths.h"
#include "graph/GraphGenerators.h"
#include "project/ProjectFile.h"
#include "topology/GraphEdits.h"
#include "topology/GraphPalette.h"
#include "topology/GraphView.h"
#include "topology/Topology.h"
#include "topology/TopologyEditor.h"

#include <QAction>
#include <QComboBox>
#include <QGraphicsItem>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMouseEvent>
#include <QTest>
#include <QUndoStack>
#include <cmath>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
const std::string kDgxProject =
    std::string(ASTROLABE_SOURCE_DIR) + "/projects/graph-dgx1/project.yaml";

void sendMouse(QWidget* target, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(pos), target->mapToGlobal(QPointF(pos)), Qt::LeftButton, buttons,
                  Qt::NoModifier);
    QApplication::sendEvent(target, &e);
}

QPoint devicePoint(GraphView* view, int device) {
    return view->mapFromScene(view->deviceItem(device)->pos());
}

struct Shown {
    TopologyEditor editor;
    GraphEditor* graph() { return editor.graphEditor(); }
    Shown(const PlatformSpec& platform) {
        editor.resize(1200, 760);
        editor.setPlatform(platform);
        editor.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&editor));
    }
};
} // namespace

TEST(GraphEdits, AddAndRemoveRenumberSwitchesAfterNpus) {
    GraphSpec g;
    g.npus = 2;
    g.switches = 1;
    g.links = {{0, 2, 50e9, 100, true, 0}, {1, 2, 50e9, 100, true, 0}};
    std::vector<int> renumber;
    EXPECT_EQ(addGraphDevice(g, false, &renumber), 2); // the new NPU takes the switch's id
    EXPECT_EQ(renumber, (std::vector<int>{0, 1, 3}));
    EXPECT_EQ(g.links[0].to, 3);
    EXPECT_EQ(g.deviceName(3), "sw0");
    EXPECT_EQ(addGraphLink(g, 2, 3), 2);
    EXPECT_EQ(g.links[2].bandwidthBytesPerSecond, 50e9);
    EXPECT_TRUE(graphEditorProblems(g).empty());
    // Removing NPU 0 removes its link and moves everyone down.
    EXPECT_EQ(removeGraphItems(g, {0}, {}), (std::vector<int>{-1, 0, 1, 2}));
    EXPECT_EQ(g.npus, 2);
    EXPECT_EQ(g.switches, 1);
    ASSERT_EQ(g.links.size(), 2u);
    EXPECT_EQ(g.links[0].from, 0);
    EXPECT_EQ(g.links[0].to, 2);
    // A second link between the same devices is reported as a duplicate.
    addGraphLink(g, 2, 0);
    const auto problems = graphEditorProblems(g);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].link, 2);
    EXPECT_NE(problems[0].what.find("duplicates link 0"), std::string::npos);
}

TEST(GraphEditor, ProjectToEditorToProjectIsIdentical) {
    const SimulationSpec spec = loadProject(kDgxProject);
    Shown shown(spec.platform);
    EXPECT_EQ(shown.editor.platform(), spec.platform);
    SimulationSpec back = spec;
    back.platform = shown.editor.platform();
    EXPECT_EQ(projectYamlText(back, kDgxProject), projectYamlText(spec, kDgxProject));
    EXPECT_EQ(shown.graph()->positions().size(), 8u);
    EXPECT_NE(shown.graph()->view()->deviceItem(7), nullptr);
}

TEST(GraphEditor, EditsWriteBackAndUndoRestoresTheExactProject) {
    const SimulationSpec spec = loadProject(kDgxProject);
    Shown shown(spec.platform);
    GraphEditor* ge = shown.graph();
    GraphView* view = ge->view();
    const std::string before = projectYamlText(spec, kDgxProject);

    ge->addDevice(true);  // sw0
    ge->addDevice(false); // npu8; the switch becomes device 9
    ASSERT_EQ(shown.editor.platform().graph->deviceCount(), 10);
    EXPECT_EQ(shown.editor.platform().dimensions[0].size, 9); // the default logical dimension
    // A real drag from npu8 to sw0 draws a link between them.
    const QPoint from = devicePoint(view, 8), to = devicePoint(view, 9);
    sendMouse(view->viewport(), QEvent::MouseButtonPress, from, Qt::LeftButton);
    sendMouse(view->viewport(), QEvent::MouseMove, (from + to) / 2, Qt::LeftButton);
    sendMouse(view->viewport(), QEvent::MouseMove, to, Qt::LeftButton);
    sendMouse(view->viewport(), QEvent::MouseButtonRelease, to, Qt::NoButton);
    const GraphSpec& g = *shown.editor.platform().graph;
    ASSERT_EQ(g.links.size(), 17u);
    EXPECT_EQ(g.links[16].from, 8);
    EXPECT_EQ(g.links[16].to, 9);
    // The new link is selected: its bandwidth edited in place.
    EXPECT_EQ(view->selectedLinks(), (std::set<int>{16}));
    ge->bandwidthEdit()->setText(QStringLiteral("400 GB/s"));
    ge->latencyEdit()->setText(QStringLiteral("2 us"));
    emit ge->bandwidthEdit()->editingFinished();
    EXPECT_EQ(shown.editor.platform().graph->links[16].bandwidthBytesPerSecond, 400e9);
    EXPECT_EQ(shown.editor.platform().graph->links[16].latencyNs, 2000);
    ge->addLink(9, 0); // sw0 -- npu0, so that npu8 reaches the others
    EXPECT_TRUE(ge->problemsLabel()->text().isEmpty()) << ge->problemsLabel()->text().toStdString();
    // The result is what the project writes and reads back.
    SimulationSpec edited = spec;
    edited.platform = shown.editor.platform();
    const std::string text = projectYamlText(edited, kDgxProject);
    EXPECT_NE(text.find("{from: npu8, to: sw0, bandwidth: 400 GB/s"), std::string::npos) << text;
    EXPECT_EQ(parseProject(text, kDgxProject).platform, edited.platform);

    // Shift+drag moves sw0: one undo step that saves every device's position in the graph,
    // rounded to whole scene units; undo puts the graph without positions back.
    const PlatformSpec beforeMove = shown.editor.platform();
    const std::vector<QPointF> laidOut = ge->positions();
    const QPoint away = devicePoint(view, 9) + QPoint(30, 40);
    QMouseEvent press(QEvent::MouseButtonPress, QPointF(devicePoint(view, 9)),
                      view->viewport()->mapToGlobal(QPointF(devicePoint(view, 9))), Qt::LeftButton,
                      Qt::LeftButton, Qt::ShiftModifier);
    QApplication::sendEvent(view->viewport(), &press);
    sendMouse(view->viewport(), QEvent::MouseMove, away, Qt::LeftButton);
    sendMouse(view->viewport(), QEvent::MouseButtonRelease, away, Qt::NoButton);
    const QPointF moved = view->mapToScene(away);
    const QPointF rounded(std::round(moved.x()), std::round(moved.y()));
    EXPECT_EQ(ge->positions()[9], rounded);
    const GraphSpec& placed = *shown.editor.platform().graph;
    ASSERT_TRUE(placed.hasPositions());
    EXPECT_EQ(placed.positions[9], (GraphPoint{rounded.x(), rounded.y()}));
    EXPECT_EQ(placed.positions[0], (GraphPoint{laidOut[0].x(), laidOut[0].y()}));
    EXPECT_EQ(shown.editor.undoStack()->count(), 6);
    shown.editor.undoStack()->undo();
    EXPECT_EQ(shown.editor.platform(), beforeMove);
    EXPECT_EQ(ge->positions(), laidOut);
    shown.editor.undoStack()->redo();
    EXPECT_EQ(ge->positions()[9], rounded);
    // Multi-select (two GPUs and a link) and delete: one undo step.
    view->select({0, 1}, {15});
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Delete); // the editor's Delete removes the selection
    EXPECT_EQ(shown.editor.platform().graph->npus, 7);
    const int steps = shown.editor.undoStack()->count();
    EXPECT_EQ(steps, 7); // switch, NPU, link, link edit, link, move, delete
    EXPECT_TRUE(shown.editor.platform().graph->hasPositions()) << "renumbered with the devices";
    while (shown.editor.undoStack()->canUndo())
        shown.editor.undoStack()->undo();
    EXPECT_EQ(shown.editor.platform(), spec.platform);
    SimulationSpec undone = spec;
    undone.platform = shown.editor.platform();
    EXPECT_EQ(projectYamlText(undone, kDgxProject), before);
    // Positions come back with the graph (a redo shows the switch where it was put).
    const std::vector<QPointF> original = ge->positions();
    shown.editor.undoStack()->redo();
    shown.editor.undoStack()->undo();
    EXPECT_EQ(ge->positions(), original);
}

TEST(GraphEditor, ProblemsAreShownAndBadTextIsRefused) {
    Shown shown(graphPlatform(generatedGraph("mesh2d", {2, 2})));
    GraphEditor* ge = shown.graph();
    EXPECT_TRUE(ge->problemsLabel()->text().isEmpty());
    // 0 -- 1 exists already: a second drag selects it instead of adding a link whose bandwidth
    // would go unused (and which the saved project would not read back with).
    const size_t links = shown.editor.platform().graph->links.size();
    ge->addLink(1, 0);
    EXPECT_EQ(shown.editor.platform().graph->links.size(), links);
    EXPECT_EQ(shown.editor.undoStack()->count(), 0);
    ASSERT_EQ(ge->view()->selectedLinks().size(), 1u);
    const GraphLinkSpec& selected =
        shown.editor.platform().graph->links[size_t(*ge->view()->selectedLinks().begin())];
    EXPECT_TRUE((selected.from == 0 && selected.to == 1) ||
                (selected.from == 1 && selected.to == 0));
    EXPECT_TRUE(ge->problemsLabel()->text().isEmpty());
    // Unparsable text changes nothing and says why; an isolated NPU is reported.
    ge->view()->select({}, {0});
    ge->bandwidthEdit()->setText(QStringLiteral("fast"));
    emit ge->bandwidthEdit()->editingFinished();
    EXPECT_EQ(shown.editor.platform().graph->links[0].bandwidthBytesPerSecond, 100e9);
    EXPECT_TRUE(ge->problemsLabel()->text().contains(QStringLiteral("link 0")));
    ge->bandwidthEdit()->setText(QStringLiteral("0 GB/s")); // out of range: refused too
    emit ge->bandwidthEdit()->editingFinished();
    EXPECT_EQ(shown.editor.platform().graph->links[0].bandwidthBytesPerSecond, 100e9);
    EXPECT_TRUE(ge->problemsLabel()->text().contains(QStringLiteral("link 0")));
    EXPECT_EQ(shown.editor.undoStack()->count(), 0); // the refused texts changed nothing
    ge->addDevice(false);
    EXPECT_TRUE(ge->problemsLabel()->text().contains(QStringLiteral("npu4")))
        << ge->problemsLabel()->text().toStdString();
}

TEST(GraphEditor, PaletteGeneratesAndEditAsGraphConvertsAStack) {
    PlatformSpec stack;
    stack.dimensions = {{BlockKind::Ring, 4, 50e9, 100}, {BlockKind::Switch, 2, 25e9, 500}};
    Shown shown(stack);
    ASSERT_TRUE(shown.editor.editAsGraphAction()->isEnabled());
    shown.editor.editAsGraphAction()->trigger();
    EXPECT_EQ(shown.editor.platform(), stackAsGraph(stack));
    EXPECT_FALSE(shown.editor.editAsGraphAction()->isEnabled());
    EXPECT_TRUE(shown.graph()->isVisible());
    // Generators are palette items with their parameters.
    GraphPalette* palette = shown.graph()->palette();
    const auto items =
        palette->generatorList()->findItems(QStringLiteral("torus3d"), Qt::MatchExactly);
    ASSERT_EQ(items.size(), 1);
    palette->generatorList()->setCurrentItem(items[0]);
    palette->sizeEdit()->setText(QStringLiteral("2, 3, 4"));
    ASSERT_TRUE(palette->generate());
    GraphGeneratorSpec expected{"torus3d", {2, 3, 4}, 100e9, 100, 0, -1};
    EXPECT_EQ(shown.editor.platform(), graphPlatform(generateGraph(expected)));
    palette->sizeEdit()->setText(QStringLiteral("1, 3"));
    EXPECT_FALSE(palette->generate()); // refused with the engine's message, nothing changed
    EXPECT_EQ(shown.editor.platform().graph->npus, 24);
    shown.editor.undoStack()->undo();
    shown.editor.undoStack()->undo();
    EXPECT_EQ(shown.editor.platform(), stack);
    EXPECT_FALSE(shown.graph()->isVisible());
}

// Saved positions (docs/graph-platforms.md): moved devices are written to the project and a
// reopened project shows them instead of the automatic layout; apart from the positions block
// the project text is byte-identical to the one before the move.
TEST(GraphEditor, MovedPositionsAreSavedAndRestoredOnOpen) {
    const SimulationSpec spec = loadProject(kDgxProject);
    const std::string before = projectYamlText(spec, kDgxProject);
    SimulationSpec moved = spec;
    {
        Shown shown(spec.platform);
        shown.graph()->moveDevice(3, QPointF(1234.4, -567.6));
        shown.graph()->moveDevice(5, QPointF(-80, 2000));
        moved.platform = shown.editor.platform();
        EXPECT_EQ(shown.editor.undoStack()->count(), 2);
    }
    ASSERT_TRUE(moved.platform.graph->hasPositions());
    EXPECT_EQ(moved.platform.graph->positions[3], (GraphPoint{1234, -568}));
    const std::string text = projectYamlText(moved, kDgxProject);
    const size_t block = text.find("    positions:\n");
    ASSERT_NE(block, std::string::npos) << text;
    EXPECT_NE(text.find("\n      npu3: [1234, -568]\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n      npu5: [-80, 2000]\n"), std::string::npos) << text;
    const size_t end = text.find_first_not_of(' ', text.find("npu7: [", block));
    std::string without = text;
    without.erase(block, text.find('\n', end) + 1 - block);
    EXPECT_EQ(without, before);

    const SimulationSpec reopened = parseProject(text, kDgxProject);
    EXPECT_EQ(reopened.platform, moved.platform);
    EXPECT_EQ(projectYamlText(reopened, kDgxProject), text);
    Shown again(reopened.platform);
    ASSERT_EQ(again.graph()->positions().size(), 8u);
    for (size_t i = 0; i < 8; ++i) {
        const GraphPoint& p = moved.platform.graph->positions[i];
        EXPECT_EQ(again.graph()->positions()[i], QPointF(p.x, p.y)) << i;
        EXPECT_EQ(again.graph()->view()->deviceItem(static_cast<int>(i))->pos(), QPointF(p.x, p.y))
            << i;
    }
    // "Auto layout" drops them, as one undoable step.
    again.graph()->relayout();
    EXPECT_FALSE(again.editor.platform().graph->hasPositions());
    again.editor.undoStack()->undo();
    EXPECT_EQ(again.editor.platform(), reopened.platform);
}

// The Routing box edits the graph group's routing setting as one undoable step.
TEST(GraphEditor, RoutingBoxSetsEcmpAndUndoRestoresShortest) {
    const SimulationSpec spec = loadProject(kDgxProject);
    Shown shown(spec.platform);
    QComboBox* box = shown.graph()->routingBox();
    ASSERT_EQ(box->count(), 2);
    EXPECT_EQ(box->currentIndex(), 0);
    box->setCurrentIndex(1);
    emit box->activated(1);
    EXPECT_EQ(shown.editor.platform().graph->routing, GraphRouting::Ecmp);
    EXPECT_EQ(shown.editor.undoStack()->count(), 1);
    shown.editor.undoStack()->undo();
    EXPECT_EQ(shown.editor.platform(), spec.platform);
    EXPECT_EQ(box->currentIndex(), 0);
}

// The logical dimensions (what collectives plan over) are edited in the graph page: sizes that
// multiply to the NPU count, one undoable step, written to the project as logical-dimensions
// and read back the same; anything else is refused with the project reader's own words.
TEST(GraphEditor, LogicalDimensionsAreEditedCheckedAndUndone) {
    const SimulationSpec spec = loadProject(kDgxProject);
    Shown shown(spec.platform);
    GraphEditor* ge = shown.graph();
    QLineEdit* logical = ge->logicalEdit();
    EXPECT_EQ(logical->text(), QStringLiteral("8")) << "the default: one of all 8 NPUs";

    logical->setText(QStringLiteral("4x2"));
    emit logical->editingFinished();
    const PlatformSpec& p = shown.editor.platform();
    ASSERT_EQ(p.dimensions.size(), 2u);
    EXPECT_EQ(p.dimensions[0].size, 4);
    EXPECT_EQ(p.dimensions[1].size, 2);
    // Nominal figures of the graph's one dimension (its slowest link), as the reader gives them.
    EXPECT_EQ(p.dimensions[1].bandwidthBytesPerSecond,
              graphDimension(*p.graph).bandwidthBytesPerSecond);
    EXPECT_EQ(logical->text(), QStringLiteral("4, 2"));
    EXPECT_EQ(shown.editor.undoStack()->count(), 1);
    EXPECT_EQ(shown.editor.undoStack()->undoText(),
              QStringLiteral("Logical dimensions 4 \u00d7 2"));
    // Saved and read back as the same platform.
    SimulationSpec edited = spec;
    edited.platform = p;
    const std::string yaml = projectYamlText(edited, kDgxProject);
    EXPECT_NE(yaml.find("logical-dimensions"), std::string::npos) << yaml;
    EXPECT_EQ(parseProject(yaml, kDgxProject).platform, p);

    const std::pair<QString, QString> refused[] = {
        {QStringLiteral("4, 3"),
         QStringLiteral("multiply to the graph's 8 NPUs, found a product of 12")},
        {QStringLiteral("8, 8"), QStringLiteral("found a product of 64")},
        {QStringLiteral("1, 8"), QStringLiteral("at least 2, found 1")},
        {QStringLiteral("two"), QStringLiteral("expected whole numbers, found \"two\"")},
        {QString(), QStringLiteral("1 to 8 sizes, found 0")}};
    for (const auto& [text, message] : refused) {
        logical->setText(text);
        emit logical->editingFinished();
        EXPECT_TRUE(ge->problemsLabel()->text().contains(message))
            << text.toStdString() << ": " << ge->problemsLabel()->text().toStdString();
        EXPECT_EQ(shown.editor.platform(), p) << text.toStdString();
        EXPECT_EQ(shown.editor.undoStack()->count(), 1);
    }
    shown.editor.undoStack()->undo();
    EXPECT_EQ(shown.editor.platform(), spec.platform);
    EXPECT_EQ(logical->text(), QStringLiteral("8"));
}

// A double-click on a link opens an editor on the drawing, at the link, with its bandwidth and
// latency: Enter applies both as one undoable step, bad text is refused with the reason (the
// editor stays open), Escape closes it and changes nothing.
TEST(GraphEditor, ADoubleClickEditsALinkOnTheDrawing) {
    const SimulationSpec spec = loadProject(kDgxProject);
    Shown shown(spec.platform);
    GraphEditor* ge = shown.graph();
    GraphView* view = ge->view();
    QLineEdit* inline_ = ge->inlineLinkEdit();
    ASSERT_NE(inline_, nullptr);
    EXPECT_FALSE(inline_->isVisible());
    // A link whose midpoint shows that link alone (a face's two diagonals cross at its centre).
    int pick = -1;
    QPoint mid;
    for (int i = 0; i < static_cast<int>(spec.platform.graph->links.size()) && pick < 0; ++i) {
        const GraphLinkSpec& l = spec.platform.graph->links[static_cast<size_t>(i)];
        mid = (devicePoint(view, l.from) + devicePoint(view, l.to)) / 2;
        int links = 0, devices = 0;
        for (QGraphicsItem* item : view->items(QRect(mid - QPoint(4, 4), QSize(9, 9)))) {
            for (int d = 0; d < spec.platform.graph->deviceCount(); ++d)
                devices += view->deviceItem(d) == item;
            for (size_t k = 0; k < spec.platform.graph->links.size(); ++k)
                links += view->linkItem(static_cast<int>(k)) == item;
        }
        if (links == 1 && devices == 0 && view->items(mid).contains(view->linkItem(i)))
            pick = i;
    }
    ASSERT_GE(pick, 0);
    const auto doubleClick = [&] {
        sendMouse(view->viewport(), QEvent::MouseButtonPress, mid, Qt::LeftButton);
        sendMouse(view->viewport(), QEvent::MouseButtonRelease, mid, Qt::NoButton);
        sendMouse(view->viewport(), QEvent::MouseButtonDblClick, mid, Qt::LeftButton);
        sendMouse(view->viewport(), QEvent::MouseButtonRelease, mid, Qt::NoButton);
    };
    doubleClick();
    ASSERT_TRUE(inline_->isVisible()) << "no editor on the drawing";
    EXPECT_EQ(view->selectedLinks(), std::set<int>{pick});
    EXPECT_EQ(inline_->text(), ge->bandwidthEdit()->text() + ", " + ge->latencyEdit()->text());
    // At the link: its centre within a few dozen pixels of the click.
    EXPECT_LT((inline_->geometry().center() - mid).manhattanLength(), 200);

    inline_->setText(QStringLiteral("fast, 1 us"));
    emit inline_->returnPressed();
    EXPECT_TRUE(inline_->isVisible()) << "refused text keeps the editor open";
    EXPECT_TRUE(ge->problemsLabel()->text().contains(QStringLiteral("link %1").arg(pick)))
        << ge->problemsLabel()->text().toStdString();
    EXPECT_EQ(shown.editor.platform(), spec.platform);
    inline_->setText(QStringLiteral("12.5 GB/s"));
    emit inline_->returnPressed();
    EXPECT_TRUE(ge->problemsLabel()->text().contains(QStringLiteral("bandwidth, latency")));
    EXPECT_EQ(shown.editor.platform(), spec.platform);

    inline_->setText(QStringLiteral("12.5 GB/s, 2 us"));
    emit inline_->returnPressed();
    EXPECT_FALSE(inline_->isVisible());
    const GraphLinkSpec& edited = shown.editor.platform().graph->links[static_cast<size_t>(pick)];
    EXPECT_DOUBLE_EQ(edited.bandwidthBytesPerSecond, 12.5e9);
    EXPECT_DOUBLE_EQ(edited.latencyNs, 2000.0);
    EXPECT_EQ(shown.editor.undoStack()->count(), 1);
    EXPECT_EQ(shown.editor.undoStack()->undoText(), QStringLiteral("Change link %1").arg(pick));

    doubleClick();
    ASSERT_TRUE(inline_->isVisible());
    inline_->setText(QStringLiteral("1 GB/s, 1 ns"));
    QTest::keyClick(inline_, Qt::Key_Escape);
    EXPECT_FALSE(inline_->isVisible());
    EXPECT_DOUBLE_EQ(
        shown.editor.platform().graph->links[static_cast<size_t>(pick)].bandwidthBytesPerSecond,
        12.5e9);
    shown.editor.undoStack()->undo();
    EXPECT_EQ(shown.editor.platform(), spec.platform);
}
