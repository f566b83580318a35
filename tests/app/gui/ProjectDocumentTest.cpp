// The project document: undoable edits (typing merges into one step), the modified state, and
// files through the pluggable ProjectIo.
#include "gui/ProjectDocument.h"

#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/Presets.h"
#include "project/ProjectFile.h"

#include <QSignalSpy>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {
widgets::SpecEdit setSplits(int splits, bool mergeable = true) {
    return {QStringLiteral("system.chunks"), QStringLiteral("Set chunks"),
            [splits](SimulationSpec& s) { s.system.preferredDatasetSplits = splits; }, mergeable};
}
} // namespace

TEST(ProjectDocument, EditsUndoRedoAndMergeWhileTyping) {
    ProjectDocument doc(defaultProjectIo());
    doc.reset(preset(QStringLiteral("quickstart")).spec);
    EXPECT_FALSE(doc.isModified());
    QSignalSpy modified(&doc, &ProjectDocument::modifiedChanged);

    doc.applyEdit(setSplits(1));
    doc.applyEdit(setSplits(16)); // same field typed on: one undo step
    EXPECT_EQ(doc.spec().system.preferredDatasetSplits, 16);
    EXPECT_EQ(doc.undoStack()->count(), 1);
    EXPECT_TRUE(doc.isModified());
    EXPECT_GE(modified.count(), 1);

    doc.applyEdit({QStringLiteral("system.scheduling"), QStringLiteral("Set scheduling"),
                   [](SimulationSpec& s) { s.system.schedulingPolicy = SchedulingPolicy::FIFO; },
                   false});
    EXPECT_EQ(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    EXPECT_EQ(doc.spec().system.schedulingPolicy, SchedulingPolicy::LIFO);
    doc.undoStack()->undo();
    EXPECT_EQ(doc.spec().system.preferredDatasetSplits, 4) << "back to the preset's value";
    EXPECT_FALSE(doc.isModified());
    doc.undoStack()->redo();
    EXPECT_EQ(doc.spec().system.preferredDatasetSplits, 16);
    EXPECT_TRUE(doc.isModified());
}

TEST(ProjectDocument, SaveMarksCleanAndLoadReadsThroughTheIo) {
    auto files = std::make_shared<test::MemoryFiles>();
    ProjectDocument doc(test::memoryIo(files));
    doc.reset(preset(QStringLiteral("hgx-h100")).spec, {}, true);
    EXPECT_TRUE(doc.isModified()) << "a new project is unsaved";
    doc.applyEdit(setSplits(8));
    doc.saveAs(QStringLiteral("/p/h100.yaml"));
    EXPECT_FALSE(doc.isModified());
    EXPECT_EQ(files->saves, 1);
    EXPECT_EQ(files->files.at("/p/h100.yaml").system.preferredDatasetSplits, 8);
    EXPECT_EQ(doc.path(), QStringLiteral("/p/h100.yaml"));

    ProjectDocument other(test::memoryIo(files));
    other.load(QStringLiteral("/p/h100.yaml"));
    EXPECT_EQ(other.spec().system.preferredDatasetSplits, 8);
    EXPECT_EQ(other.spec().platform.npuCount(), 8);
    EXPECT_FALSE(other.isModified());
    EXPECT_THROW(other.load(QStringLiteral("/p/missing.yaml")), Error);
    EXPECT_EQ(other.path(), QStringLiteral("/p/h100.yaml")) << "a failed load changes nothing";
}

TEST(ProjectDocument, DefaultIoUsesTheEngineLoaders) {
    ProjectDocument doc(defaultProjectIo());
    try {
        doc.load(QStringLiteral("/nowhere/project.yaml"));
        FAIL() << "a missing file must not load";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/nowhere/project.yaml"), std::string::npos);
    }
    doc.load(QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml"));
    EXPECT_EQ(doc.spec().name, "Quick start");
    EXPECT_EQ(doc.spec().platform.npuCount(), 8);
}

TEST(Presets, QuickStartIsTheBundledProject) {
    // The wizard's quick start and projects/quickstart must be the same run (117,780 ns).
    SimulationSpec file = loadProject(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml");
    SimulationSpec preset = gui::preset(QStringLiteral("quickstart")).spec;
    file.platform.sourceFile = preset.platform.sourceFile = {};
    file.system.sourceFile = preset.system.sourceFile = {};
    EXPECT_TRUE(file.platform == preset.platform);
    EXPECT_EQ(file.system.schedulingPolicy, preset.system.schedulingPolicy);
    EXPECT_EQ(file.system.collectiveOptimization, preset.system.collectiveOptimization);
    EXPECT_EQ(file.system.preferredDatasetSplits, preset.system.preferredDatasetSplits);
    EXPECT_EQ(file.system.endpointDelayNs, preset.system.endpointDelayNs);
    EXPECT_EQ(file.system.localMemBandwidthGBps, preset.system.localMemBandwidthGBps);
    EXPECT_EQ(file.system.allReduce, preset.system.allReduce);
    EXPECT_EQ(file.workload.microbenchmark.sizeBytes, preset.workload.microbenchmark.sizeBytes);
}

TEST(Presets, MatchTheirDescriptions) {
    const SimulationSpec quick = preset(QStringLiteral("quickstart")).spec;
    EXPECT_EQ(quick.platform.npuCount(), 8);
    ASSERT_EQ(quick.platform.dimensions.size(), 1u);
    EXPECT_EQ(quick.platform.dimensions[0].kind, BlockKind::Ring);
    EXPECT_DOUBLE_EQ(quick.platform.dimensions[0].bandwidthBytesPerSecond, 50.0 * (1 << 30));
    EXPECT_EQ(quick.workload.kind, WorkloadSource::Kind::Microbenchmark);
    EXPECT_EQ(quick.workload.microbenchmark.sizeBytes, 1u << 20);
    EXPECT_EQ(quick.workload.microbenchmark.collective, 0);
    const SimulationSpec hgx = preset(QStringLiteral("hgx-h100")).spec;
    EXPECT_EQ(hgx.platform.dimensions[0].kind, BlockKind::Switch);
    EXPECT_EQ(hgx.platform.npuCount(), 8);
    EXPECT_DOUBLE_EQ(hgx.platform.dimensions[0].latencyNs, 936.25);
    const SimulationSpec torus = preset(QStringLiteral("torus-2d")).spec;
    EXPECT_EQ(torus.platform.npuCount(), 16);
    EXPECT_EQ(torus.system.allReduce.size(), 2u) << "one algorithm per dimension";
    EXPECT_THROW(preset(QStringLiteral("nope")), Error);
}
