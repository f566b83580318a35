#include "topology/MemoryEditCommand.h"

#include "topology/MemoryTierMath.h"
#include "topology/TopologyDocument.h"

namespace astrolabe::widgets {

namespace {
constexpr int kMemoryEditId = 0x70702;
constexpr qint64 kMergeWindowMs = 1500; // as PlatformEditCommand's
} // namespace

MemoryEditCommand::MemoryEditCommand(TopologyDocument* document, RemoteMemoryConfig before,
                                     RemoteMemoryConfig after, const QString& text, int mergeKey)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeKey(mergeKey) {
    m_lastEdit.start();
}

void MemoryEditCommand::redo() {
    m_document->applyMemory(m_after);
    // Adding a tier selects it, so that its settings show; removing it clears the selection.
    m_document->setMemorySelected(hasMemoryTier(m_after) && !hasMemoryTier(m_before)
                                      ? true
                                      : m_document->memorySelected() && hasMemoryTier(m_after));
}

void MemoryEditCommand::undo() {
    m_document->applyMemory(m_before);
    if (!hasMemoryTier(m_before))
        m_document->setMemorySelected(false);
}

int MemoryEditCommand::id() const {
    return m_mergeKey >= 0 ? kMemoryEditId : -1;
}

bool MemoryEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* edit = static_cast<const MemoryEditCommand*>(other);
    if (edit->m_mergeKey != m_mergeKey || m_lastEdit.elapsed() > kMergeWindowMs)
        return false;
    m_after = edit->m_after;
    m_lastEdit.restart();
    setObsolete(m_after == m_before);
    return true;
}

} // namespace astrolabe::widgets
