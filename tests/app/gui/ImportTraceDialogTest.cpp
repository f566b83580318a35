// File > Import Trace… (issue #45, item 4): a trace as real jobs write it is read off the GUI
// thread, what was read and assumed is shown, and "Use as Workload and Run" writes the traces
// beside the project, sets the workload as one undoable step and runs it: DeepSeek's measured
// DeepSeek-V3 chunk pair replays within 2 % of its measured span (docs/real-traces.md: 1.57 %).
#include "gui/ImportTraceDialog.h"

#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/RunStore.h"
#include "gui/RunsTableModel.h"

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

bool readAndWait(ImportTraceDialog& dialog, const QString& path) {
    QSignalSpy finished(&dialog, &ImportTraceDialog::readFinished);
    if (!dialog.read(path) || !finished.wait(60000))
        return false;
    return finished.at(0).at(0).toBool();
}

} // namespace

TEST(ImportTraceDialog, DeepSeekProfileBecomesTheWorkloadAndReplaysItsMeasuredSpan) {
    QTemporaryDir dir;
    const auto opened = gui::test::openQuickStartWindow(dir);
    ASSERT_NE(opened, nullptr);
    MainWindow& window = *opened;
    ProjectDocument* document = window.document();

    ImportTraceDialog dialog(document);
    QObject::connect(&dialog, &ImportTraceDialog::runRequested, &window,
                     [&window] { window.startRun(); });
    const QString trace =
        QString::fromStdString(ASTROLABE_TEST_DATA_DIR + "/deepseek-v3-train-gpu0.json");
    ASSERT_TRUE(readAndWait(dialog, trace)) << dialog.reportText().toStdString();
    const QString report = dialog.reportText();
    EXPECT_TRUE(report.startsWith(QStringLiteral("PyTorch profiler trace")))
        << report.toStdString();
    EXPECT_TRUE(report.contains(QStringLiteral("measured span of GPU")));
    EXPECT_TRUE(report.contains(QStringLiteral("expert-all-to-all: 16")));
    EXPECT_TRUE(report.contains(QStringLiteral("The trace has one rank and the platform")))
        << report.toStdString();
    EXPECT_TRUE(report.contains(QStringLiteral("system.replay-only")));
    dialog.resize(900, 560);
    gui::test::saveScreenshot(dialog, QStringLiteral("import-trace-deepseek.png"));

    const int steps = document->undoStack()->count();
    QSignalSpy stored(&window, &MainWindow::runStored);
    QSignalSpy imported(&dialog, &ImportTraceDialog::imported);
    ASSERT_TRUE(dialog.useAsWorkload()) << dialog.reportText().toStdString();
    ASSERT_EQ(imported.count(), 1);
    const QString logged = imported.at(0).at(0).toString();
    EXPECT_TRUE(logged.startsWith(QStringLiteral("Imported deepseek-v3-train-gpu0.json as the "
                                                 "workload, replaying its measured durations")))
        << logged.toStdString();
    EXPECT_TRUE(logged.contains(QStringLiteral("Edit > Undo"))) << logged.toStdString();
    EXPECT_EQ(document->undoStack()->count(), steps + 1);
    for (int rank = 0; rank < 8; ++rank)
        EXPECT_TRUE(std::filesystem::exists(dialog.writtenPrefix().toStdString() + "." +
                                            std::to_string(rank) + ".et"))
            << rank;
    EXPECT_EQ(QString::fromStdString(document->spec().workload.tracePrefix),
              dialog.writtenPrefix());
    EXPECT_TRUE(dialog.writtenPrefix().endsWith(QStringLiteral("traces/deepseek-v3-train-gpu0")));
    EXPECT_TRUE(document->spec().system.replayOnly);

    ASSERT_TRUE(stored.count() > 0 || stored.wait(60000));
    const gui::RunRecord& run = window.runsModel()->store()->at(0);
    ASSERT_EQ(run.status, gui::RunStatus::Finished);
    constexpr double kMeasuredSpanUs = 129'012; // first kernel start to last kernel end, GPU 0
    const double simulatedUs = run.simulatedTime.us();
    // Stream lanes, the measured cross-stream orders and the host's launch timeline
    // (docs/real-traces.md): 128,574.001 us, -0.34 %, within the 1 % of issue #45.
    EXPECT_NEAR(simulatedUs / kMeasuredSpanUs, 1.0, 0.01) << simulatedUs << " us";
    EXPECT_NEAR(simulatedUs, 128'574.001, 0.0005);
    std::printf("DeepSeek chunk pair replayed: %.0f us against %.0f us measured (%+.2f %%)\n",
                simulatedUs, kMeasuredSpanUs, 100.0 * (simulatedUs / kMeasuredSpanUs - 1));

    document->undoStack()->undo();
    EXPECT_FALSE(document->spec().system.replayOnly);
    EXPECT_NE(QString::fromStdString(document->spec().workload.tracePrefix),
              dialog.writtenPrefix());
}

TEST(ImportTraceDialog, ConvertedChakraTraceListsWhatWasAssumed) {
    const std::filesystem::path et =
        std::filesystem::path(ASTROLABE_SHARED_DIR) / "reference" / "real-traces" / "chakra.0.et";
    if (!std::filesystem::exists(et))
        GTEST_SKIP() << "../shared is not beside this checkout";
    QTemporaryDir dir;
    MainWindow window(gui::test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    ImportTraceDialog dialog(window.document());
    ASSERT_TRUE(readAndWait(dialog, QString::fromStdString(et.string())))
        << dialog.reportText().toStdString();
    EXPECT_TRUE(dialog.reportText().startsWith(QStringLiteral("Chakra ET")));
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("1 rank, 3664 nodes")))
        << dialog.reportText().toStdString();
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("assumed: absent-parent")));
    EXPECT_FALSE(dialog.useAsWorkload()) << "an unsaved project has no folder to write into";
}

TEST(ImportTraceDialog, PyTorchExecutionTraceIsRefusedWithTheConverterNamed) {
    QTemporaryDir dir;
    MainWindow window(gui::test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    const QString path = dir.filePath(QStringLiteral("et.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"schema": "1.0.3-chakra.0.0.4", "pid": 7, "time": "2023", "nodes": []})");
    file.close();
    ImportTraceDialog dialog(window.document());
    EXPECT_FALSE(readAndWait(dialog, path));
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("PyTorch execution trace")))
        << dialog.reportText().toStdString();
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("chakra_converter")));
    EXPECT_FALSE(dialog.useAsWorkload());
}

// Two files chosen at once, the profiler trace first: the public simple-add pair (tests/data)
// is linked, used as the workload and run. Its host operators run one after another for their
// own time, 19,814,157 us in all (the duration of "[param|cuda]", which holds them all), and
// the last kernel (3 us) follows the last operator: 19,814,160 us on every NPU.
TEST(ImportTraceDialog, ExecutionTraceWithItsProfilerTraceIsLinkedAndRuns) {
    QTemporaryDir dir;
    const auto opened = gui::test::openQuickStartWindow(dir);
    ASSERT_NE(opened, nullptr);
    MainWindow& window = *opened;
    ImportTraceDialog dialog(window.document());
    QObject::connect(&dialog, &ImportTraceDialog::runRequested, &window,
                     [&window] { window.startRun(); });
    const QString et =
        QString::fromStdString(ASTROLABE_TEST_DATA_DIR + "/pytorch-simple-add-et.json");
    const QString profile =
        QString::fromStdString(ASTROLABE_TEST_DATA_DIR + "/pytorch-simple-add-kineto.json");
    QSignalSpy finished(&dialog, &ImportTraceDialog::readFinished);
    ASSERT_TRUE(dialog.readPair(profile, et));
    ASSERT_TRUE(finished.wait(60000));
    ASSERT_TRUE(finished.at(0).at(0).toBool()) << dialog.reportText().toStdString();
    const QString report = dialog.reportText();
    EXPECT_TRUE(report.startsWith(QStringLiteral("PyTorch execution trace + profiler trace")))
        << report.toStdString();
    EXPECT_TRUE(report.contains(QStringLiteral("36 operators linked"))) << report.toStdString();

    QSignalSpy stored(&window, &MainWindow::runStored);
    ASSERT_TRUE(dialog.useAsWorkload()) << dialog.reportText().toStdString();
    EXPECT_TRUE(
        dialog.writtenPrefix().endsWith(QStringLiteral("traces/pytorch-simple-add-kineto")));
    EXPECT_FALSE(window.document()->spec().system.replayOnly) << "no communication to size";
    ASSERT_TRUE(stored.count() > 0 || stored.wait(60000));
    const gui::RunRecord& run = window.runsModel()->store()->at(0);
    ASSERT_EQ(run.status, gui::RunStatus::Finished);
    EXPECT_EQ(run.simulatedTime.ps(), 19'814'160'000'000);

    EXPECT_TRUE(dialog.readPair(profile, profile));
    finished.clear();
    ASSERT_TRUE(finished.wait(60000));
    EXPECT_FALSE(finished.at(0).at(0).toBool());
    EXPECT_TRUE(
        dialog.reportText().contains(QStringLiteral("neither file is a PyTorch execution trace")))
        << dialog.reportText().toStdString();
}

// The path box is a field: a path typed or pasted there is read on Enter (the box was
// read-only, yet looked editable and took no input).
TEST(ImportTraceDialog, APathTypedInTheBoxIsReadOnEnter) {
    QTemporaryDir dir;
    const auto opened = gui::test::openQuickStartWindow(dir);
    ASSERT_NE(opened, nullptr);
    MainWindow& window = *opened;
    ImportTraceDialog dialog(window.document());
    auto* box = dialog.findChild<QLineEdit*>();
    ASSERT_NE(box, nullptr);
    EXPECT_FALSE(box->isReadOnly());
    QSignalSpy finished(&dialog, &ImportTraceDialog::readFinished);
    box->setText(QString::fromStdString(ASTROLABE_TEST_DATA_DIR + "/pytorch-nccl-comms.json"));
    QTest::keyClick(box, Qt::Key_Return);
    ASSERT_TRUE(finished.count() == 1 || finished.wait(60000));
    EXPECT_TRUE(finished.at(0).at(0).toBool()) << dialog.reportText().toStdString();
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("sized from record_param_comms")))
        << dialog.reportText().toStdString();
}
