#pragma once
// Every edit of the topology editor's dimensions is one of these: the platform before and after,
// applied to the document on redo/undo, with the dimension selected before and after.
#include "spec/PlatformSpec.h"
#include "topology/SnapshotEditCommand.h"

namespace astrolabe::widgets {

class PlatformEditCommand : public SnapshotEditCommand<PlatformSpec, 0x70701> {
public:
    /// mergeKey >= 0 merges consecutive edits with the same key made within 1.5 s of each other
    /// (a spin box stepped ten times is one undo step); -1 never merges.
    PlatformEditCommand(TopologyDocument* document, PlatformSpec before, PlatformSpec after,
                        const QString& text, int mergeKey = -1, int selectAfter = -1);

    void redo() override;
    void undo() override;

private:
    int m_selectBefore;
    int m_selectAfter;
};

} // namespace astrolabe::widgets
