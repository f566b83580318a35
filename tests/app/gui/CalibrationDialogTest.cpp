// Tools > Calibrate from nccl-tests…: a bundled public measurement fitted off the GUI thread, the
// report and chart shown, the settings applied as one undoable step; a file it cannot fit shows
// the engine's message and offers nothing to apply.
#include "gui/CalibrationDialog.h"

#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"

#include <QChartView>
#include <QSignalSpy>
#include <QUndoStack>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

struct Window {
    QTemporaryDir dir;
    std::shared_ptr<test::MemoryFiles> files = std::make_shared<test::MemoryFiles>();
    MainWindow window{test::testServices(dir, {}, files)};
    Window() {
        window.setAskBeforeDiscarding(false);
        window.newProjectFromPreset(QStringLiteral("torus-2d"));
    }
};

QString dataset(const char* name) {
    return QString::fromStdString(ASTROLABE_TEST_DATA_DIR + "/nccl-tests/" + name);
}

} // namespace

TEST(CalibrationDialog, FitsOffTheGuiThreadAndAppliesAsOneUndoStep) {
    Window w;
    ProjectDocument* document = w.window.document();
    // The preset's 50 GB/s local memory would make the reductions of an A100's 8 GiB all-reduce
    // alone slower than measured (the dialog would say so): an A100's HBM2 bandwidth instead.
    SimulationSpec a100 = document->spec();
    a100.system.localMemBandwidthGBps = 1555;
    document->reset(a100);
    CalibrationDialog dialog(document);
    EXPECT_FALSE(dialog.fit()) << "no files yet";
    dialog.addFiles({dataset("a100-oci-1node-all_reduce.txt")});
    dialog.setDimension(0);
    QSignalSpy fitted(&dialog, &CalibrationDialog::fitted);
    ASSERT_TRUE(dialog.fit());
    EXPECT_TRUE(dialog.isFitting());
    EXPECT_FALSE(dialog.fit()) << "one fit at a time";
    ASSERT_TRUE(fitted.wait(30000));
    ASSERT_TRUE(fitted.at(0).at(0).toBool()) << dialog.reportText().toStdString();
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("held out, two adjacent sizes")));
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("Settings from the last regime")));
    EXPECT_FALSE(dialog.findChild<QChartView*>()->chart()->series().isEmpty());

    const SimulationSpec before = document->spec();
    const int steps = document->undoStack()->count();
    ASSERT_TRUE(dialog.applyToProject());
    EXPECT_EQ(document->undoStack()->count(), steps + 1);
    EXPECT_NE(document->spec().platform.dimensions[0].bandwidthBytesPerSecond,
              before.platform.dimensions[0].bandwidthBytesPerSecond);
    EXPECT_EQ(document->spec().platform.dimensions[1], before.platform.dimensions[1]);
    document->undoStack()->undo();
    EXPECT_EQ(document->spec().platform.dimensions[0], before.platform.dimensions[0]);
    EXPECT_EQ(document->spec().system.endpointDelayNs, before.system.endpointDelayNs);
}

TEST(CalibrationDialog, UnfittableDataShowsTheMessageAndCannotBeApplied) {
    Window w;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two.csv"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("# collective: all_reduce\n# ranks: 8\nsize,time\n1048576,40\n2097152,60\n");
    file.close();
    CalibrationDialog dialog(w.window.document());
    dialog.addFiles({path});
    QSignalSpy fitted(&dialog, &CalibrationDialog::fitted);
    ASSERT_TRUE(dialog.fit());
    ASSERT_TRUE(fitted.wait(30000));
    EXPECT_FALSE(fitted.at(0).at(0).toBool());
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("a fit needs at least 3")))
        << dialog.reportText().toStdString();
    EXPECT_FALSE(dialog.applyToProject());
}
