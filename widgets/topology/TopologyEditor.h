#pragma once
// The "Topology" tab: a palette of building blocks, the dimension stack they are dropped on, the
// drawing of the resulting network and its live figures, with presets, undo/redo, copy/paste,
// shortcuts and context menus. The model is an astrolabe::PlatformSpec.
//
// Embedding: `auto* editor = new TopologyEditor; editor->setPlatform(spec);` then listen to
// platformChanged() and read platform(). The undo stack can be added to a QUndoGroup.
#include "config/PlatformSpec.h"

#include <QWidget>

class QAction;
class QComboBox;
class QUndoStack;

namespace astrolabe::widgets {

class BlockPalette;
class DimensionStack;
class NetworkView;
class TopologyDocument;
class TopologyFigures;

class TopologyEditor : public QWidget {
    Q_OBJECT
public:
    explicit TopologyEditor(QWidget* parent = nullptr);

    const PlatformSpec& platform() const;
    /// Replaces the platform and clears the undo history (a loaded project starts afresh).
    void setPlatform(const PlatformSpec& platform);
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

    void copySelectedDimension();
    void pasteDimension();
    void removeSelectedDimension();
    void moveSelectedDimension(int delta);

signals:
    void platformChanged();

private:
    void createActions();
    QWidget* createLeftPanel();
    void onPlatformChanged();
    void showStackMenu(QPoint globalPos);
    void copyYamlToClipboard();

    TopologyDocument* m_document;
    BlockPalette* m_palette;
    DimensionStack* m_stack;
    NetworkView* m_view;
    TopologyFigures* m_figures;
    QComboBox* m_presets;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_delete = nullptr;
    QAction* m_copy = nullptr;
    QAction* m_paste = nullptr;
    QAction* m_moveUp = nullptr;
    QAction* m_moveDown = nullptr;
    QAction* m_copyYaml = nullptr;
    QAction* m_fit = nullptr;
};

} // namespace astrolabe::widgets
