// One undo history per project: the topology editor, the configuration panels and the model
// builder record named steps on the project's QUndoStack; Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, sent
// as real key events, reach exactly one action each.
#include "GuiTestSupport.h"
#include "config/ConfigurationPanel.h"
#include "config/QuantityEdit.h"
#include "generator/ModelBuilderPanel.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "topology/DimensionRow.h"
#include "topology/GraphEditor.h"
#include "topology/GraphView.h"
#include "topology/NetworkView.h"
#include "topology/Topology.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyEditor.h"

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QMenuBar>
#include <QShortcut>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

QStringList g_warnings;
void collectWarnings(QtMsgType, const QMessageLogContext&, const QString& message) {
    g_warnings << message;
}

/// Collects Qt warnings while alive ("Ambiguous shortcut overload" is one).
struct WarningCollector {
    WarningCollector() {
        g_warnings.clear();
        m_previous = qInstallMessageHandler(collectWarnings);
    }
    ~WarningCollector() { qInstallMessageHandler(m_previous); }
    QtMessageHandler m_previous;
};

QAction* editAction(MainWindow& window, int index) {
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == QStringLiteral("&Edit"))
            return menu->menu()->actions().value(index);
    return nullptr;
}

QString plain(const QAction* action) {
    return action ? action->text().remove(QLatin1Char('&')) : QString();
}

widgets::TopologyEditor* topologyEditor(MainWindow& window) {
    return window.tabs()->widget(MainWindow::TopologyTab)->findChild<widgets::TopologyEditor*>();
}

/// Sends a key to the focused widget, as the keyboard would.
void press(Qt::Key key, Qt::KeyboardModifiers modifiers) {
    QWidget* target = QApplication::focusWidget();
    ASSERT_NE(target, nullptr);
    QTest::keyClick(target, key, modifiers);
}

/// Widgets a shortcut of this context can fire in; nullptr for the whole window.
struct ShortcutOwner {
    QString name;
    QKeySequence key;
    Qt::ShortcutContext context;
    QList<QWidget*> widgets;
};

bool overlaps(const ShortcutOwner& a, const ShortcutOwner& b) {
    const auto windowWide = [](const ShortcutOwner& o) {
        return o.context == Qt::WindowShortcut || o.context == Qt::ApplicationShortcut;
    };
    if (windowWide(a) || windowWide(b))
        return true;
    for (QWidget* x : a.widgets)
        for (QWidget* y : b.widgets)
            if (x == y || (a.context == Qt::WidgetWithChildrenShortcut && x->isAncestorOf(y)) ||
                (b.context == Qt::WidgetWithChildrenShortcut && y->isAncestorOf(x)))
                return true;
    return false;
}

/// Every action and enabled shortcut of the window with each of its key sequences.
std::vector<ShortcutOwner> shortcutOwners(MainWindow& window) {
    std::vector<ShortcutOwner> owners;
    // Disabled actions too: an action is disabled only for a while (undo with nothing to undo).
    for (QAction* action : window.findChildren<QAction*>()) {
        QList<QWidget*> widgets;
        for (QObject* o : action->associatedObjects())
            if (auto* w = qobject_cast<QWidget*>(o))
                widgets << w;
        for (const QKeySequence& key : action->shortcuts())
            owners.push_back({action->text(), key, action->shortcutContext(), widgets});
    }
    for (QShortcut* shortcut : window.findChildren<QShortcut*>())
        if (shortcut->isEnabled())
            for (const QKeySequence& key : shortcut->keys())
                owners.push_back({QStringLiteral("QShortcut %1").arg(key.toString()),
                                  key,
                                  shortcut->context(),
                                  {qobject_cast<QWidget*>(shortcut->parent())}});
    return owners;
}

} // namespace

TEST(MainWindowUndo, CtrlZUndoesTopologyStepsOneByOneWithNamedActions) {
    QTemporaryDir dir;
    auto files = std::make_shared<test::MemoryFiles>();
    MainWindow window(test::testServices(dir, {}, files));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    widgets::TopologyEditor* editor = topologyEditor(window);
    ASSERT_NE(editor, nullptr);
    EXPECT_EQ(editor->undoStack(), window.document()->undoStack()) << "one history";
    QAction* undo = editAction(window, 0);
    QAction* redo = editAction(window, 1);
    ASSERT_NE(undo, nullptr);
    ASSERT_NE(redo, nullptr);

    const size_t before = window.document()->spec().platform.dimensions.size();
    DimensionSpec ring = window.document()->spec().platform.dimensions.at(0);
    ring.kind = BlockKind::Ring;
    ring.size = 4;
    editor->document()->insertDimensions(static_cast<int>(before), {ring});
    DimensionSpec faster = editor->platform().dimensions.at(before);
    faster.bandwidthBytesPerSecond *= 2;
    editor->document()->editDimension(static_cast<int>(before), faster,
                                      widgets::DimensionField::Bandwidth);
    const PlatformSpec edited = editor->platform();
    ASSERT_EQ(window.document()->spec().platform, edited) << "editor steps reach the project";
    EXPECT_EQ(window.document()->undoStack()->count(), 2) << "one step per edit, none twice";
    EXPECT_EQ(plain(undo), QStringLiteral("Undo Change bandwidth of dimension %1").arg(before));
    EXPECT_TRUE(window.isWindowModified());

    WarningCollector warnings;
    editor->networkView()->setFocus();
    ASSERT_TRUE(test::waitUntil([] { return QApplication::focusWidget() != nullptr; }));
    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(window.document()->spec().platform.dimensions.at(before).bandwidthBytesPerSecond,
              ring.bandwidthBytesPerSecond)
        << "Ctrl+Z undid only the last step";
    EXPECT_EQ(window.document()->spec().platform.dimensions.size(), before + 1);
    EXPECT_EQ(plain(undo), QStringLiteral("Undo Add Ring dimension"));
    EXPECT_EQ(plain(redo), QStringLiteral("Redo Change bandwidth of dimension %1").arg(before));

    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(window.document()->spec().platform.dimensions.size(), before);
    EXPECT_EQ(editor->platform(), window.document()->spec().platform) << "the editor follows";
    EXPECT_FALSE(window.isWindowModified()) << "back at the opened state";
    EXPECT_EQ(window.document()->undoStack()->count(), 2) << "undo keeps the editor's steps";

    press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(window.document()->spec().platform.dimensions.size(), before + 1);
    press(Qt::Key_Y, Qt::ControlModifier);
    EXPECT_EQ(window.document()->spec().platform, edited) << "Ctrl+Y redoes too";
    EXPECT_EQ(editor->platform(), edited);
    for (const QString& w : g_warnings)
        EXPECT_FALSE(w.contains(QStringLiteral("Ambiguous"))) << w.toStdString();
    window.close();
}

// A spin box rewrites its text when Enter commits it, which empties the field's own history.
// Committed, Ctrl+Z undoes the project step; half-typed, it first takes the typing back.
TEST(MainWindowUndo, CtrlZInANumberFieldUndoesTheCommittedValue) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    const auto rows = window.findChildren<widgets::DimensionRow*>();
    ASSERT_FALSE(rows.empty());
    QDoubleSpinBox* field = rows.front()->bandwidthSpin();
    const auto bandwidth = [&] {
        return window.document()->spec().platform.dimensions.at(0).bandwidthBytesPerSecond;
    };
    const double before = bandwidth();
    const QString shown = field->text();
    field->setFocus();
    ASSERT_TRUE(test::waitUntil([&] { return field->hasFocus(); }));
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("80"));
    QTest::keyClick(field, Qt::Key_Return);
    ASSERT_NE(bandwidth(), before) << "Enter committed the value";
    ASSERT_TRUE(field->hasFocus());

    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(bandwidth(), before) << "Ctrl+Z in the field undid the project step";
    EXPECT_EQ(field->text(), shown);
    press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_NE(bandwidth(), before) << "and Ctrl+Shift+Z redoes it";

    const int steps = window.document()->undoStack()->index();
    const QString committed = field->text();
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("7"));
    ASSERT_NE(field->text(), committed);
    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(field->text(), committed) << "the typing is taken back in the field first";
    EXPECT_EQ(window.document()->undoStack()->index(), steps) << "and the project is untouched";
    window.close();
}

TEST(MainWindowUndo, ConfigurationAndModelBuilderEditsShareTheHistory) {
    QTemporaryDir dir;
    auto files = std::make_shared<test::MemoryFiles>();
    MainWindow window(test::testServices(dir, {}, files));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    QUndoStack* stack = window.document()->undoStack();
    QAction* undo = editAction(window, 0);

    // A topology step, then a configuration field typed digit by digit (one step).
    widgets::TopologyEditor* editor = topologyEditor(window);
    editor->document()->removeDimension(0);
    const PlatformSpec platform = window.document()->spec().platform;
    window.tabs()->setCurrentIndex(MainWindow::ConfigurationTab);
    auto* endpoint = qobject_cast<widgets::QuantityEdit*>(
        window.configurationPanel()->editorForKey(QStringLiteral("endpoint-delay")));
    ASSERT_NE(endpoint, nullptr);
    const double delay = window.document()->spec().system.endpointDelayNs;
    endpoint->numberEdit()->selectAll();
    QTest::keyClicks(endpoint->numberEdit(), QStringLiteral("250"));
    EXPECT_EQ(window.document()->spec().system.endpointDelayNs, 250);
    EXPECT_EQ(stack->count(), 2) << "typing \"250\" is one step after the topology step";
    EXPECT_TRUE(plain(undo).startsWith(QStringLiteral("Undo "))) << plain(undo).toStdString();
    EXPECT_GT(plain(undo).size(), QStringLiteral("Undo ").size());

    // Ctrl+Z from outside a text field: the configuration edit goes, the topology step stays.
    window.tabs()->tabBar()->setFocus();
    ASSERT_TRUE(test::waitUntil([] { return QApplication::focusWidget() != nullptr; }));
    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(window.document()->spec().system.endpointDelayNs, delay);
    EXPECT_TRUE(endpoint->text().startsWith(QString::number(delay) + QLatin1Char(' ')))
        << "the form follows undo: " << endpoint->text().toStdString();
    EXPECT_EQ(window.document()->spec().platform, platform);
    EXPECT_EQ(plain(undo), QStringLiteral("Undo Remove dimension 0"));
    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(editor->platform().dimensions.size(), platform.dimensions.size() + 1);
    press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(window.document()->spec().system.endpointDelayNs, 250);
    EXPECT_EQ(window.document()->spec().platform, platform);

    // The model builder: a field stepped three times is one named step.
    window.tabs()->setCurrentIndex(MainWindow::WorkloadTab);
    auto* layers = window.modelBuilder()->findChild<QSpinBox*>();
    ASSERT_NE(layers, nullptr);
    const int count = stack->count();
    const generate::GeneratorSpec original = window.modelBuilder()->spec();
    const int value = layers->value();
    layers->setFocus();
    for (int i = 0; i < 3; ++i)
        layers->stepUp();
    EXPECT_EQ(stack->count(), count + 1);
    EXPECT_TRUE(plain(undo).endsWith(QStringLiteral("in the model builder")))
        << plain(undo).toStdString();
    window.tabs()->tabBar()->setFocus();
    ASSERT_TRUE(test::waitUntil([] { return QApplication::focusWidget() != nullptr; }));
    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(layers->value(), value);
    EXPECT_EQ(window.modelBuilder()->spec().model.layers, original.model.layers);
    press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(layers->value(), value + 3);
    window.close();
}

TEST(MainWindowUndo, NoTwoShortcutsOfTheWindowCanFireTogether) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    const std::vector<ShortcutOwner> owners = shortcutOwners(window);
    int undoOwners = 0, redoOwners = 0, redoYOwners = 0;
    for (size_t i = 0; i < owners.size(); ++i) {
        undoOwners += owners[i].key == QKeySequence(Qt::CTRL | Qt::Key_Z);
        redoOwners += owners[i].key == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);
        redoYOwners += owners[i].key == QKeySequence(Qt::CTRL | Qt::Key_Y);
        for (size_t j = i + 1; j < owners.size(); ++j) {
            if (owners[i].key != owners[j].key)
                continue;
            EXPECT_FALSE(overlaps(owners[i], owners[j]))
                << owners[i].key.toString().toStdString() << ": \"" << owners[i].name.toStdString()
                << "\" and \"" << owners[j].name.toStdString() << "\"";
        }
    }
    EXPECT_EQ(undoOwners, 1);
    EXPECT_EQ(redoOwners, 1);
    EXPECT_EQ(redoYOwners, 1);
    window.close();
}

// A graph platform: "Edit as graph" and graph edits are single steps of the project's history,
// copied into the project; Ctrl+Z in the graph drawing undoes them back to the opened stack.
TEST(MainWindowUndo, EditAsGraphAndGraphEditsAreProjectStepsUndoneByCtrlZ) {
    QTemporaryDir dir;
    auto files = std::make_shared<test::MemoryFiles>();
    MainWindow window(test::testServices(dir, {}, files));
    window.setAskBeforeDiscarding(false);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    widgets::TopologyEditor* editor = topologyEditor(window);
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
