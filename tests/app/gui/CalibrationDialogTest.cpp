// Tools > Calibrate from nccl-tests…: a bundled public measurement fitted off the GUI thread, the
// report and chart shown, the settings applied as one undoable step; a file it cannot fit shows
// the engine's message and offers nothing to apply.
#include "gui/CalibrationDialog.h"

#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "cli/Commands.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"

#include <QChartView>
#include <QImage>
#include <QSignalSpy>
#include <QUndoStack>
#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>

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
    /// The project with an A100's HBM2 bandwidth: the preset's 50 GB/s local memory would make
    /// the reductions of an A100's 8 GiB all-reduce alone slower than measured (the dialog
    /// would say so).
    ProjectDocument* withA100Memory() {
        ProjectDocument* document = window.document();
        SimulationSpec a100 = document->spec();
        a100.system.localMemBandwidthGBps = 1555;
        document->reset(a100);
        return document;
    }
};

QString dataset(const char* name) {
    return QString::fromStdString(ASTROLABE_TEST_DATA_DIR + "/nccl-tests/" + name);
}

/// The calibration chart drawn as PNG (app/png), looked at as an image: the size the SVG gives
/// at twice its scale, a white page, the first collective's colour where its dots and line are,
/// and dark title text at the top (the fonts were found).
void expectChartImage(const QString& path) {
    const QImage image(path);
    ASSERT_FALSE(image.isNull()) << path.toStdString();
    EXPECT_EQ(image.size(), QSize(1520, 960));
    EXPECT_EQ(image.pixelColor(2, 2), QColor(Qt::white));
    // #1f77b4, the first series' colour (engine/calibrate/CalibrationPlot.cpp), within a margin
    // for antialiasing; text: every channel below 100, in the title band above the plot.
    int series = 0, title = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - 0x1f) < 24 && std::abs(c.green() - 0x77) < 24 &&
                std::abs(c.blue() - 0xb4) < 24)
                ++series;
            if (y < 80 && c.red() < 100 && c.green() < 100 && c.blue() < 100)
                ++title;
        }
    EXPECT_GT(series, 2000) << "the series' dots and line are missing";
    EXPECT_GT(title, 200) << "the title's text is missing (no font?)";
}

/// The A100 node's sweep fitted in the dialog.
void fitA100(CalibrationDialog& dialog) {
    QSignalSpy fitted(&dialog, &CalibrationDialog::fitted);
    dialog.addFiles({dataset("a100-oci-1node-all_reduce.txt")});
    ASSERT_TRUE(dialog.fit());
    ASSERT_TRUE(fitted.wait(30000));
    ASSERT_TRUE(fitted.at(0).at(0).toBool()) << dialog.reportText().toStdString();
}

} // namespace

TEST(CalibrationDialog, FitsOffTheGuiThreadAndAppliesAsOneUndoStep) {
    Window w;
    ProjectDocument* document = w.withA100Memory();
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
    QSignalSpy applied(&dialog, &CalibrationDialog::applied);
    ASSERT_TRUE(dialog.applyToProject());
    EXPECT_EQ(document->undoStack()->count(), steps + 1);
    // The window says what it did (the status line, and the log through `applied`).
    ASSERT_EQ(applied.count(), 1);
    EXPECT_TRUE(applied.at(0).at(0).toString().contains(QStringLiteral("platform.dimensions[0]")))
        << applied.at(0).at(0).toString().toStdString();
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("Edit > Undo")))
        << dialog.statusText().toStdString();
    EXPECT_NE(document->spec().platform.dimensions[0].bandwidthBytesPerSecond,
              before.platform.dimensions[0].bandwidthBytesPerSecond);
    EXPECT_EQ(document->spec().platform.dimensions[1], before.platform.dimensions[1]);
    document->undoStack()->undo();
    EXPECT_EQ(document->spec().platform.dimensions[0], before.platform.dimensions[0]);
    EXPECT_EQ(document->spec().system.endpointDelayNs, before.system.endpointDelayNs);
}

// Runs that do not match the project are said before the numbers: a 16-rank run on 8 NPUs, and
// files of two different GPUs, at the top of the report and in the status line. The fit applies
// once; another dimension has its own notes and can take it again.
TEST(CalibrationDialog, RunsThatDoNotMatchTheProjectAreSaidFirstAndApplyOnce) {
    Window w;
    ProjectDocument* document = w.withA100Memory();
    CalibrationDialog dialog(document);
    dialog.addFiles(
        {dataset("a100-oci-1node-all_reduce.txt"), dataset("h100-k8s-2node-all_reduce.txt")});
    dialog.setDimension(0);
    QSignalSpy fitted(&dialog, &CalibrationDialog::fitted);
    ASSERT_TRUE(dialog.fit());
    ASSERT_TRUE(fitted.wait(30000));
    ASSERT_TRUE(fitted.at(0).at(0).toBool()) << dialog.reportText().toStdString();
    const QString report = dialog.reportText();
    EXPECT_TRUE(report.startsWith(QStringLiteral("Note: ")));
    EXPECT_TRUE(report.contains(QStringLiteral("h100-k8s-2node-all_reduce.txt ran on 16 ranks; "
                                               "dimension 0 has 4 NPUs")));
    EXPECT_TRUE(report.contains(QStringLiteral("a100-oci-1node-all_reduce.txt ran on 8 ranks")));
    EXPECT_TRUE(report.contains(QStringLiteral(
        "measured on different GPUs (NVIDIA A100-SXM4-40GB, NVIDIA H100 80GB HBM3)")))
        << report.toStdString();
    EXPECT_TRUE(dialog.statusText().startsWith(
        QStringLiteral("Fitted, but check the 3 notes at the top of the report first")))
        << dialog.statusText().toStdString();

    const int steps = document->undoStack()->count();
    ASSERT_TRUE(dialog.applyToProject());
    EXPECT_FALSE(dialog.applyToProject()) << "a second press would stack the same step";
    EXPECT_EQ(document->undoStack()->count(), steps + 1);
    dialog.setDimension(1);
    EXPECT_TRUE(dialog.reportText().contains(QStringLiteral("dimension 1 has 4 NPUs")));
    EXPECT_TRUE(dialog.applyToProject()) << "another dimension takes it";
    EXPECT_EQ(document->undoStack()->count(), steps + 2);
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
    // Said where it is seen, as a failure, and no chart of anything stands beside it.
    EXPECT_TRUE(dialog.statusText().startsWith(QStringLiteral("The fit failed: ")))
        << dialog.statusText().toStdString();
    EXPECT_TRUE(dialog.statusText().contains(QStringLiteral("two.csv")))
        << dialog.statusText().toStdString();
    EXPECT_TRUE(dialog.findChild<QChartView*>()->chart()->series().isEmpty());
    EXPECT_FALSE(dialog.applyToProject());
}

// `calibrate --plot fit.png`: the command-line program opens astrolabe-svg-png.so for it.
TEST(CalibrationDialog, TheCommandLinesPngChartShowsTheSeriesAndItsText) {
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("fit.png"));
    std::ostringstream out, err;
    ASSERT_EQ(cli::runCli({"calibrate", "nccl-tests",
                           dataset("a100-oci-1node-all_reduce.txt").toStdString(), "--project",
                           ASTROLABE_SOURCE_DIR + "/projects/hgx-h100/project.yaml", "--dry-run",
                           "--plot", png.toStdString()},
                          out, err),
              0)
        << err.str();
    expectChartImage(png);
}

TEST(CalibrationDialog, SavesTheChartOfTheFitAsSvgOrPng) {
    Window w;
    ProjectDocument* document = w.withA100Memory();
    CalibrationDialog dialog(document);
    QTemporaryDir dir;
    QString error;
    EXPECT_FALSE(dialog.saveChart(dir.filePath(QStringLiteral("early.svg")), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("Fit first"))) << error.toStdString();
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("early.svg"))));

    fitA100(dialog);
    ASSERT_FALSE(HasFatalFailure());
    const QString svg = dir.filePath(QStringLiteral("chart.svg"));
    ASSERT_TRUE(dialog.saveChart(svg, &error)) << error.toStdString();
    QFile text(svg);
    ASSERT_TRUE(text.open(QIODevice::ReadOnly));
    const QByteArray chart = text.readAll();
    EXPECT_TRUE(chart.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    EXPECT_TRUE(chart.contains("all_reduce (8 ranks)"));
    const QString png = dir.filePath(QStringLiteral("chart.png"));
    ASSERT_TRUE(dialog.saveChart(png, &error)) << error.toStdString();
    expectChartImage(png);
    EXPECT_FALSE(
        dialog.saveChart(dir.filePath(QStringLiteral("no/such/folder/chart.svg")), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("cannot write the chart"))) << error.toStdString();
}
