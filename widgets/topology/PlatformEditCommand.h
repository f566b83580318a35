#pragma once
// Every edit of the topology editor is one of these: the platform before and after, applied to
// the document on redo/undo. A platform is a handful of dimensions, so whole snapshots are
// cheaper to get right than one command class per kind of edit.
#include "config/PlatformSpec.h"

#include <QElapsedTimer>
#include <QUndoCommand>

namespace astrolabe::widgets {

class TopologyDocument;

class PlatformEditCommand : public QUndoCommand {
public:
    /// mergeKey >= 0 merges consecutive edits with the same key made within 1.5 s of each other
    /// (a spin box stepped ten times is one undo step); -1 never merges.
    PlatformEditCommand(TopologyDocument* document, PlatformSpec before, PlatformSpec after,
                        const QString& text, int mergeKey = -1, int selectAfter = -1);

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    TopologyDocument* m_document;
    PlatformSpec m_before;
    PlatformSpec m_after;
    int m_mergeKey;
    int m_selectBefore;
    int m_selectAfter;
    QElapsedTimer m_lastEdit;
};

} // namespace astrolabe::widgets
