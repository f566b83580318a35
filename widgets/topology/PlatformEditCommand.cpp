#include "topology/PlatformEditCommand.h"

#include "topology/TopologyDocument.h"

namespace astrolabe::widgets {

PlatformEditCommand::PlatformEditCommand(TopologyDocument* document, PlatformSpec before,
                                         PlatformSpec after, const QString& text, int mergeKey,
                                         int selectAfter)
    : SnapshotEditCommand(document, std::move(before), std::move(after), text, mergeKey)
    , m_selectBefore(document->selectedDimension())
    , m_selectAfter(selectAfter) {}

void PlatformEditCommand::redo() {
    m_document->applyPlatform(m_after);
    if (m_selectAfter >= 0)
        m_document->setSelectedDimension(m_selectAfter);
}

void PlatformEditCommand::undo() {
    m_document->applyPlatform(m_before);
    m_document->setSelectedDimension(m_selectBefore);
}

} // namespace astrolabe::widgets
