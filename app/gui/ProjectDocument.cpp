#include "gui/ProjectDocument.h"

#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

namespace astrolabe::gui {

namespace {

// One edit: keeps the whole spec before and after. A spec is a few kilobytes, and snapshots make
// undo exact whatever the edit touched (an edit may change several fields at once).
class SpecEditCommand : public QUndoCommand {
public:
    SpecEditCommand(ProjectDocument* doc, const widgets::SpecEdit& edit, SimulationSpec before,
                    SimulationSpec after)
        : QUndoCommand(edit.description)
        , m_doc(doc)
        , m_key(edit.keyPath)
        , m_mergeable(edit.mergeable)
        , m_before(std::move(before))
        , m_after(std::move(after)) {}

    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = static_cast<const SpecEditCommand*>(other);
        if (!m_mergeable || !o->m_mergeable || o->m_key != m_key)
            return false;
        m_after = o->m_after; // typing "1", "10", "100 ns" into one field is one step
        setText(o->text());
        return true;
    }
    void undo() override { m_doc->replaceSpec(m_before); }
    void redo() override { m_doc->replaceSpec(m_after); }

private:
    ProjectDocument* m_doc;
    QString m_key;
    bool m_mergeable;
    SimulationSpec m_before;
    SimulationSpec m_after;
};

} // namespace

ProjectDocument::ProjectDocument(ProjectIo io, QObject* parent)
    : QObject(parent)
    , m_io(std::move(io))
    , m_undo(new QUndoStack(this)) {
    connect(m_undo, &QUndoStack::cleanChanged, this,
            [this] { emit modifiedChanged(isModified()); });
}

QString ProjectDocument::displayName() const {
    if (!m_spec.name.empty())
        return QString::fromStdString(m_spec.name);
    if (!m_path.isEmpty())
        return QFileInfo(m_path).completeBaseName();
    return tr("Untitled");
}

bool ProjectDocument::isModified() const {
    return m_unsavedFromStart || !m_undo->isClean();
}

void ProjectDocument::setModifiedWithoutHistory(bool modified) {
    const bool before = isModified();
    m_unsavedFromStart = modified;
    if (before != isModified())
        emit modifiedChanged(isModified());
}

void ProjectDocument::reset(const SimulationSpec& spec, const QString& path, bool modified) {
    m_undo->clear();
    m_spec = spec;
    m_path = path;
    m_lastRun.reset();
    setModifiedWithoutHistory(modified);
    emit pathChanged();
    emit specChanged();
    emit lastRunChanged();
    emit modifiedChanged(isModified());
}

QStringList ProjectDocument::load(const QString& path) {
    std::vector<std::string> warnings;
    SimulationSpec spec = m_io.load(path.toStdString(), &warnings);
    spec.sourceFile = path.toStdString();
    reset(spec, path, false);
    QStringList out;
    for (const std::string& w : warnings)
        out << QString::fromStdString(w);
    return out;
}

void ProjectDocument::saveAs(const QString& path) {
    m_io.save(m_spec, path.toStdString());
    const bool moved = path != m_path;
    m_path = path;
    m_undo->setClean();
    setModifiedWithoutHistory(false);
    if (moved)
        emit pathChanged();
}

void ProjectDocument::importAstra(const AstraImportRequest& request) {
    reset(m_io.importAstra(request), {}, true);
}

void ProjectDocument::applyEdit(const widgets::SpecEdit& edit) {
    SimulationSpec after = m_spec;
    edit.apply(after);
    // A value typed back as it was changes nothing: no step to undo, and nothing unsaved.
    if (after == m_spec)
        return;
    m_undo->push(new SpecEditCommand(this, edit, m_spec, std::move(after)));
}

void ProjectDocument::applyRecordedEdit(const widgets::SpecEdit& edit) {
    SimulationSpec after = m_spec;
    edit.apply(after);
    replaceSpec(after);
}

void ProjectDocument::replaceSpec(const SimulationSpec& spec) {
    m_spec = spec;
    emit specChanged();
}

void ProjectDocument::setLastRunSpec(const SimulationSpec& spec) {
    m_lastRun = spec;
    emit lastRunChanged();
}

} // namespace astrolabe::gui
