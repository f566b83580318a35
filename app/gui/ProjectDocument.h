#pragma once
// The open project: one SimulationSpec, where it lives on disk, its undo history and the spec
// of the last run (for "changed since the last run" marks). Reading and writing files goes
// through ProjectIo, so the document does not know the file format.

#include "config/SpecEdit.h"
#include "gui/ProjectIo.h"

#include <QObject>
#include <QStringList>
#include <optional>

class QUndoStack;

namespace astrolabe::gui {

class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(ProjectIo io, QObject* parent = nullptr);

    const SimulationSpec& spec() const { return m_spec; }
    /// Empty for a project never saved.
    const QString& path() const { return m_path; }
    /// The project's name, or "Untitled".
    QString displayName() const;
    bool isModified() const;
    QUndoStack* undoStack() const { return m_undo; }

    /// Starts over with this spec (a preset or an import): clears the undo history. A spec
    /// that never was saved counts as modified when `modified` is true.
    void reset(const SimulationSpec& spec, const QString& path = {}, bool modified = false);
    /// Reads a project and returns its warnings (keys that do nothing, and the like). Throws
    /// astrolabe::Error (the document is unchanged then).
    QStringList load(const QString& path);
    /// Writes the project to `path` and makes it the document's path. Throws astrolabe::Error.
    void saveAs(const QString& path);
    /// Imports ASTRA-sim files as a new, unsaved project. Throws astrolabe::Error.
    void importAstra(const AstraImportRequest& request);

    /// Applies a panel's edit as one undoable step; one that changes nothing is no step.
    void applyEdit(const widgets::SpecEdit& edit);
    /// Applies an edit whose step is already on undoStack() (the topology editor records its own
    /// named steps there): no second history entry.
    void applyRecordedEdit(const widgets::SpecEdit& edit);
    /// Used by undo/redo: replaces the spec without recording history.
    void replaceSpec(const SimulationSpec& spec);

    /// Records `spec` as the last run's settings.
    void setLastRunSpec(const SimulationSpec& spec);
    const SimulationSpec* lastRunSpec() const { return m_lastRun ? &*m_lastRun : nullptr; }

signals:
    void specChanged();
    void pathChanged();
    void modifiedChanged(bool modified);
    void lastRunChanged();

private:
    void setModifiedWithoutHistory(bool modified);

    ProjectIo m_io;
    SimulationSpec m_spec;
    QString m_path;
    QUndoStack* m_undo;
    bool m_unsavedFromStart = false; ///< a new or imported project not yet saved
    std::optional<SimulationSpec> m_lastRun;
};

} // namespace astrolabe::gui
