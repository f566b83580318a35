#include "topology/MemoryEditCommand.h"

#include "topology/MemoryTierMath.h"
#include "topology/TopologyDocument.h"

namespace astrolabe::widgets {

MemoryEditCommand::MemoryEditCommand(TopologyDocument* document, RemoteMemoryConfig before,
                                     RemoteMemoryConfig after, const QString& text, int mergeKey)
    : SnapshotEditCommand(document, std::move(before), std::move(after), text, mergeKey) {}

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

} // namespace astrolabe::widgets
