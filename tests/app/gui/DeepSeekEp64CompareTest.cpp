// Issue #46 item 3: DeepSeek-V3's public training profile on an EP64 H800 platform
// (projects/case-studies/deepseek-v3-ep64), run twice through astrolabe-cli as the docs say:
// communication as measured, and DeepEP's all-to-alls sized from the model and simulated. Both
// runs go into the project's database; the window's Compare tab shows them side by side, each
// with the timeline of its NPUs on one time axis.
#include "GuiTestSupport.h"
#include "cli/Commands.h"
#include "compare/AlignedTimelines.h"
#include "compare/CompareView.h"
#include "gui/MainWindow.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "timeline/TimelineWidget.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include <sstream>

using namespace astrolabe;

namespace {

int runCommand(const std::vector<std::string>& args, std::string* out = nullptr) {
    std::ostringstream o, e;
    const int code = cli::runCli(args, o, e);
    if (out)
        *out = o.str();
    if (code != 0)
        ADD_FAILURE() << e.str();
    return code;
}

} // namespace

TEST(DeepSeekEp64Compare, MeasuredAndSimulatedCommunicationSideBySide) {
    QTemporaryDir dir;
    const QString study = QString::fromStdString(ASTROLABE_SOURCE_DIR) +
                          QStringLiteral("/projects/case-studies/deepseek-v3-ep64/");
    for (const char* file : {"measured-comm.yaml", "simulated-comm.yaml"})
        ASSERT_TRUE(QFile::copy(study + QLatin1String(file), dir.filePath(QLatin1String(file))));
    const std::string profile = ASTROLABE_TEST_DATA_DIR + "/deepseek-v3-train-gpu0.json";
    const std::string traces = dir.filePath(QStringLiteral("traces/")).toStdString();
    ASSERT_EQ(
        runCommand({"import", "pytorch", profile, "--npus", "64", "--out", traces + "measured"}),
        0);
    std::string report;
    ASSERT_EQ(runCommand({"import", "pytorch", profile, "--npus", "64", "--moe-shape",
                          "4096,7168,8,256", "--out", traces + "simulated"},
                         &report),
              0);
    EXPECT_NE(report.find("8 dispatch all-to-alls of 242221056 B, 8 combine all-to-alls of "
                          "469762048 B, 16 notify all-to-alls of 1024 B"),
              std::string::npos)
        << report;
    const QString measured = dir.filePath(QStringLiteral("measured-comm.yaml"));
    ASSERT_EQ(runCommand({"run", measured.toStdString()}), 0);
    ASSERT_EQ(
        runCommand({"run", dir.filePath(QStringLiteral("simulated-comm.yaml")).toStdString()}), 0);

    gui::MainWindow window(gui::test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(measured));
    ASSERT_EQ(window.runsModel()->rowCount(), 2) << "both runs are in the project's database";
    window.runsPanel()->view()->selectAll();
    ASSERT_EQ(window.runsPanel()->selectedRunIds().size(), 2);
    auto* button = window.runsPanel()->findChild<QPushButton*>();
    ASSERT_NE(button, nullptr);
    button->click();
    EXPECT_EQ(window.tabs()->currentIndex(), gui::MainWindow::CompareTab);
    auto* compare = window.findChild<widgets::CompareView*>();
    ASSERT_NE(compare, nullptr);
    const widgets::CompareRuns& runs = compare->runs();
    ASSERT_EQ(runs.size(), 2u);
    int measuredRun = -1;
    for (int i = 0; i < 2; ++i) {
        ASSERT_NE(runs[static_cast<size_t>(i)].result, nullptr);
        EXPECT_EQ(runs[static_cast<size_t>(i)].result->npus.size(), 64u);
        if (runs[static_cast<size_t>(i)].spec.system.replayOnly)
            measuredRun = i;
    }
    ASSERT_GE(measuredRun, 0) << "one run takes communication as measured";
    // Rank 0's timeline in both: its 951 GPU compute activities (and 32 DeepEP kernels).
    for (const widgets::CompareRun& run : runs) {
        size_t onRankZero = 0;
        for (const ActivityInterval& a : run.result->activities)
            onRankZero += a.npu == 0 && a.kind == ActivityKind::Compute;
        EXPECT_EQ(onRankZero, 951u) << run.name.toStdString();
    }
    // As measured: the single-GPU replay's figure on every rank (docs/real-traces.md).
    EXPECT_EQ(runs[static_cast<size_t>(measuredRun)].result->endTime.ps(), 128'574'001'000);
    const int64_t longest = std::max(runs[0].result->endTime.ps(), runs[1].result->endTime.ps());

    // Timelines sub-tab: both runs' NPU timelines stacked on one time axis.
    compare->tabs()->setCurrentIndex(1);
    widgets::AlignedTimelines* aligned = compare->timelines();
    ASSERT_EQ(aligned->count(), 2);
    for (int i = 0; i < 2; ++i)
        EXPECT_EQ(aligned->timeline(i)->mapper().limitEnd(), longest) << i;
    QTest::qWait(100);
    gui::test::saveScreenshot(window, QStringLiteral("compare_deepseek_ep64_timelines.png"));
    window.close();
}
