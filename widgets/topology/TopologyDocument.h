#pragma once
// The topology editor's model: one PlatformSpec, the memory tier under its NPUs (the project's
// `memory:` section), their undo history and the selection (a dimension, or the memory tier).
// Views call the edit functions; each pushes a PlatformEditCommand or a MemoryEditCommand, so
// every edit can be undone.
// Invalid values (size 1, zero bandwidth) are kept and reported, never silently corrected: the
// student sees the red marker and fixes it.
#include "spec/MemoryConfig.h"
#include "spec/PlatformSpec.h"

#include <QObject>
#include <vector>

class QUndoStack;

namespace astrolabe::widgets {

/// Which part of a dimension an edit changes (merge keys and undo texts use it).
enum class DimensionField { Kind = 1, Size, Bandwidth, Latency };

class TopologyDocument : public QObject {
    Q_OBJECT
public:
    explicit TopologyDocument(QObject* parent = nullptr);
    /// Records edits on `sharedUndoStack` (not owned), e.g. the project's single history, so
    /// that the editor's steps interleave with the application's other edits.
    TopologyDocument(QUndoStack* sharedUndoStack, QObject* parent);

    const PlatformSpec& platform() const { return m_platform; }
    /// Replaces the platform and clears the history (loading a project starts afresh).
    void resetPlatform(const PlatformSpec& platform);
    /// Shows a platform set elsewhere (an undo of the application's history): no history.
    void showPlatform(const PlatformSpec& platform);
    QUndoStack* undoStack() const { return m_undoStack; }

    int selectedDimension() const { return m_selected; }
    /// Selecting a dimension deselects the memory tier, and selecting the tier the dimension.
    void setSelectedDimension(int dimension);

    /// The memory tier (type none: there is none).
    const RemoteMemoryConfig& memory() const { return m_memory; }
    /// Shows a tier set elsewhere (a loaded project, an undo of the application's history).
    void showMemory(const RemoteMemoryConfig& memory);
    bool memorySelected() const { return m_memorySelected; }
    /// Ignored (stays false) while there is no tier.
    void setMemorySelected(bool selected);

    // Undoable edits.
    void replacePlatform(const PlatformSpec& platform, const QString& text);
    void insertDimensions(int index, const std::vector<DimensionSpec>& dimensions);
    void removeDimension(int index);
    /// Moves dimension `from` to the gap before `insertionIndex` (0..count), as a drop does.
    void moveDimension(int from, int insertionIndex);
    void editDimension(int index, const DimensionSpec& dimension, DimensionField field);
    /// Replaces a graph platform's graph (the graph editor's edits). The logical dimensions stay
    /// when they still multiply to the NPU count and are not the default one; otherwise they
    /// become graphDimension() of the new graph. mergeKey as in PlatformEditCommand.
    void editGraph(const GraphSpec& graph, const QString& text, int mergeKey = -1);
    /// Sets a graph platform's logical dimensions (the dimensions collectives plan over) to
    /// these sizes; they must pass logicalDimensionsProblem().
    void editLogicalDimensions(const std::vector<int64_t>& sizes);
    /// Replaces the memory tier (type none removes it); mergeKey as in MemoryEditCommand.
    void editMemory(const RemoteMemoryConfig& memory, const QString& text, int mergeKey = -1);

    /// For PlatformEditCommand: sets the platform without recording history.
    void applyPlatform(const PlatformSpec& platform);
    /// For MemoryEditCommand: sets the tier without recording history.
    void applyMemory(const RemoteMemoryConfig& memory);

signals:
    void platformChanged();
    void selectionChanged(int dimension);
    void memoryChanged();
    void memorySelectionChanged(bool selected);

private:
    PlatformSpec m_platform;
    QUndoStack* m_undoStack;
    int m_selected = -1;
    RemoteMemoryConfig m_memory;
    bool m_memorySelected = false;
};

} // namespace astrolabe::widgets
