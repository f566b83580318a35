#pragma once
// An edit of the memory tier under the NPUs (the project's `memory:` section): the tier before
// and after, applied to the TopologyDocument on redo/undo, as PlatformEditCommand does for the
// dimensions. Consecutive edits of one field merge within 1.5 s (a number being typed).
#include "spec/MemoryConfig.h"
#include "topology/SnapshotEditCommand.h"

namespace astrolabe::widgets {

class MemoryEditCommand : public SnapshotEditCommand<RemoteMemoryConfig, 0x70702> {
public:
    /// mergeKey >= 0 merges with the next edit of the same key; -1 never merges.
    MemoryEditCommand(TopologyDocument* document, RemoteMemoryConfig before,
                      RemoteMemoryConfig after, const QString& text, int mergeKey = -1);

    void redo() override;
    void undo() override;
};

} // namespace astrolabe::widgets
