// The parallelism planner in a real X window (Xvfb; ctest runs this executable under xvfb-run):
// the quickstart's 8 NPUs, GPT-2 350M in the model builder, Plan, then the 8 best estimates
// simulated on two threads while the event loop is measured. Screenshot:
// screenshots/planner-1-gpt2-350m.png (the table sorted by simulated time, the selected
// candidate's memory and arguments, the scatter of estimated against simulated time).
#include "GapMeter.h"
#include "GuiTestSupport.h"
#include "generator/ModelBuilderPanel.h"
#include "generator/PlanCandidatesModel.h"
#include "generator/PlannerPanel.h"
#include "gui/MainWindow.h"
#include "gui/PlannerSession.h"

#include <QGuiApplication>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>
#include <iostream>

using namespace astrolabe;
using namespace astrolabe::gui;

TEST(GuiScenario, PlannerRanksSimulatesAndShowsTheScatterInARealWindow) {
    ASTROLABE_SKIP_UNLESS_REAL_WINDOW();
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1440, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.tabs()->setCurrentIndex(MainWindow::WorkloadTab);
    ASSERT_TRUE(window.modelBuilder()->applyPreset(QStringLiteral("gpt2-350m")));
    widgets::PlannerPanel* panel = window.tabs()->planner();
    auto* scroll = window.tabs()->findChild<QScrollArea*>(QStringLiteral("workloadTab"));
    ASSERT_NE(scroll, nullptr);
    scroll->ensureWidgetVisible(panel, 0, 0);
    QTest::qWait(100);

    QSignalSpy planned(window.planner(), &PlannerSession::planned);
    panel->planButton()->click();
    ASSERT_TRUE(planned.wait(60000)) << panel->statusText().toStdString();
    ASSERT_TRUE(planned.at(0).at(0).toBool()) << panel->statusText().toStdString();
    ASSERT_GT(panel->model()->rowCount(), 8);

    QSignalSpy simulated(window.planner(), &PlannerSession::simulated);
    panel->topKBox()->setValue(8);
    test::GapMeter meter;
    panel->simulateButton()->click();
    ASSERT_TRUE(simulated.wait(300000));
    meter.stop();
    std::cout << "[ planner ] 8 simulations: " << meter.describe() << "\n";
    if (meter.steady())
        EXPECT_LT(meter.maxGapMs(), 100) << "simulating stalls the event loop";
    else
        std::cout << meter.unsteadyNote();
    EXPECT_EQ(panel->scatter()->count(), 8);
    std::cout << "[ planner ] " << panel->statusText().toStdString() << "\n";

    panel->table()->sortByColumn(widgets::PlanCandidatesModel::Simulated, Qt::AscendingOrder);
    panel->table()->selectRow(0);
    panel->table()->scrollToTop();
    scroll->ensureWidgetVisible(panel, 0, 0);
    QTest::qWait(200);
    test::saveScreenshot(window, QStringLiteral("planner-1-gpt2-350m.png"));
}
