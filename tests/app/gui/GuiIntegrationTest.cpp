// Issue 6 acceptance: a saved project keeps its runs in the SQLite project database. Opens a
// copy of projects/quickstart, runs it with the real engine, checks the runs list and the
// database, shows the run in the Timeline and Utilization tabs, reopens the project and reads
// the stored run back (result loaded off the GUI thread, timeline read window by window).
// Screenshots of each step go to screenshots/ in the working directory.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "generate/GeneratorSettings.h"
#include "generate/GeneratorSpec.h"
#include "generate/ModelFigures.h"
#include "generator/GeneratorPresentation.h"
#include "generator/ModelBuilderPanel.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "gui/TimelinePage.h"
#include "store/ProjectDatabase.h"
#include "store/RunStorage.h"
#include "support/SmallGpt.h"
#include "timeline/DatabaseTimelineSource.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "utilization/SummaryPanel.h"
#include "utilization/UtilizationView.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <cstdio>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

QString copyQuickstart(const QTemporaryDir& dir) {
    return gui::test::copyBundledProject(dir, QStringLiteral("quickstart"),
                                         QStringLiteral("quickstart"));
}

TimelinePage* timelinePage(MainWindow& window) {
    return qobject_cast<TimelinePage*>(window.tabs()->widget(MainWindow::TimelineTab));
}

widgets::SummaryPanel* summaryOf(MainWindow& window) {
    return window.tabs()
        ->widget(MainWindow::UtilizationTab)
        ->findChild<widgets::UtilizationView*>()
        ->summary();
}

} // namespace

TEST(GuiIntegration, QuickstartRunIsStoredInTheProjectDatabaseAndReopens) {
    QTemporaryDir dir;
    const QString project = copyQuickstart(dir);
    ASSERT_FALSE(project.isEmpty());
    const std::string dbPath = defaultDatabasePath(project.toStdString());
    constexpr int64_t kQuickstartNs = 117'780; // ASTRA-sim's rt_template end time
    QString explanation;                       // "Why this long" of the fresh run
    int criticalNpu = -1;
    size_t criticalNpuIntervals = 0;

    {
        MainWindow window(gui::test::testServices(dir));
        window.setAskBeforeDiscarding(false);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        QAbstractItemModelTester tester(window.runsModel(),
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        ASSERT_TRUE(window.openProject(project));
        EXPECT_EQ(window.runsModel()->rowCount(), 0);
        gui::test::saveScreenshot(window, QStringLiteral("guiint-1-opened.png"));

        QSignalSpy stored(&window, &MainWindow::runStored);
        ASSERT_GT(window.startRun(), 0);
        gui::test::saveScreenshot(window, QStringLiteral("guiint-2-running.png"));
        ASSERT_TRUE(stored.count() > 0 || stored.wait(30000)); // may land during the screenshot
        gui::test::saveScreenshot(window, QStringLiteral("guiint-3-finished.png"));

        // The runs list.
        ASSERT_EQ(window.runsModel()->rowCount(), 1);
        const gui::RunRecord& run = window.runsModel()->store()->at(0);
        EXPECT_EQ(run.status, gui::RunStatus::Finished);
        EXPECT_EQ(run.simulatedTime, SimTime::fromNs(kQuickstartNs));
        EXPECT_EQ(run.databasePath.toStdString(), dbPath);
        ASSERT_TRUE(run.result);
        EXPECT_EQ(run.activityCount, run.result->activities.size());

        // The database, through its own connection.
        {
            const ProjectDatabase db(dbPath);
            const std::vector<astrolabe::RunRecord> runs = db.listRuns();
            ASSERT_EQ(runs.size(), 1u);
            EXPECT_EQ(runs[0].id, run.id);
            EXPECT_EQ(runs[0].status, astrolabe::RunStatus::Ok);
            EXPECT_EQ(runs[0].simulatedTime, SimTime::fromNs(kQuickstartNs));
            EXPECT_EQ(runs[0].npuCount, 8);
            EXPECT_EQ(runs[0].activityCount, run.result->activities.size());
            EXPECT_EQ(runs[0].name, run.name.toStdString());
        }

        // Timeline and Utilization tabs show the run (the finished run's result is in memory).
        window.runsPanel()->selectRun(run.id);
        window.tabs()->setCurrentIndex(MainWindow::TimelineTab);
        TimelinePage* timeline = timelinePage(window);
        ASSERT_NE(timeline, nullptr);
        ASSERT_TRUE(gui::test::waitUntil([timeline] { return timeline->isReady(); }));
        EXPECT_TRUE(timeline->view()->isVisible());
        EXPECT_FALSE(timeline->showsDatabaseRun());
        gui::test::saveScreenshot(window, QStringLiteral("guiint-4-timeline.png"));
        window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
        gui::test::saveScreenshot(window, QStringLiteral("guiint-5-utilization.png"));
        ASSERT_TRUE(
            gui::test::waitUntil([&] { return !summaryOf(window)->explanationText().isEmpty(); }));
        explanation = summaryOf(window)->explanationText();
        ASSERT_FALSE(run.result->criticalPath.empty());
        criticalNpu = run.result->criticalPath.front().first;
        for (const ActivityInterval& a : run.result->activities)
            criticalNpuIntervals += a.npu == criticalNpu ? 1 : 0;

        // Rename, tags and notes reach the database.
        ASSERT_TRUE(window.runsModel()->renameRun(run.id, QStringLiteral("baseline")));
        ASSERT_TRUE(window.runsModel()->setTags(
            run.id, {QStringLiteral("ring"), QStringLiteral("acceptance")}));
        ASSERT_TRUE(window.runsModel()->setNotes(run.id, QStringLiteral("matches ASTRA-sim")));
        window.runsModel()->store()->flush(); // edits are written by the store's writer thread
        const ProjectDatabase db(dbPath);
        const astrolabe::RunRecord row = db.run(run.id);
        EXPECT_EQ(row.name, "baseline");
        EXPECT_EQ(row.tags, (std::vector<std::string>{"acceptance", "ring"})); // stored sorted
        EXPECT_EQ(row.notes, "matches ASTRA-sim");
    }

    // Reopen: the run is listed from the database; its result loads lazily by id.
    MainWindow window(gui::test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QAbstractItemModelTester tester(window.runsModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(window.openProject(project));
    ASSERT_EQ(window.runsModel()->rowCount(), 1);
    const gui::RunRecord& run = window.runsModel()->store()->at(0);
    EXPECT_EQ(run.name, QStringLiteral("baseline"));
    EXPECT_EQ(run.tags, (QStringList{QStringLiteral("acceptance"), QStringLiteral("ring")}));
    EXPECT_EQ(run.simulatedTime, SimTime::fromNs(kQuickstartNs));
    EXPECT_EQ(run.spec.platform.npuCount(), 8); // read back from the stored configuration
    EXPECT_FALSE(run.result);                   // not loaded until selected

    QSignalSpy loaded(&window, &MainWindow::resultLoaded);
    window.tabs()->setCurrentIndex(MainWindow::TimelineTab);
    window.runsPanel()->selectRun(run.id);
    ASSERT_TRUE(loaded.count() > 0 || loaded.wait(10000));
    const gui::RunRecord& reloaded = window.runsModel()->store()->at(0);
    ASSERT_TRUE(reloaded.result);
    // The timeline stays in the database but for the critical path's NPU: the explanation walks
    // that NPU's path and reads the same as on the fresh run.
    EXPECT_EQ(reloaded.result->activities.size(), criticalNpuIntervals);
    EXPECT_LT(reloaded.result->activities.size(), reloaded.activityCount);
    for (const ActivityInterval& a : reloaded.result->activities)
        EXPECT_EQ(a.npu, criticalNpu);
    EXPECT_EQ(reloaded.result->endTime, SimTime::fromNs(kQuickstartNs));
    TimelinePage* timeline = timelinePage(window);
    ASSERT_NE(timeline, nullptr);
    EXPECT_TRUE(timeline->showsDatabaseRun());
    ASSERT_TRUE(gui::test::waitUntil([timeline] { return timeline->isReady(); }));
    const auto* source = dynamic_cast<const widgets::DatabaseTimelineSource*>(
        timeline->view()->timeline()->source());
    ASSERT_NE(source, nullptr);
    gui::test::saveScreenshot(window, QStringLiteral("guiint-6-reopened-timeline.png"));
    EXPECT_GT(source->queryCount(), 0); // painting read windows from the database
    EXPECT_EQ(source->lastError(), "");
    EXPECT_EQ(source->rowCount(), 8);

    window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
    gui::test::waitUntil([&] { return !summaryOf(window)->explanationText().isEmpty(); });
    EXPECT_EQ(summaryOf(window)->explanationText().toStdString(), explanation.toStdString());

    // Deleting removes it from the database.
    ASSERT_TRUE(window.runsModel()->removeRun(run.id));
    window.runsModel()->store()->flush();
    EXPECT_TRUE(ProjectDatabase(dbPath).listRuns().empty());
}

TEST(GuiIntegration, FailedRunIsStoredWithItsMessage) {
    QTemporaryDir dir;
    const QString project = copyQuickstart(dir);
    ASSERT_FALSE(project.isEmpty());
    MainWindow window(gui::test::testServices(dir, gui::test::failingRun("system.endpoint-delay")));
    window.setAskBeforeDiscarding(false);
    ASSERT_TRUE(window.openProject(project));
    QSignalSpy stored(&window, &MainWindow::runStored);
    ASSERT_GT(window.startRun(), 0);
    ASSERT_TRUE(stored.wait(10000));
    const ProjectDatabase db(defaultDatabasePath(project.toStdString()));
    const std::vector<astrolabe::RunRecord> runs = db.listRuns();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].status, astrolabe::RunStatus::Failed);
    EXPECT_NE(runs[0].errorMessage.find("endpoint delay must be at most 1000 ns"),
              std::string::npos);
    EXPECT_EQ(window.runsModel()->store()->at(0).status, gui::RunStatus::Failed);
}

TEST(GuiIntegration, UnsavedProjectKeepsRunsInMemory) {
    QTemporaryDir dir;
    MainWindow window(gui::test::testServices(dir));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    ASSERT_TRUE(window.hasProject());
    EXPECT_TRUE(window.runsModel()->store()->backgroundSaver() == nullptr);
    QSignalSpy stored(&window, &MainWindow::runStored);
    ASSERT_GT(window.startRun(), 0);
    ASSERT_TRUE(stored.wait(30000));
    EXPECT_TRUE(window.runsModel()->store()->at(0).databasePath.isEmpty());
    EXPECT_TRUE(window.runsModel()->store()->at(0).result);

    // Saving the project moves its runs into the database beside the new file.
    const QString path = dir.filePath(QStringLiteral("saved/project.yaml"));
    QDir().mkpath(dir.filePath(QStringLiteral("saved")));
    ASSERT_TRUE(window.saveProjectAs(path));
    ASSERT_EQ(window.runsModel()->rowCount(), 1);
    const gui::RunRecord& moved = window.runsModel()->store()->at(0);
    EXPECT_FALSE(moved.databasePath.isEmpty());
    const std::vector<astrolabe::RunRecord> runs =
        ProjectDatabase(defaultDatabasePath(path.toStdString())).listRuns();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].id, moved.id);
    EXPECT_EQ(runs[0].simulatedTime, SimTime::fromNs(117'780));
}

namespace {
generate::GeneratorSpec smallTransformer(int tp, int pp, int dp) {
    return astrolabe::test::smallGpt(tp, pp, dp);
}
} // namespace

// The demonstration presets generate and run one iteration on the quickstart's 8 NPUs in about
// a second each (the bound here is loose for slow CI machines; the times are printed). Each
// run is named after the model built: an edited preset is "custom (from ...)".
TEST(GuiIntegration, DemonstrationPresetsRunOnTheProjectPlatform) {
    QTemporaryDir dir;
    const QString project = copyQuickstart(dir);
    ASSERT_FALSE(project.isEmpty());
    MainWindow window(gui::test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(project));
    widgets::ModelBuilderPanel* builder = window.modelBuilder();
    QPushButton* generate = nullptr;
    for (QPushButton* button : builder->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Generate and Run"))
            generate = button;
    ASSERT_NE(generate, nullptr);
    const std::pair<QString, QString> presets[] = {
        {QStringLiteral("gpt2-124m"), QStringLiteral("GPT-2 124M tp1\u00b7pp1\u00b7dp8 on ")},
        {QStringLiteral("gpt2-350m"), QStringLiteral("GPT-2 350M tp2\u00b7pp2\u00b7dp2 on ")},
        {QStringLiteral("llama3.2-1b"), QStringLiteral("Llama-3.2 1B tp1\u00b7pp1\u00b7dp8 on ")},
        {QStringLiteral("olmoe-1b-7b"),
         QStringLiteral("OLMoE-1B-7B tp1\u00b7pp1\u00b7dp8\u00b7ep8 on ")},
    };
    for (const auto& [preset, name] : presets) {
        ASSERT_TRUE(builder->applyPreset(preset));
        ASSERT_TRUE(generate->isEnabled()) << builder->figuresText().toStdString();
        QSignalSpy stored(&window, &MainWindow::runStored);
        QElapsedTimer clock;
        clock.start();
        generate->click();
        ASSERT_TRUE(stored.count() > 0 || stored.wait(60000)) << preset.toStdString();
        const double seconds = clock.elapsed() / 1000.0;
        const gui::RunRecord& run =
            window.runsModel()->store()->at(window.runsModel()->store()->count() - 1);
        ASSERT_EQ(run.status, gui::RunStatus::Finished) << run.message.toStdString();
        EXPECT_TRUE(run.name.startsWith(name)) << run.name.toStdString();
        std::printf("demonstration %-12s generate + run %.2f s wall (%.2f s simulation), "
                    "%.3f ms simulated\n",
                    qPrintable(preset), seconds, run.wallSeconds, run.simulatedTime.ms());
        EXPECT_LT(seconds, 30.0) << preset.toStdString();
    }
    // An edited preset runs under its own name, not the preset's.
    ASSERT_TRUE(builder->applyPreset(QStringLiteral("gpt2-124m")));
    builder->findChildren<QSpinBox*>().at(0)->setValue(6); // layers, as the user types them
    QSignalSpy stored(&window, &MainWindow::runStored);
    generate->click();
    ASSERT_TRUE(stored.count() > 0 || stored.wait(60000));
    const gui::RunRecord& custom =
        window.runsModel()->store()->at(window.runsModel()->store()->count() - 1);
    EXPECT_TRUE(custom.name.startsWith(QStringLiteral("custom (from GPT-2 124M) tp1")))
        << custom.name.toStdString();
}

TEST(GuiIntegration, WorkloadPanelGeneratesAndRunsOnTheProjectPlatform) {
    QTemporaryDir dir;
    const QString project = copyQuickstart(dir);
    ASSERT_FALSE(project.isEmpty());
    MainWindow window(gui::test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(project));
    ASSERT_EQ(window.tabs()->tabText(MainWindow::WorkloadTab), QStringLiteral("Workload"));
    ASSERT_NE(window.modelBuilder(), nullptr);
    // The builder follows the project: fitted to the ring's 8 NPUs on opening.
    EXPECT_EQ(window.modelBuilder()->platformNpus(), 8);
    EXPECT_EQ(window.modelBuilder()->spec().parallel.npus(), 8);
    EXPECT_TRUE(
        window.modelBuilder()->figuresText().contains(QStringLiteral("fits the platform's 8 NPUs")))
        << window.modelBuilder()->figuresText().toStdString();

    // 16 NPUs on the 8-NPU ring: refused with a message naming both counts.
    EXPECT_EQ(window.startGeneratedRun(smallTransformer(2, 2, 4)), 0);
    QMessageBox* box = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains(QStringLiteral("16 NPUs")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("8 NPUs")));
    box->close();

    // The panel's Generate button path: generateRequested -> generate in memory -> run.
    window.tabs()->setCurrentIndex(MainWindow::WorkloadTab);
    window.modelBuilder()->setSpec(smallTransformer(2, 2, 2));
    QSignalSpy stored(&window, &MainWindow::runStored);
    QPushButton* generate = nullptr;
    for (QPushButton* button : window.modelBuilder()->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Generate and Run"))
            generate = button;
    ASSERT_NE(generate, nullptr);
    ASSERT_TRUE(generate->isEnabled()) << window.modelBuilder()->figuresText().toStdString();
    generate->click();
    ASSERT_TRUE(stored.count() > 0 || stored.wait(60000));
    gui::test::saveScreenshot(window, QStringLiteral("guiint-8-workload-tab.png"));
    const gui::RunRecord& run = window.runsModel()->store()->at(0);
    ASSERT_EQ(run.status, gui::RunStatus::Finished) << run.message.toStdString();
    ASSERT_TRUE(run.result);
    EXPECT_EQ(run.result->npuCount, 8);
    // Named after the model generated and its split.
    EXPECT_TRUE(run.name.startsWith(QStringLiteral("small tp2\u00b7pp2\u00b7dp2 on ")))
        << run.name.toStdString();
    // Every rank computed and the tensor-parallel all-reduces ran: compute and collectives.
    EXPECT_FALSE(run.result->collectives.empty());
    EXPECT_GT(run.simulatedTime, SimTime());
    EXPECT_EQ(ProjectDatabase(defaultDatabasePath(project.toStdString())).listRuns().size(), 1u);
}

// The model builder's "Tensor lists" field: a generated run then tracks each NPU's local memory,
// and its peak is the generator's own estimate (weights + gradients + optimizer states +
// activations in flight, ModelFigures) to whole-byte rounding. A project that tracks local
// memory gets the lists without the field; with neither, nothing is tracked.
TEST(GuiIntegration, TensorListsOfTheModelBuilderTrackMemoryInAGeneratedRun) {
    ASSERT_TRUE(widgets::generatorFieldLook(generate::findGeneratorSetting("tensors")).inBuilder)
        << "the builder has a field for it";
    // Each run in a project of its own (its database holds that run only).
    const auto peakOfRun = [&](bool tensors, bool projectTracks, bool* tracked) {
        QTemporaryDir dir;
        const QString path = copyQuickstart(dir);
        EXPECT_FALSE(path.isEmpty());
        if (projectTracks) {
            QFile file(path);
            EXPECT_TRUE(file.open(QIODevice::ReadOnly));
            QString yaml = QString::fromUtf8(file.readAll());
            file.close();
            yaml.replace(QStringLiteral("system:\n"),
                         QStringLiteral("system:\n  track-local-memory: true\n"));
            EXPECT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(yaml.toUtf8());
        }
        MainWindow window(gui::test::testServices(dir));
        window.setAskBeforeDiscarding(false);
        EXPECT_TRUE(window.openProject(path));
        generate::GeneratorSpec spec = smallTransformer(2, 2, 2);
        spec.output.tensors = tensors;
        QSignalSpy stored(&window, &MainWindow::runStored);
        EXPECT_GT(window.startGeneratedRun(spec), 0);
        EXPECT_TRUE(stored.count() > 0 || stored.wait(60000));
        const gui::RunRecord& run = window.runsModel()->store()->at(0);
        EXPECT_EQ(run.status, gui::RunStatus::Finished) << run.message.toStdString();
        double peak = 0;
        *tracked = run.result && !run.result->memoryUsage.empty();
        if (run.result)
            for (const auto& npu : run.result->npus)
                peak = std::max(peak, double(npu.peakMemoryBytes));
        return peak;
    };
    const double estimate = generate::computeFigures(smallTransformer(2, 2, 2)).memory.total();
    ASSERT_GT(estimate, 0);

    bool tracked = false;
    EXPECT_NEAR(peakOfRun(true, false, &tracked), estimate, 1e-6 * estimate);
    EXPECT_TRUE(tracked);
    EXPECT_EQ(peakOfRun(false, false, &tracked), 0.0) << "neither the field nor the project";
    EXPECT_FALSE(tracked);
    EXPECT_NEAR(peakOfRun(false, true, &tracked), estimate, 1e-6 * estimate)
        << "the project tracks local memory: the lists are generated for it";
    EXPECT_TRUE(tracked);
}
