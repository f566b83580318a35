// The Sweep tab end to end on the real engine: projects/torus-2d/sweep.yaml (8 bandwidths x
// 8 chunk counts = 64 points) copied into a temporary folder, run from the main window with two
// worker threads. Every point is stored in the project database, the table shows 64 ok rows,
// the runs list holds the 64 runs when the sweep ends, and the event loop keeps ticking.
#include "gui/SweepController.h"

#include "GapMeter.h"
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/ErrorReporter.h"
#include "gui/MainWindow.h"
#include "gui/RunsTableModel.h"
#include "store/ProjectDatabase.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepRun.h"
#include "sweep/SweepView.h"

#include <QFile>
#include <QItemSelectionModel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <gtest/gtest.h>
#include <iostream>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

/// The torus project and its sweep, copied: the sweep stores into the copy's database.
QString copyTorusSweep(const QTemporaryDir& dir) {
    const QString from = QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/torus-2d/");
    QFile::copy(from + QStringLiteral("project.yaml"),
                dir.filePath(QStringLiteral("project.yaml")));
    QFile::copy(from + QStringLiteral("sweep.yaml"), dir.filePath(QStringLiteral("sweep.yaml")));
    return dir.filePath(QStringLiteral("sweep.yaml"));
}

int rowsWithStatus(const widgets::SweepResultsModel& model, widgets::SweepPointStatus status) {
    int n = 0;
    for (const widgets::SweepRow& row : model.rows())
        n += row.summary.status == status ? 1 : 0;
    return n;
}

} // namespace

TEST(SweepController, RunsTheTorusSweepOffTheGuiThreadAndStoresEveryPoint) {
    QTemporaryDir dir;
    const QString sweep = copyTorusSweep(dir);
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    ASSERT_TRUE(window.openProject(dir.filePath(QStringLiteral("project.yaml"))));
    widgets::SweepView* view = window.sweepView();
    QSignalSpy finished(window.sweepController(), &SweepController::finished);
    QSignalSpy stored(window.sweepController(), &SweepController::pointStored);

    test::GapMeter meter;
    ASSERT_TRUE(window.runSweep(sweep, 2));
    EXPECT_FALSE(window.runSweep(sweep, 2)) << "a second sweep while one runs";
    EXPECT_EQ(window.tabs()->currentIndex(), MainWindow::SweepTab);
    ASSERT_TRUE(test::waitUntil([&] { return !finished.isEmpty(); }, 240000));
    meter.stop();
    EXPECT_FALSE(finished.at(0).at(0).toBool()); // not cancelled
    // The Log says a sweep ran.
    EXPECT_TRUE(test::logContains(window.logModel(),
                                  QStringLiteral("Sweep of 64 points started: 64 to run")));
    EXPECT_TRUE(test::logContains(window.logModel(), QStringLiteral("Sweep finished")));

    const widgets::SweepResultsModel& model = *view->model();
    ASSERT_EQ(model.rowCount(), 64);
    EXPECT_EQ(rowsWithStatus(model, widgets::SweepPointStatus::Ok), 64);
    EXPECT_EQ(stored.count(), 64);
    EXPECT_EQ(model.finished(), 64u);
    EXPECT_EQ(view->progressBar()->value(), 64);
    // bw0 varies slowest: point 9 is bw0 = 100 GiB/s, chunks = 2.
    EXPECT_EQ(model.index(9, 1).data().toString(), QStringLiteral("100 GiB/s"));
    EXPECT_EQ(model.index(9, 2).data().toString(), QStringLiteral("2"));
    // A faster first dimension never makes the all-reduce slower (same chunks).
    EXPECT_LE(model.rows()[63].summary.endTime, model.rows()[7].summary.endTime);

    // In the project database, tagged with the sweep; and in the runs list once it ended.
    const ProjectDatabase db(window.sweepController()->databasePath().toStdString());
    EXPECT_EQ(db.listRuns().size(), 64u);
    EXPECT_TRUE(test::waitUntil([&] { return window.runsModel()->rowCount() == 64; }));

    // The heatmap: 8 x 8 cells, all finished.
    const widgets::HeatmapData& grid = view->heatmap()->data();
    EXPECT_EQ(grid.xValues.size(), 8u);
    EXPECT_EQ(grid.yValues.size(), 8u);
    for (const std::optional<double>& cell : grid.endPs)
        EXPECT_TRUE(cell.has_value());

    std::cout << "[ measured ] sweep of 64 points: " << meter.describe() << "\n";
    EXPECT_GT(meter.ticks(), 20);
    if (meter.steady()) {
        EXPECT_LT(meter.maxCpuGapMs(), 50.0);
        EXPECT_LT(meter.maxGapMs(), 50);
    } else {
        std::cout << meter.unsteadyNote();
    }

    // "Compare selected": the first three rows' runs in the Compare tab.
    view->table()->selectionModel()->select(
        QItemSelection(view->table()->model()->index(0, 0), view->table()->model()->index(2, 0)),
        QItemSelectionModel::Select | QItemSelectionModel::Rows);
    ASSERT_EQ(view->selectedRunIds().size(), 3);
    view->compareButton()->click();
    EXPECT_EQ(window.tabs()->currentIndex(), MainWindow::CompareTab);
}

TEST(SweepController, ResumesWithStoredPointsShownAsDone) {
    QTemporaryDir dir;
    const QString sweep = copyTorusSweep(dir);
    // 10 points stored before, as an interrupted CLI run would leave them.
    {
        const SweepPlan plan = planSweep(sweep.toStdString());
        ProjectDatabase db(dir.filePath(QStringLiteral("astrolabe.db")).toStdString());
        std::vector<size_t> first(10);
        for (size_t i = 0; i < 10; ++i)
            first[i] = i * 6;
        runSweepOnThreads(plan, first, 1, [&](PointOutcome&& o) { storeSweepPoint(db, plan, o); });
    }
    widgets::SweepView view;
    SweepController controller(&view);
    QSignalSpy planned(&controller, &SweepController::planned);
    QSignalSpy finished(&controller, &SweepController::finished);
    ASSERT_TRUE(controller.start(sweep, 2));
    ASSERT_TRUE(planned.wait(30000));
    EXPECT_EQ(planned.at(0).at(0).toInt(), 64);
    EXPECT_EQ(planned.at(0).at(1).toInt(), 10);
    EXPECT_EQ(planned.at(0).at(2).toInt(), 54);
    EXPECT_EQ(view.model()->rows()[6].summary.status, widgets::SweepPointStatus::Ok);
    EXPECT_GT(view.model()->rows()[6].summary.runNumber, 0);
    EXPECT_GE(view.model()->finished(), 10u);
    // The cancel button stops it; what was stored stays, nothing is left "running".
    view.cancelButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return !finished.isEmpty(); }, 60000));
    EXPECT_TRUE(finished.at(0).at(0).toBool());
    EXPECT_EQ(rowsWithStatus(*view.model(), widgets::SweepPointStatus::Running), 0);
    const ProjectDatabase db(controller.databasePath().toStdString());
    EXPECT_EQ(storedSweepPoints(db, planSweep(sweep.toStdString()).identity).size(),
              view.model()->finished());
}

TEST(SweepController, PlanningErrorsAreReportedAndNothingIsStored) {
    QTemporaryDir dir;
    copyTorusSweep(dir);
    QFile bad(dir.filePath(QStringLiteral("bad.yaml")));
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
    bad.write("project: project.yaml\naxes:\n  - path: system.no_such_setting.deeper\n    values: "
              "[1, 2]\n");
    bad.close();
    widgets::SweepView view;
    SweepController controller(&view);
    QSignalSpy errors(&controller, &SweepController::errorOccurred);
    ASSERT_TRUE(controller.start(bad.fileName()));
    ASSERT_TRUE(errors.wait(30000));
    EXPECT_TRUE(errors.at(0).at(1).toString().contains(QStringLiteral("no_such_setting")))
        << errors.at(0).at(1).toString().toStdString();
    EXPECT_FALSE(controller.isRunning());
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("astrolabe.db"))));
}
