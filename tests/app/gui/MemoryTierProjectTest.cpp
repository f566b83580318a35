// The memory tier edited in the Topology tab is the project's `memory:` section (#17): each edit
// is one step of the project's one history and marks the project modified; undo and redo give
// back the project YAML exactly; save and reopen give back the same tier, in the editor too.
#include "GuiTestSupport.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "project/ProjectFile.h"
#include "topology/MemoryTierPanel.h"
#include "topology/NetworkView.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyEditor.h"

#include <QAction>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

widgets::TopologyEditor* topologyEditor(MainWindow& window) {
    return window.tabs()->widget(MainWindow::TopologyTab)->findChild<widgets::TopologyEditor*>();
}

std::string yamlOf(const ProjectDocument& document, const QString& path) {
    return projectYamlText(document.spec(), path.toStdString());
}

RemoteMemoryConfig withoutSource(RemoteMemoryConfig m) {
    m.sourceFile.clear();
    return m;
}

} // namespace

TEST(MemoryTierProject, EditsAreProjectStepsUndoneToTheSameYaml) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    widgets::TopologyEditor* editor = topologyEditor(window);
    ASSERT_NE(editor, nullptr);
    ProjectDocument* document = window.document();
    const QString path = dir.filePath(QStringLiteral("memory.yaml"));
    document->saveAs(path);
    ASSERT_FALSE(document->isModified());
    ASSERT_EQ(document->spec().memory.type, RemoteMemoryType::NoMemoryExpansion);
    const std::string before = yamlOf(*document, path);
    QUndoStack* undo = document->undoStack();
    const int steps = undo->count();

    editor->addMemoryAction()->trigger();
    EXPECT_TRUE(document->isModified());
    EXPECT_EQ(undo->count(), steps + 1) << "one step, not two";
    EXPECT_EQ(document->spec().memory.type, RemoteMemoryType::PerNpuMemoryExpansion);
    const std::string added = yamlOf(*document, path);
    EXPECT_NE(added.find("memory:\n  type: per-npu\n"), std::string::npos) << added;
    EXPECT_NE(added.find("  bandwidth: 100 GB/s\n"), std::string::npos) << added;

    RemoteMemoryConfig pooled = document->spec().memory;
    pooled.type = RemoteMemoryType::Pooled;
    pooled.groups = 4;
    pooled.fabricBytesPerNs = 256;
    pooled.latencyNs = 1000;
    editor->document()->editMemory(pooled, QStringLiteral("Pooled memory"));
    EXPECT_EQ(undo->count(), steps + 2);
    EXPECT_EQ(document->spec().memory, pooled);
    const std::string edited = yamlOf(*document, path);
    EXPECT_NE(edited.find("  groups: 4\n"), std::string::npos) << edited;
    EXPECT_NE(edited.find("  fabric-bandwidth: 256 GB/s\n"), std::string::npos) << edited;
    EXPECT_EQ(editor->networkView()->memoryTier().boxes().size(), 4u);

    undo->undo();
    EXPECT_EQ(yamlOf(*document, path), added);
    undo->undo();
    EXPECT_EQ(yamlOf(*document, path), before);
    EXPECT_FALSE(document->isModified()) << "back at the saved project";
    EXPECT_FALSE(editor->networkView()->memoryTier().present()) << "the editor follows";
    undo->redo();
    undo->redo();
    EXPECT_EQ(yamlOf(*document, path), edited);
    EXPECT_EQ(editor->memory(), pooled);

    // Save, reopen: the same tier, in the project and in the editor.
    document->saveAs(path);
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    EXPECT_FALSE(editor->networkView()->memoryTier().present());
    document->load(path);
    EXPECT_EQ(withoutSource(document->spec().memory), withoutSource(pooled));
    EXPECT_EQ(withoutSource(editor->memory()), withoutSource(pooled));
    EXPECT_EQ(editor->networkView()->memoryTier().boxes().size(), 4u);
    EXPECT_EQ(yamlOf(*document, path), edited);
}

// An edit made elsewhere (the Configuration tab's memory section) shows in the drawing without a
// second history step.
TEST(MemoryTierProject, ConfigurationEditsShowInTheDrawing) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::TopologyTab);
    widgets::TopologyEditor* editor = topologyEditor(window);
    ASSERT_NE(editor, nullptr);
    const int steps = window.document()->undoStack()->count();
    RemoteMemoryConfig pool;
    pool.type = RemoteMemoryType::MemoryPool;
    pool.bandwidthBytesPerNs = 64;
    window.document()->applyEdit(
        widgets::SpecEdit{QStringLiteral("memory.type"), QStringLiteral("Shared pool"),
                          [pool](SimulationSpec& spec) { spec.memory = pool; }, false});
    EXPECT_EQ(editor->memory(), pool);
    EXPECT_EQ(editor->networkView()->memoryTier().boxes().size(), 1u);
    EXPECT_EQ(window.document()->undoStack()->count(), steps + 1)
        << "the editor shows the tier without recording a second step";
}
