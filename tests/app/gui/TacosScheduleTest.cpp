// The TACOS schedule beside the timeline (issue #19 part 3): shown for a graph platform only;
// Synthesize runs TACOS for the project's collective on a worker and shows the per-link
// schedule, which is the engine's schedule of that collective and size and never beats the
// bandwidth lower bound; it follows the timeline cursor (the step running then is highlighted).
// Screenshots are saved to be looked at.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "graph/GraphGenerators.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/RunsTableModel.h"
#include "gui/TimelinePage.h"
#include "gui/WorkspaceTabs.h"
#include "tacos/Evaluate.h"
#include "tacos/ScheduleExport.h"
#include "tacos/SchedulePanel.h"
#include "tacos/ScheduleView.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "trace/TraceIo.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <fstream>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

GraphSpec mesh4x4() {
    GraphGeneratorSpec g;
    g.name = "mesh2d";
    g.size = {4, 4};
    g.bandwidthBytesPerSecond = 100e9;
    g.latencyNs = 100;
    return generateGraph(g);
}

SimulationSpec graphProject(int collective, uint64_t bytes) {
    SimulationSpec spec;
    spec.platform = graphPlatform(mesh4x4());
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.collective = collective;
    spec.workload.microbenchmark.sizeBytes = bytes;
    return spec;
}

} // namespace

TEST(TacosSchedule, ShownBesideTheTimelineForAGraphPlatformOnly) {
    TimelinePage page;
    page.resize(1400, 600);
    page.show();
    SimulationSpec stack = graphProject(0, 1 << 20);
    stack.platform = PlatformSpec{};
    stack.platform.dimensions = {DimensionSpec{}};
    page.setSpec(stack);
    EXPECT_FALSE(page.schedulePanel()->isVisibleTo(&page));

    // An all-gather of 64 KiB per NPU: the panel synthesizes that, not a default all-reduce.
    const uint64_t bytes = 64 << 10;
    page.setSpec(graphProject(2, bytes));
    widgets::SchedulePanel* panel = page.schedulePanel();
    ASSERT_TRUE(panel->isVisibleTo(&page));
    EXPECT_FALSE(panel->hasSchedule());
    QSignalSpy shown(panel, &widgets::SchedulePanel::scheduleShown);
    panel->synthesizeButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return shown.size() == 1; }, 30000));

    const Schedule& s = panel->view()->model()->schedule();
    EXPECT_EQ(s.kind, SynthesisKind::AllGather);
    EXPECT_EQ(s.bytes, bytes);
    EXPECT_EQ(s.npus, 16);
    SynthesisOptions options;
    options.kind = SynthesisKind::AllGather;
    options.bytes = bytes;
    const Schedule direct = synthesize(mesh4x4(), options);
    EXPECT_EQ(s.sends.size(), direct.sends.size());
    EXPECT_DOUBLE_EQ(s.finishNs, direct.finishNs);
    // Every NPU gathers 15 chunks of 64 KiB through its links: never faster than the bound.
    EXPECT_GE(s.finishNs, bandwidthLowerBoundNs(s) * (1 - 1e-9));
    // One row per directed link, one column per step; the table is on screen.
    EXPECT_EQ(panel->view()->model()->rowCount(), static_cast<int>(s.links.size()));
    EXPECT_EQ(panel->view()->model()->columnCount(), s.steps);
    EXPECT_TRUE(panel->view()->table()->isVisible());
    test::saveScreenshot(page, QStringLiteral("tacos-schedule-beside-timeline.png"));

    // Another size clears the shown schedule: it was synthesized for the old one.
    page.setSpec(graphProject(2, bytes * 2));
    EXPECT_FALSE(panel->hasSchedule());
}

TEST(TacosSchedule, FollowsTheTimelineCursor) {
    // Pressing or dragging on the timeline's axis (cursorMoved) highlights the step running at
    // that time: the last whose first chunk send started at or before it, found here from the
    // schedule's sends; after the finish, none.
    TimelinePage page;
    page.resize(1400, 600);
    page.show();
    page.setSpec(graphProject(0, 1 << 20));
    widgets::SchedulePanel* panel = page.schedulePanel();
    widgets::TimelineWidget* timeline = page.view()->timeline();
    emit timeline->cursorMoved(5000); // before the schedule exists: kept for it
    QSignalSpy shown(panel, &widgets::SchedulePanel::scheduleShown);
    panel->synthesizeButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return shown.size() == 1; }, 30000));
    const widgets::ScheduleModel* model = panel->view()->model();
    const Schedule& s = model->schedule();
    ASSERT_GT(s.steps, 2);
    std::vector<double> start(static_cast<size_t>(s.steps), s.finishNs);
    for (const ChunkSend& c : s.sends)
        start[static_cast<size_t>(c.step)] =
            std::min(start[static_cast<size_t>(c.step)], c.startNs);
    const auto stepOfNs = [&](double ns) {
        int step = -1;
        for (int k = 0; k < s.steps; ++k)
            if (start[static_cast<size_t>(k)] <= ns && ns < s.finishNs)
                step = k;
        return step;
    };
    EXPECT_EQ(model->activeStep(), stepOfNs(5.0));
    for (int k = 0; k < s.steps; ++k) {
        const double next = k + 1 < s.steps ? start[static_cast<size_t>(k) + 1] : s.finishNs;
        const double mid = (start[static_cast<size_t>(k)] + next) / 2;
        emit timeline->cursorMoved(static_cast<qint64>(mid * 1000));
        ASSERT_EQ(model->activeStep(), stepOfNs(mid)) << "step " << k;
        EXPECT_EQ(model->activeStep(), k);
        EXPECT_EQ(model->headerData(k, Qt::Horizontal, Qt::DisplayRole).toString(),
                  QStringLiteral("\u25b6%1").arg(k));
        EXPECT_TRUE(panel->view()->cursorLabel()->text().contains(
            QStringLiteral("step %1 of %2").arg(k).arg(s.steps)));
    }
    // The columns passed lost their mark.
    EXPECT_EQ(model->headerData(s.steps / 2, Qt::Horizontal, Qt::DisplayRole).toString(),
              QString::number(s.steps / 2));
    emit timeline->cursorMoved(static_cast<qint64>(s.finishNs * 1000) + 1000);
    EXPECT_EQ(model->activeStep(), -1);
    EXPECT_TRUE(panel->view()->cursorLabel()->text().contains("after the schedule's end"));
    emit timeline->cursorMoved(static_cast<qint64>((start[1] + start[2]) / 2 * 1000));
    test::saveScreenshot(page, QStringLiteral("tacos-schedule-cursor.png"));
}

TEST(TacosSchedule, RecognizesTheExportedScheduleTheProjectRuns) {
    // astrolabe-cli synthesize --xml writes MSCCL-IR XML that the project names as its custom
    // all-reduce: the panel reads it back, finds it identical node for node to TACOS's schedule
    // on the graph with 2 chunks per NPU (taken from the files' message size) and shows that.
    SynthesisOptions exported;
    exported.bytes = 1 << 20;
    exported.chunksPerNpu = 2;
    const QTemporaryDir dir;
    const std::string xml = (QDir(dir.path()).filePath("allreduce.xml")).toStdString();
    {
        std::ofstream out(xml);
        out << scheduleMscclXml(synthesize(mesh4x4(), exported), "tacos_mesh");
    }
    TimelinePage page;
    SimulationSpec spec = graphProject(0, 1 << 20);
    spec.system.customAllReduce = xml;
    page.setSpec(spec);
    widgets::SchedulePanel* panel = page.schedulePanel();
    QSignalSpy shown(panel, &widgets::SchedulePanel::scheduleShown);
    panel->synthesizeButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return shown.size() == 1; }, 30000));
    ASSERT_TRUE(panel->customRecognized().has_value());
    EXPECT_TRUE(*panel->customRecognized()) << panel->status()->text().toStdString();
    EXPECT_EQ(panel->view()->model()->schedule().chunksPerNpu, 2);
    EXPECT_TRUE(panel->status()->text().contains("exported TACOS schedule of this graph"));

    // The schedule of another graph with the same 16 NPUs (a torus) is not this one's.
    GraphGeneratorSpec torus;
    torus.name = "torus2d";
    torus.size = {4, 4};
    torus.bandwidthBytesPerSecond = 100e9;
    torus.latencyNs = 100;
    {
        std::ofstream out(xml);
        out << scheduleMscclXml(synthesize(generateGraph(torus), exported), "tacos_torus");
    }
    page.setSpec(graphProject(0, 1 << 20)); // a different problem, then the same again
    page.setSpec(spec);
    panel->synthesizeButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return shown.size() == 2; }, 30000));
    ASSERT_TRUE(panel->customRecognized().has_value());
    EXPECT_FALSE(*panel->customRecognized());
    EXPECT_TRUE(panel->status()->text().contains("not this graph's exported TACOS schedule"))
        << panel->status()->text().toStdString();
    EXPECT_EQ(panel->view()->model()->schedule().chunksPerNpu, 1); // synthesized afresh

    // The Chakra ET form (--et PREFIX: PREFIX.<npu>.et) is recognized the same way.
    const std::string prefix = QDir(dir.path()).filePath("tacos").toStdString();
    const std::vector<WorkloadTrace> traces = scheduleTraces(synthesize(mesh4x4(), exported));
    for (size_t npu = 0; npu < traces.size(); ++npu)
        writeWorkloadTrace(prefix + "." + std::to_string(npu) + ".et", traces[npu]);
    spec.system.customAllReduce = prefix;
    page.setSpec(spec);
    panel->synthesizeButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return shown.size() == 3; }, 30000));
    EXPECT_TRUE(panel->customRecognized().value_or(false)) << panel->status()->text().toStdString();
    EXPECT_EQ(panel->view()->model()->schedule().chunksPerNpu, 2);
}

// A synthesized schedule could not be used, run or saved from the window (issue #53,
// Researcher 2). "Use and Run" writes it beside the project, makes it the project's all-reduce
// (one edit) and runs it; the run ends at the time the engine gives for that schedule as a
// custom collective; Synthesize then recognizes the file. "Save…" writes XML or ET files.
TEST(TacosSchedule, ASynthesizedScheduleIsUsedRunAndSavedFromTheWindow) {
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath(QStringLiteral("dgx")));
    const QString project = dir.filePath(QStringLiteral("dgx/project.yaml"));
    ASSERT_TRUE(QFile::copy(QString::fromStdString(ASTROLABE_SOURCE_DIR) +
                                QStringLiteral("/projects/graph-dgx1/project.yaml"),
                            project));
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(window.openProject(project));
    window.tabs()->setCurrentIndex(MainWindow::TimelineTab);
    auto* page = qobject_cast<TimelinePage*>(window.tabs()->widget(MainWindow::TimelineTab));
    ASSERT_NE(page, nullptr);
    widgets::SchedulePanel* panel = page->schedulePanel();
    EXPECT_FALSE(panel->useButton()->isEnabled()) << "nothing to use before Synthesize";
    QSignalSpy shown(panel, &widgets::SchedulePanel::scheduleShown);
    panel->synthesizeButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return shown.size() == 1; }, 30000));
    ASSERT_TRUE(panel->useButton()->isEnabled());
    ASSERT_TRUE(panel->saveButton()->isEnabled());
    const Schedule schedule = *panel->schedule();

    // Save: XML, and ET files by prefix.
    const QString xml = dir.filePath(QStringLiteral("saved.xml"));
    ASSERT_TRUE(page->saveSchedule(xml));
    ASSERT_TRUE(QFile::exists(xml));
    ASSERT_TRUE(page->saveSchedule(dir.filePath(QStringLiteral("saved"))));
    for (int npu = 0; npu < schedule.npus; ++npu)
        EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("saved.%1.et").arg(npu)))) << npu;

    // Use and Run.
    QSignalSpy stored(&window, &MainWindow::runStored);
    test::saveScreenshot(window, QStringLiteral("issue53-tacos-use-before.png"));
    panel->useButton()->click();
    const QString written = dir.filePath(QStringLiteral("dgx/tacos-all-reduce.xml"));
    EXPECT_TRUE(QFile::exists(written));
    EXPECT_EQ(QFileInfo(QString::fromStdString(window.document()->spec().system.customAllReduce))
                  .absoluteFilePath(),
              QFileInfo(written).absoluteFilePath());
    ASSERT_TRUE(test::waitUntil([&] { return !stored.isEmpty(); }, 60000));
    const RunStore* store = window.runsModel()->store();
    const RunRecord& run = store->at(store->count() - 1);
    ASSERT_TRUE(run.result) << run.message.toStdString();
    EXPECT_TRUE(run.name.contains(QStringLiteral("TACOS"))) << run.name.toStdString();
    EXPECT_EQ(run.spec.system.customAllReduce, window.document()->spec().system.customAllReduce);
    const double expected = runCustomCollective(window.document()->spec(), SynthesisKind::AllReduce,
                                                schedule.bytes, written.toStdString());
    EXPECT_NEAR(run.result->endTime.ns(), expected, 1.0);
    // The panel now sees that the project runs this schedule.
    QSignalSpy again(panel, &widgets::SchedulePanel::scheduleShown);
    panel->synthesizeButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return again.size() == 1; }, 30000));
    EXPECT_EQ(panel->customRecognized(), std::optional<bool>(true));
    EXPECT_FALSE(panel->useButton()->isEnabled()) << "the project already runs it";
    test::saveScreenshot(window, QStringLiteral("issue53-tacos-use-after.png"));
}
