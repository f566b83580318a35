// "Sweep this setting…": the values a range or list makes, the sweep file written beside the
// project (read back by the engine's planner), and the whole path from the configuration
// panel's field to 3 stored points.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "config/ConfigurationPanel.h"
#include "gui/MainWindow.h"
#include "gui/SweepController.h"
#include "gui/SweepSettingDialog.h"
#include "sweep/SweepPlan.h"
#include "sweep/SweepView.h"
#include "topology/DimensionRow.h"
#include "topology/DimensionStack.h"
#include "topology/TopologyEditor.h"

#include <QApplication>
#include <QCheckBox>
#include <QContextMenuEvent>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTimer>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

using Values = std::vector<std::string>;

TEST(SweepSetting, RangesAreEvenOrInEqualRatiosWithTheBoundsUnit) {
    // 50 to 400 in 8 steps: a step of (400 - 50) / 7 = 50.
    EXPECT_EQ(sweepRangeValues("50 GiB/s", "400 GiB/s", 8, false),
              (Values{"50 GiB/s", "100 GiB/s", "150 GiB/s", "200 GiB/s", "250 GiB/s", "300 GiB/s",
                      "350 GiB/s", "400 GiB/s"}));
    // 1 to 128 in 8 steps on a log scale: a ratio of 128^(1/7) = 2.
    EXPECT_EQ(sweepRangeValues("1", "128", 8, true),
              (Values{"1", "2", "4", "8", "16", "32", "64", "128"}));
    EXPECT_EQ(sweepRangeValues("2 us", "1 us", 3, false), (Values{"2 us", "1.5 us", "1 us"}));
    EXPECT_THROW(sweepRangeValues("50 GiB/s", "400 GB/s", 4, false), Error);
    EXPECT_THROW(sweepRangeValues("0", "8", 4, true), Error);
    EXPECT_THROW(sweepRangeValues("fast", "8", 4, false), Error);
    EXPECT_THROW(sweepRangeValues("1", "8", 1, false), Error);
    EXPECT_EQ(sweepListValues(" 1, 2 ,, 4 "), (Values{"1", "2", "4"}));
    EXPECT_EQ(sweepAxisName("platform.dimensions[0].bandwidth"), "bandwidth");
    EXPECT_EQ(sweepAxisName("system.endpoint-delay"), "endpoint_delay");
}

TEST(SweepSetting, TheFileBesideTheProjectPlansOnePointPerValue) {
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("project.yaml"));
    ASSERT_TRUE(QFile::copy(
        QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/torus-2d/project.yaml"), project));
    const QString path =
        writeSettingSweep(project, QStringLiteral("system.chunks"), {"1", "4", "16"});
    EXPECT_EQ(path, dir.filePath(QStringLiteral("sweep-chunks.yaml")));
    const SweepPlan plan = planSweep(path.toStdString());
    EXPECT_EQ(plan.file.name, "project by chunks");
    ASSERT_EQ(plan.points.size(), 3u);
    EXPECT_EQ(plan.point(2).label(), "chunks=16");
    EXPECT_TRUE(plan.points[2].runnable());
    EXPECT_EQ(plan.work(2).spec.system.preferredDatasetSplits, 16);
    // The same values reuse the file (a second run resumes it); others get a new one.
    EXPECT_EQ(writeSettingSweep(project, QStringLiteral("system.chunks"), {"1", "4", "16"}), path);
    EXPECT_EQ(writeSettingSweep(project, QStringLiteral("system.chunks"), {"2", "8"}),
              dir.filePath(QStringLiteral("sweep-chunks-2.yaml")));
}

/// The 2-D torus example copied into a temporary folder and open in a main window.
struct TorusWindow {
    QTemporaryDir dir;
    MainWindow window{test::testServices(dir)};
    bool open() {
        const QString project = dir.filePath(QStringLiteral("project.yaml"));
        window.setAskBeforeDiscarding(false);
        return QFile::copy(
                   QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/torus-2d/project.yaml"),
                   project) &&
               window.openProject(project);
    }
};

TEST(SweepSetting, FromTheConfigurationFieldToStoredPoints) {
    TorusWindow torus;
    ASSERT_TRUE(torus.open());
    MainWindow& window = torus.window;
    QTemporaryDir& dir = torus.dir;
    QSignalSpy finished(window.sweepController(), &SweepController::finished);
    bool dialogSeen = false;
    QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<SweepSettingDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        dialogSeen = true;
        EXPECT_EQ(dialog->fromEdit()->text(), QStringLiteral("4")); // the project's value now
        dialog->listMode()->setChecked(true);
        dialog->listEdit()->setText(QStringLiteral("1, 4, 16"));
        dialog->accept();
    });
    ASSERT_TRUE(window.configurationPanel()->requestSweep(QStringLiteral("system.chunks")));
    ASSERT_TRUE(dialogSeen);
    ASSERT_TRUE(test::waitUntil([&] { return !finished.isEmpty(); }, 60000));
    EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("sweep-chunks.yaml"))));
    EXPECT_EQ(window.sweepView()->model()->rowCount(), 3);
    EXPECT_EQ(window.sweepView()->model()->finished(), 3u);
    EXPECT_EQ(window.sweepView()->model()->axisNames(), (Values{"chunks"}));
}

// The topology editor's stack menu offers "Sweep d1 > bandwidth…" for the dimension under the
// cursor; it writes a sweep of platform.dimensions.1.bandwidth and runs it.
TEST(SweepSetting, FromATopologyDimensionToStoredPoints) {
    TorusWindow torus;
    ASSERT_TRUE(torus.open());
    MainWindow& window = torus.window;
    auto* editor = window.findChild<widgets::TopologyEditor*>();
    ASSERT_NE(editor, nullptr);
    widgets::DimensionStack* stack = editor->dimensionStack();
    QSignalSpy finished(window.sweepController(), &SweepController::finished);
    bool dialogSeen = false, menuSeen = false;
    QTimer::singleShot(0, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu)
            return;
        QAction* bandwidth = nullptr;
        for (QAction* a : menu->actions())
            if (a->menu() && a->text() == QStringLiteral("Sweep d1"))
                for (QAction* b : a->menu()->actions())
                    if (b->text() == QStringLiteral("bandwidth…"))
                        bandwidth = b;
        if (!bandwidth)
            return;
        menuSeen = true;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<SweepSettingDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            dialogSeen = true;
            EXPECT_EQ(dialog->fromEdit()->text(), QStringLiteral("50 GiB/s")); // d1 now
            dialog->listMode()->setChecked(true);
            dialog->listEdit()->setText(QStringLiteral("25 GiB/s, 50 GiB/s"));
            dialog->accept();
        });
        menu->close();
        bandwidth->trigger();
    });
    const QPoint at = stack->row(1)->geometry().center();
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, stack->mapToGlobal(at));
    QApplication::sendEvent(stack, &event);
    ASSERT_TRUE(menuSeen);
    ASSERT_TRUE(dialogSeen);
    ASSERT_TRUE(test::waitUntil([&] { return !finished.isEmpty(); }, 60000));
    EXPECT_EQ(window.sweepView()->model()->rowCount(), 2);
    EXPECT_EQ(window.sweepView()->model()->finished(), 2u);
    EXPECT_EQ(window.sweepView()->model()->axisNames(), (Values{"bandwidth"}));
}
