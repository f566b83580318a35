// `astrolabe-cli fidelity` runs one project through the congestion-unaware, the congestion-aware
// and the packet (ns-3) network models and stores the three runs in the project's database
// (issue #50). The GUI opens that project, lists the three runs, and "Compare selected" puts them
// side by side: named by their model, the backend the one setting highlighted as different, the
// timelines on one time axis.
#include "GuiTestSupport.h"
#include "cli/Commands.h"
#include "compare/AlignedTimelines.h"
#include "compare/CompareView.h"
#include "compare/MetricsTableModel.h"
#include "compare/SettingsTableModel.h"
#include "gui/MainWindow.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "timeline/TimelineWidget.h"

#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include <sstream>

using namespace astrolabe;

TEST(FidelityCompare, TheThreeModelsRunsOpenAlignedInTheCompareTab) {
    QTemporaryDir dir;
    const QString project =
        gui::test::copyBundledProject(dir, QStringLiteral("quickstart"), QStringLiteral("fid"));
    ASSERT_FALSE(project.isEmpty());
    std::ostringstream out, err;
    ASSERT_EQ(cli::runCli({"fidelity", project.toStdString()}, out, err), 0) << err.str();

    gui::MainWindow window(gui::test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(project));
    ASSERT_EQ(window.runsModel()->rowCount(), 3);

    QTableView* list = window.runsPanel()->view();
    list->selectAll();
    const QList<int> ids = window.runsPanel()->selectedRunIds();
    ASSERT_EQ(ids.size(), 3);
    auto* button = window.runsPanel()->findChild<QPushButton*>();
    ASSERT_NE(button, nullptr);
    ASSERT_TRUE(button->isEnabled());
    button->click();
    EXPECT_EQ(window.tabs()->currentIndex(), gui::MainWindow::CompareTab);
    auto* compare = window.findChild<widgets::CompareView*>();
    ASSERT_NE(compare, nullptr);
    const widgets::CompareRuns& runs = compare->runs();
    ASSERT_EQ(runs.size(), 3u);

    // One column per model, in the order fidelity ran them, each named by its model and
    // carrying its backend.
    const NetworkBackend backends[] = {NetworkBackend::CongestionUnaware,
                                       NetworkBackend::CongestionAware, NetworkBackend::Packet};
    const QString labels[] = {QStringLiteral(": congestion-unaware"),
                              QStringLiteral(": congestion-aware"),
                              QStringLiteral(": packet (ns-3)")};
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_TRUE(runs[i].name.endsWith(labels[i])) << runs[i].name.toStdString();
        EXPECT_EQ(runs[i].spec.options.backend, backends[i]) << i;
        ASSERT_NE(runs[i].result, nullptr);
    }

    // The settings table highlights the backend, the one setting fidelity changes.
    const widgets::SettingsTableModel* settings = compare->settingsModel();
    const int backendRow = settings->rowOfKey("options.backend");
    ASSERT_GE(backendRow, 0);
    EXPECT_TRUE(
        settings->data(settings->index(backendRow, 1), widgets::SettingsTableModel::DiffersRole)
            .toBool());
    int differing = 0;
    for (int row = 0; row < settings->rowCount(); ++row)
        differing +=
            settings->data(settings->index(row, 1), widgets::SettingsTableModel::DiffersRole)
                .toBool();
    EXPECT_EQ(differing, 1);

    // The end times are the models' own: on the quick start's 8-NPU ring the two analytical
    // models agree (one chunk at a time, no contention) and the packet tier adds TCP's handshake,
    // slow start and headers (docs/network-models.md: +1.0 %), within 5 %.
    const double unaware = static_cast<double>(runs[0].result->endTime.ps());
    const double aware = static_cast<double>(runs[1].result->endTime.ps());
    const double packet = static_cast<double>(runs[2].result->endTime.ps());
    EXPECT_EQ(unaware, aware);
    EXPECT_GT(packet, aware);
    EXPECT_LT(packet, aware * 1.05);

    // Aligned: the Timelines sub-tab stacks the three on one axis, the longest run's (packet).
    compare->tabs()->setCurrentIndex(1);
    widgets::AlignedTimelines* aligned = compare->timelines();
    ASSERT_EQ(aligned->count(), 3);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(aligned->timeline(i)->mapper().limitEnd(), static_cast<int64_t>(packet)) << i;
        EXPECT_EQ(aligned->timeline(i)->mapper().t1(), static_cast<int64_t>(packet)) << i;
    }
    QTest::qWait(100);
    gui::test::saveScreenshot(window, QStringLiteral("compare_fidelity_timelines.png"));
    compare->tabs()->setCurrentIndex(0);
    QTest::qWait(100);
    gui::test::saveScreenshot(window, QStringLiteral("compare_fidelity_table.png"));
    window.close();
}
