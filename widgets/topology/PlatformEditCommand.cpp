#include "topology/PlatformEditCommand.h"

#include "topology/TopologyDocument.h"

namespace astrolabe::widgets {

namespace {
constexpr int kPlatformEditId = 0x70701;
}

PlatformEditCommand::PlatformEditCommand(TopologyDocument* document, PlatformSpec before,
                                         PlatformSpec after, const QString& text, int mergeKey,
                                         int selectAfter)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeKey(mergeKey)
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

int PlatformEditCommand::id() const {
    return m_mergeKey >= 0 ? kPlatformEditId : -1;
}

bool PlatformEditCommand::mergeWith(const QUndoCommand* other) {
    const auto* edit = static_cast<const PlatformEditCommand*>(other);
    if (edit->m_mergeKey != m_mergeKey)
        return false;
    m_after = edit->m_after;
    setObsolete(m_after.dimensions == m_before.dimensions);
    return true;
}

} // namespace astrolabe::widgets
