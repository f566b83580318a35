// The topology document's undo steps (SnapshotEditCommand.h): edits of one field in quick
// succession are one step, a merge back to where it began leaves none, and the platform's and
// the memory tier's steps never merge with each other.
#include "topology/MemoryEditCommand.h"
#include "topology/PlatformEditCommand.h"
#include "topology/TopologyDocument.h"

#include <QTest>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace astrolabe::widgets {
namespace {

PlatformSpec ring(int npus) {
    PlatformSpec p;
    DimensionSpec d;
    d.size = npus;
    p.dimensions = {d};
    return p;
}

RemoteMemoryConfig memory(uint64_t bandwidth) {
    RemoteMemoryConfig m;
    m.type = RemoteMemoryType::PerNpuMemoryExpansion;
    m.bandwidthBytesPerNs = bandwidth;
    return m;
}

TEST(SnapshotEditCommand, EditsOfOneFieldMergeAndAMergeBackToTheStartLeavesNoStep) {
    TopologyDocument document;
    document.resetPlatform(ring(4));
    QUndoStack* undo = document.undoStack();
    // A spin box stepped 4 -> 5 -> 6: one step, undone to 4 at once.
    undo->push(new PlatformEditCommand(&document, ring(4), ring(5), QStringLiteral("Size"), 7));
    undo->push(new PlatformEditCommand(&document, ring(5), ring(6), QStringLiteral("Size"), 7));
    EXPECT_EQ(undo->count(), 1);
    EXPECT_EQ(document.platform().dimensions[0].size, 6);
    undo->undo();
    EXPECT_EQ(document.platform().dimensions[0].size, 4);
    undo->redo();
    // Stepped back to 4 within the window: the merged step changes nothing and goes.
    undo->push(new PlatformEditCommand(&document, ring(6), ring(4), QStringLiteral("Size"), 7));
    EXPECT_EQ(undo->count(), 0);
    EXPECT_EQ(document.platform().dimensions[0].size, 4);
}

TEST(SnapshotEditCommand, OtherKeysNoKeyAndLateEditsAreStepsOfTheirOwn) {
    TopologyDocument document;
    document.resetPlatform(ring(4));
    QUndoStack* undo = document.undoStack();
    undo->push(new PlatformEditCommand(&document, ring(4), ring(5), QStringLiteral("Size"), 1));
    undo->push(new PlatformEditCommand(&document, ring(5), ring(6), QStringLiteral("Size"), 2));
    EXPECT_EQ(undo->count(), 2) << "another field";
    undo->push(new PlatformEditCommand(&document, ring(6), ring(7), QStringLiteral("Size")));
    undo->push(new PlatformEditCommand(&document, ring(7), ring(8), QStringLiteral("Size")));
    EXPECT_EQ(undo->count(), 4) << "no merge key";
    // The memory tier's edit with the same key as a platform edit: a different kind of step.
    undo->push(new PlatformEditCommand(&document, ring(8), ring(9), QStringLiteral("Size"), 3));
    undo->push(new MemoryEditCommand(&document, RemoteMemoryConfig{}, memory(100),
                                     QStringLiteral("Memory"), 3));
    EXPECT_EQ(undo->count(), 6);
    // The same field again after the 1.5 s window: a new step.
    undo->push(
        new MemoryEditCommand(&document, memory(100), memory(200), QStringLiteral("Memory"), 3));
    EXPECT_EQ(undo->count(), 6);
    QTest::qWait(static_cast<int>(MemoryEditCommand::kMergeWindowMs) + 100);
    undo->push(
        new MemoryEditCommand(&document, memory(200), memory(300), QStringLiteral("Memory"), 3));
    EXPECT_EQ(undo->count(), 7);
    EXPECT_EQ(document.memory().bandwidthBytesPerNs, 300u);
    undo->undo();
    EXPECT_EQ(document.memory().bandwidthBytesPerNs, 200u);
    undo->undo();
    EXPECT_EQ(document.memory().type, RemoteMemoryType::NoMemoryExpansion);
    EXPECT_EQ(document.platform().dimensions[0].size, 9);
}

} // namespace
} // namespace astrolabe::widgets
