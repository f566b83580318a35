#pragma once
// An undo step that holds one part of the topology document whole, before and after the edit
// (the platform's dimensions, the memory tier): both are small, so snapshots are cheaper to get
// right than one command class per kind of edit. Subclasses apply a snapshot on redo/undo.
// Consecutive edits with the same merge key made within 1.5 s of each other merge (a spin box
// stepped ten times, a number being typed, is one undo step); setting the same field again
// later is a new step, and a merge that ends where it began leaves no step at all.
#include <QElapsedTimer>
#include <QUndoCommand>
#include <utility>

namespace astrolabe::widgets {

class TopologyDocument;

/// Snapshot: the part of the document edited; Id: the QUndoCommand::id() of mergeable edits,
/// one per Snapshot type.
template <typename Snapshot, int Id> class SnapshotEditCommand : public QUndoCommand {
public:
    static constexpr qint64 kMergeWindowMs = 1500;

    int id() const override { return m_mergeKey >= 0 ? Id : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        // Same id, so the same Snapshot type (QUndoStack merges only commands of equal id).
        const auto* edit = static_cast<const SnapshotEditCommand*>(other);
        if (edit->m_mergeKey != m_mergeKey || m_lastEdit.elapsed() > kMergeWindowMs)
            return false;
        m_after = edit->m_after;
        m_lastEdit.restart();
        setObsolete(m_after == m_before);
        return true;
    }

protected:
    /// mergeKey >= 0 merges with the next edit of the same key; -1 never merges.
    SnapshotEditCommand(TopologyDocument* document, Snapshot before, Snapshot after,
                        const QString& text, int mergeKey)
        : QUndoCommand(text)
        , m_document(document)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_mergeKey(mergeKey) {
        m_lastEdit.start();
    }

    TopologyDocument* m_document;
    Snapshot m_before;
    Snapshot m_after;

private:
    int m_mergeKey;
    QElapsedTimer m_lastEdit;
};

} // namespace astrolabe::widgets
