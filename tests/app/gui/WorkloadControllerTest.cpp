// The workload controller without a window: model builder edits are steps of the project's
// undo history, the builder refits to the project's NPU count, and a generated run is refused
// (with a message that names both counts) when the counts differ.
#include "gui/WorkloadController.h"

#include "GuiTestSupport.h"
#include "common/LogModel.h"
#include "generator/ModelBuilderPanel.h"
#include "gui/Presets.h"
#include "gui/ProjectController.h"
#include "gui/ProjectDocument.h"
#include "gui/RunSession.h"
#include "gui/RunStoreController.h"

#include <QSignalSpy>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;
using namespace std::chrono_literals;

namespace {
struct Workload {
    Workload()
        : runner(test::busyRun(20ms))
        , store([](const QString&) { return std::make_unique<InMemoryRunStore>(); }, &log)
        , session(&runner, &document, &store, &log)
        , project(&document, &log)
        , controller(&panel, &project, &session) {}
    widgets::LogModel log;
    ProjectDocument document{defaultProjectIo()};
    RunController runner;
    RunStoreController store;
    RunSession session;
    ProjectController project;
    widgets::ModelBuilderPanel panel;
    WorkloadController controller;
};
} // namespace

TEST(WorkloadController, BuilderEditsAreUndoStepsOfTheProject) {
    Workload w;
    ASSERT_TRUE(w.project.newFromPreset(QStringLiteral("quickstart")));
    const int npus = w.document.spec().platform.npuCount();
    EXPECT_EQ(w.panel.platformNpus(), npus) << "fitted to the project when it opened";
    EXPECT_EQ(w.document.undoStack()->count(), 0) << "the fit is not an edit";

    const generate::GeneratorSpec before = w.panel.spec();
    generate::GeneratorSpec edited = before;
    edited.model.layers = before.model.layers + 3;
    w.panel.setSpec(edited);
    emit w.panel.fieldEdited(QStringLiteral("Layers (transformer blocks)"));
    ASSERT_EQ(w.document.undoStack()->count(), 1);
    EXPECT_EQ(w.document.undoStack()->undoText(),
              QStringLiteral("Change Layers in the model builder"));

    w.document.undoStack()->undo();
    EXPECT_EQ(w.panel.spec().model.layers, before.model.layers);
    w.document.undoStack()->redo();
    EXPECT_EQ(w.panel.spec().model.layers, before.model.layers + 3);
}

TEST(WorkloadController, RefusesAGeneratedRunWithoutAProjectOrWithOtherNpuCounts) {
    Workload w;
    QSignalSpy errors(&w.controller, &WorkloadController::errorOccurred);
    EXPECT_EQ(w.controller.startGeneratedRun(w.panel.spec()), 0);
    ASSERT_EQ(errors.count(), 1);
    EXPECT_TRUE(errors.at(0).at(1).toString().contains(QStringLiteral("project first")));

    ASSERT_TRUE(w.project.newFromPreset(QStringLiteral("quickstart")));
    const int npus = w.document.spec().platform.npuCount();
    generate::GeneratorSpec tooBig = w.panel.spec();
    tooBig.parallel.tp = 1;
    tooBig.parallel.pp = 1;
    tooBig.parallel.dp = npus * 2;
    EXPECT_EQ(w.controller.startGeneratedRun(tooBig), 0);
    ASSERT_EQ(errors.count(), 2);
    const QString message = errors.at(1).at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("%1 NPUs").arg(npus * 2))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("%1 NPUs").arg(npus))) << message.toStdString();
    EXPECT_EQ(w.session.pendingCount(), 0) << "nothing queued";
    EXPECT_FALSE(w.runner.isBusy());
}

// After Generate and Run the Configuration tab said "Changed since last run: Workload, Trace
// prefix" with neither changed (issue #53, Researcher 6): the generated trace is the run's, not
// a setting of the project, so the baseline the tab compares with is the project as it was.
TEST(WorkloadController, AGeneratedRunLeavesTheProjectsSettingsUnchangedSinceIt) {
    Workload w;
    ASSERT_TRUE(w.project.newFromPreset(QStringLiteral("quickstart")));
    QSignalSpy finished(&w.document, &ProjectDocument::lastRunChanged);
    ASSERT_GT(w.controller.startGeneratedRun(w.panel.spec()), 0);
    ASSERT_TRUE(test::waitUntil([&] { return !finished.isEmpty(); }, 10000));
    const SimulationSpec* last = w.document.lastRunSpec();
    ASSERT_NE(last, nullptr);
    EXPECT_EQ(last->workload.kind, w.document.spec().workload.kind);
    EXPECT_EQ(last->workload.tracePrefix, w.document.spec().workload.tracePrefix);
    EXPECT_EQ(last->system, w.document.spec().system);
    EXPECT_EQ(last->platform, w.document.spec().platform);
}

// The Workload tab's generator takes the project's accelerator (`platform.accelerator`, issue
// #46): a project of B200s shows B200's datasheet figures in the builder (2250 TFLOP/s dense
// BF16, 8000 GB/s HBM) without an undo step of its own; the user's own choice then stays
// through project changes that leave the accelerator alone, and a project naming another one
// takes over again.
TEST(WorkloadController, TheBuilderTakesTheProjectsAccelerator) {
    Workload w;
    ASSERT_TRUE(w.project.newFromPreset(QStringLiteral("quickstart")));
    ASSERT_TRUE(w.document.spec().platform.accelerator.empty());
    EXPECT_EQ(w.panel.accelerator(), QString()) << "no accelerator named: the preset's figures";

    SimulationSpec b200 = w.document.spec();
    b200.platform.accelerator = "b200";
    w.document.reset(b200);
    EXPECT_EQ(w.panel.accelerator(), QStringLiteral("b200"));
    EXPECT_DOUBLE_EQ(w.panel.spec().compute.peakTflops, 2250);
    EXPECT_DOUBLE_EQ(w.panel.spec().compute.hbmGBps, 8000);
    EXPECT_EQ(w.document.undoStack()->count(), 0) << "following the project is not an edit";

    ASSERT_TRUE(w.panel.setAccelerator(QStringLiteral("h100"))); // the user's choice
    EXPECT_EQ(w.document.undoStack()->count(), 1);
    w.document.replaceSpec(w.document.spec()); // the project changes, its accelerator does not
    EXPECT_EQ(w.panel.accelerator(), QStringLiteral("h100"));
    EXPECT_DOUBLE_EQ(w.panel.spec().compute.peakTflops, 989.5);

    SimulationSpec a100 = w.document.spec();
    a100.platform.accelerator = "a100-80gb";
    w.document.reset(a100);
    EXPECT_EQ(w.panel.accelerator(), QStringLiteral("a100-80gb"));
    EXPECT_DOUBLE_EQ(w.panel.spec().compute.peakTflops, 312);
    EXPECT_DOUBLE_EQ(w.panel.spec().compute.hbmGBps, 2039);
}
