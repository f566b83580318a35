#include "topology/PlatformEditCommand.h"

#include "topology/TopologyDocument.h"

namespace astrolabe::widgets {

namespace {
constexpr int kPlatformEditId = 0x70701;
// Edits of one field merge only while they come in quick succession (a spin box being stepped
// or dragged); setting the same field again later is a new undo step.
constexpr qint64 kMergeWindowMs = 1500;
} // namespace

PlatformEditCommand::PlatformEditCommand(TopologyDocument* document, PlatformSpec before,
                                         PlatformSpec after, const QString& text, int mergeKey,
                                         int selectAfter)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeKey(mergeKey)
    , m_selectBefore(document->selectedDimension())
    , m_selectAfter(selectAfter) {
    m_lastEdit.start();
}

void PlatformEditCommand::redo() {
    m_document->applyPlatform(m_after);
    if (m_selectAfter >= 0)
        m_document->setSelectedDimension(m_selectAfter);
}

void PlatformEditCommand::undo() {
    m_document->applyPlatform(m_before);
    m_document->setSelectedDimension(m_selectBefore);
}

int PlatformEditCommand::id() const {
    return m_mergeKey >= 0 ? kPlatformEditId : -1;
}

bool PlatformEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* edit = static_cast<const PlatformEditCommand*>(other);
    if (edit->m_mergeKey != m_mergeKey || m_lastEdit.elapsed() > kMergeWindowMs)
        return false;
    m_after = edit->m_after;
    m_lastEdit.restart();
    setObsolete(m_after == m_before);
    return true;
}

} // namespace astrolabe::widgets
