#pragma once
// The "Topology" tab: a palette of building blocks, the dimension stack they are dropped on, the
// drawing of the resulting network and its live figures, with presets, undo/redo, copy/paste,
// shortcuts and context menus. The model is an astrolabe::PlatformSpec and the memory tier
// under its NPUs (a RemoteMemoryConfig, the project's `memory:` section).
//
// Embedding: `auto* editor = new TopologyEditor; editor->setPlatform(spec);` then listen to
// platformChanged() and read platform(); likewise setMemory(), memoryChanged(), memory().
// Standalone, the editor keeps its own undo stack and its undo/redo actions own Ctrl+Z /
// Ctrl+Shift+Z inside it. Embedded in an application that has one history for everything, pass that
// stack: the editor's steps go there, and its undo/redo buttons carry no shortcuts (the
// application's Edit menu owns them; two owners would be ambiguous).
#include "spec/MemoryConfig.h"
#include "spec/PlatformSpec.h"

#include <QWidget>

class QAction;
class QBoxLayout;
class QComboBox;
class QStackedWidget;
class QUndoStack;

namespace astrolabe::widgets {

class BlockPalette;
class GraphEditor;
class DimensionStack;
class MemoryTierPanel;
class NetworkView;
class TopologyDocument;
class TopologyFigures;

class TopologyEditor : public QWidget {
    Q_OBJECT
public:
    explicit TopologyEditor(QWidget* parent = nullptr);
    /// Records every edit on `sharedUndoStack` (not owned); see the file comment.
    TopologyEditor(QUndoStack* sharedUndoStack, QWidget* parent);

    const PlatformSpec& platform() const;
    /// Replaces the platform and clears the undo history (a loaded project starts afresh).
    void setPlatform(const PlatformSpec& platform);
    /// Shows a platform changed elsewhere (undo of the shared history) without touching history.
    void showPlatform(const PlatformSpec& platform);
    const RemoteMemoryConfig& memory() const;
    /// Shows a memory tier set elsewhere (a loaded project, an undo of the shared history)
    /// without touching history; type none shows none.
    void setMemory(const RemoteMemoryConfig& memory);
    /// "Add memory tier": per-NPU memory at 100 GB/s (withMemoryDefaults), one undoable step;
    /// the new tier is selected, so that its settings show.
    void addMemoryTier();
    /// "Remove memory tier": the tier becomes type none, one undoable step.
    void removeMemoryTier();
    MemoryTierPanel* memoryPanel() const { return m_memoryPanel; }
    QAction* addMemoryAction() const { return m_addMemory; }
    QAction* removeMemoryAction() const { return m_removeMemory; }

    /// Replaces the platform by a named preset as one undoable edit; false if unknown.
    bool applyPreset(const QString& name);

    /// ASTRA-sim network YAML of the current platform; empty with *error set when invalid.
    QString astraNetworkYaml(QString* error = nullptr) const;

    QUndoStack* undoStack() const;
    TopologyDocument* document() const { return m_document; }
    BlockPalette* palette() const { return m_palette; }
    DimensionStack* dimensionStack() const { return m_stack; }
    NetworkView* networkView() const { return m_view; }
    TopologyFigures* figures() const { return m_figures; }
    QComboBox* presetCombo() const { return m_presets; }
    /// The page shown instead of the stack when the platform is a graph.
    GraphEditor* graphEditor() const { return m_graphEditor; }
    QAction* editAsGraphAction() const { return m_editAsGraph; }

    /// "Edit as graph": the dimension stack becomes the same network as a graph platform
    /// (stackAsGraph(): same devices, links and logical dimensions), one undoable step.
    void editAsGraph();

    void copySelectedDimension();
    void pasteDimension();
    void removeSelectedDimension();
    void moveSelectedDimension(int delta);

signals:
    void platformChanged();
    /// The memory tier changed (an edit, or an undo or redo of one).
    void memoryChanged();
    /// "Sweep this setting…" on a dimension's size, bandwidth or latency (the stack's menu):
    /// keyPath "platform.dimensions.<i>.bandwidth", its label and its value as the project
    /// file writes it.
    void sweepRequested(const QString& keyPath, const QString& label, const QString& current);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// The two tool bars side by side when they fit, else one above the other.
    void reflowToolBars();
    void setUp(bool ownsShortcuts);
    void createActions(bool ownsUndoShortcuts);
    QWidget* createLeftPanel();
    void onPlatformChanged();
    void onMemoryChanged();
    void showStackMenu(QPoint globalPos);
    void copyYamlToClipboard();

    TopologyDocument* m_document;
    BlockPalette* m_palette;
    DimensionStack* m_stack;
    NetworkView* m_view;
    TopologyFigures* m_figures;
    QComboBox* m_presets;
    GraphEditor* m_graphEditor;
    QStackedWidget* m_pages = nullptr;
    QAction* m_editAsGraph = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_delete = nullptr;
    QAction* m_copy = nullptr;
    QAction* m_paste = nullptr;
    QAction* m_moveUp = nullptr;
    QAction* m_moveDown = nullptr;
    QAction* m_copyYaml = nullptr;
    QAction* m_fit = nullptr;
    QAction* m_addMemory = nullptr;
    QAction* m_removeMemory = nullptr;
    MemoryTierPanel* m_memoryPanel = nullptr;
    QBoxLayout* m_toolBars = nullptr;
};

} // namespace astrolabe::widgets
