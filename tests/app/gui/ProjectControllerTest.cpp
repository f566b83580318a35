// The project controller without a window: new, open, save and import through an in-memory
// ProjectIo; the dirty state follows edits, saves and undo; the prompts before losing changes.
#include "gui/ProjectController.h"

#include "GuiTestSupport.h"
#include "common/LogModel.h"
#include "gui/ProjectDocument.h"

#include <QSignalSpy>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {
using Choice = ProjectController::DiscardChoice;

widgets::SpecEdit setSplits(int splits) {
    return {QStringLiteral("system.chunks"), QStringLiteral("Set chunks"),
            [splits](SimulationSpec& s) { s.system.preferredDatasetSplits = splits; }, false};
}

struct Fixture {
    std::shared_ptr<test::MemoryFiles> files = std::make_shared<test::MemoryFiles>();
    widgets::LogModel log;
    ProjectDocument document{test::memoryIo(files)};
    ProjectController project{&document, &log};
};
} // namespace

TEST(ProjectController, EditMarksDirtySaveMarksCleanUndoRestores) {
    Fixture f;
    QSignalSpy opened(&f.project, &ProjectController::projectOpened);
    EXPECT_EQ(f.project.windowTitle(), QStringLiteral("Astrolabe"));
    ASSERT_TRUE(f.project.newFromPreset(QStringLiteral("quickstart")));
    ASSERT_EQ(opened.count(), 1);
    EXPECT_EQ(opened.at(0).at(0).toString(), QString()) << "an unsaved project: no database";
    EXPECT_TRUE(f.project.hasProject());
    EXPECT_FALSE(f.document.isModified());
    EXPECT_TRUE(f.project.windowTitle().contains(QStringLiteral("(not saved)[*]")));
    const int presetSplits = f.document.spec().system.preferredDatasetSplits;

    f.document.applyEdit(setSplits(presetSplits + 5));
    EXPECT_TRUE(f.document.isModified());

    // Saving a project without a path asks for one; the answer is where it goes.
    QStringList asked;
    f.project.setPrompts({{}, [&](const QString& suggested) {
                              asked << suggested;
                              return QStringLiteral("/p/quick.yaml");
                          }});
    QSignalSpy saved(&f.project, &ProjectController::saved);
    QSignalSpy used(&f.project, &ProjectController::fileUsed);
    ASSERT_TRUE(f.project.save());
    ASSERT_EQ(asked.size(), 1);
    EXPECT_TRUE(asked.first().endsWith(QStringLiteral(".yaml")));
    EXPECT_FALSE(f.document.isModified());
    ASSERT_EQ(saved.count(), 1);
    EXPECT_EQ(saved.at(0).at(0).toString(), QStringLiteral("/p/quick.yaml"));
    EXPECT_EQ(used.count(), 1);
    EXPECT_EQ(f.files->files.at("/p/quick.yaml").system.preferredDatasetSplits, presetSplits + 5);
    EXPECT_TRUE(f.project.windowTitle().contains(QStringLiteral("(quick.yaml)[*]")));

    // Undo after the save: the edit is gone and the project differs from its file again.
    f.document.undoStack()->undo();
    EXPECT_EQ(f.document.spec().system.preferredDatasetSplits, presetSplits);
    EXPECT_TRUE(f.document.isModified());
    // A second save does not ask: the project has a path now.
    ASSERT_TRUE(f.project.save());
    EXPECT_EQ(asked.size(), 1);
    EXPECT_EQ(f.files->saves, 2);
    EXPECT_FALSE(f.document.isModified());
}

TEST(ProjectController, AsksBeforeDroppingChangesAndHonoursTheAnswer) {
    Fixture f;
    ASSERT_TRUE(f.project.newFromPreset(QStringLiteral("quickstart")));
    f.document.applyEdit(setSplits(13));
    Choice answer = Choice::Cancel;
    int asked = 0;
    f.project.setPrompts({[&](const QString&) {
                              ++asked;
                              return answer;
                          },
                          [](const QString&) { return QString(); }}); // "save as" cancelled

    EXPECT_FALSE(f.project.newFromPreset(QStringLiteral("hgx-h100")));
    EXPECT_EQ(asked, 1);
    EXPECT_EQ(f.document.spec().system.preferredDatasetSplits, 13) << "cancel keeps the project";

    answer = Choice::Save; // ...but the save is cancelled too: still nothing replaced
    EXPECT_FALSE(f.project.newFromPreset(QStringLiteral("hgx-h100")));
    EXPECT_EQ(f.document.spec().system.preferredDatasetSplits, 13);
    EXPECT_EQ(f.files->saves, 0);

    f.project.setAskBeforeDiscarding(false); // scripted use: no question
    EXPECT_TRUE(f.project.maybeDiscard());
    f.project.setAskBeforeDiscarding(true);
    answer = Choice::Discard;
    EXPECT_TRUE(f.project.newFromPreset(QStringLiteral("hgx-h100")));
    EXPECT_EQ(asked, 3);
    EXPECT_NE(f.document.spec().system.preferredDatasetSplits, 13);
    EXPECT_FALSE(f.document.isModified());
    EXPECT_TRUE(f.project.maybeDiscard()) << "nothing unsaved: no question";
    EXPECT_EQ(asked, 3);
}

TEST(ProjectController, OpenReportsErrorsAndOpensThroughTheIo) {
    Fixture f;
    QSignalSpy errors(&f.project, &ProjectController::errorOccurred);
    QSignalSpy opened(&f.project, &ProjectController::projectOpened);
    EXPECT_FALSE(f.project.open(QStringLiteral("/nowhere.yaml")));
    ASSERT_EQ(errors.count(), 1);
    EXPECT_EQ(errors.at(0).at(0).toString(), QStringLiteral("Open Project"));
    EXPECT_TRUE(errors.at(0).at(1).toString().contains(QStringLiteral("no such file")));
    EXPECT_FALSE(f.project.hasProject());
    EXPECT_EQ(opened.count(), 0);

    ASSERT_TRUE(f.project.newFromPreset(QStringLiteral("quickstart")));
    ASSERT_TRUE(f.project.saveAs(QStringLiteral("/p/a.yaml")));
    f.document.applyEdit(setSplits(21));
    ASSERT_TRUE(f.project.saveAs(QStringLiteral("/p/b.yaml")));
    ASSERT_TRUE(f.project.open(QStringLiteral("/p/a.yaml")));
    EXPECT_EQ(opened.last().at(0).toString(), QStringLiteral("/p/a.yaml"));
    EXPECT_EQ(f.document.path(), QStringLiteral("/p/a.yaml"));
    EXPECT_NE(f.document.spec().system.preferredDatasetSplits, 21);
    EXPECT_EQ(f.document.undoStack()->count(), 0) << "a new history per project";

    EXPECT_FALSE(f.project.importAstra({}));
    EXPECT_EQ(errors.last().at(0).toString(), QStringLiteral("Import ASTRA-sim Configuration"));
    EXPECT_EQ(f.document.path(), QStringLiteral("/p/a.yaml")) << "a failed import changes nothing";
}

// A project's warnings (a key that does nothing) are said where a window user sees them: a
// warning row of the log each, and the first in the status bar.
TEST(ProjectController, OpenShowsTheProjectsWarnings) {
    Fixture f;
    ASSERT_TRUE(f.project.newFromPreset(QStringLiteral("quickstart")));
    ASSERT_TRUE(f.project.saveAs(QStringLiteral("/p/m.yaml")));
    f.files->warnings["/p/m.yaml"] =
        "/p/m.yaml:11:3: memory.groups: ignored: memory type per-npu does not read it";
    QSignalSpy status(&f.project, &ProjectController::statusMessage);
    const int rowsBefore = f.log.rowCount();
    ASSERT_TRUE(f.project.open(QStringLiteral("/p/m.yaml")));
    int warningRows = 0;
    for (int row = rowsBefore; row < f.log.rowCount(); ++row)
        if (f.log.data(f.log.index(row), widgets::LogModel::SeverityRole).toInt() ==
            int(widgets::LogModel::Severity::Warning)) {
            ++warningRows;
            EXPECT_TRUE(f.log.data(f.log.index(row))
                            .toString()
                            .contains(QStringLiteral("memory.groups: ignored")));
        }
    EXPECT_EQ(warningRows, 1);
    ASSERT_GE(status.count(), 1);
    EXPECT_TRUE(status.last().at(0).toString().contains(
        QStringLiteral("Opened with 1 warning, in the Log: /p/m.yaml:11:3: memory.groups")))
        << status.last().at(0).toString().toStdString();
}

// A value typed back as it was is no step: nothing to undo, nothing unsaved, no question when
// another project is opened.
TEST(ProjectController, AnEditThatChangesNothingIsNoStep) {
    Fixture f;
    ASSERT_TRUE(f.project.newFromPreset(QStringLiteral("quickstart")));
    const int splits = f.document.spec().system.preferredDatasetSplits;
    f.document.applyEdit(setSplits(splits));
    EXPECT_EQ(f.document.undoStack()->count(), 0);
    EXPECT_FALSE(f.document.isModified());
    f.document.applyEdit(setSplits(splits + 1));
    f.document.applyEdit(setSplits(splits));
    EXPECT_EQ(f.document.undoStack()->count(), 2) << "a change, and its change back";
}
