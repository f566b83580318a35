// "Sweep this setting…": the values a range or list makes, the sweep file written beside the
// project (read back by the engine's planner), and the whole path from the configuration
// panel's field to 3 stored points.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "compare/CompareView.h"
#include "config/ConfigurationPanel.h"
#include "gui/MainWindow.h"
#include "gui/ProjectController.h"
#include "gui/ProjectDocument.h"
#include "gui/SweepController.h"
#include "gui/SweepSettingDialog.h"
#include "gui/WorkspaceTabs.h"
#include "sweep/SweepPlan.h"
#include "sweep/SweepView.h"
#include "topology/DimensionRow.h"
#include "topology/DimensionStack.h"
#include "topology/TopologyEditor.h"

#include <QApplication>
#include <QCheckBox>
#include <QContextMenuEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTimer>
#include <functional>
#include <gtest/gtest.h>
#include <set>

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

namespace {
/// Right-clicks `target` at `at` and triggers `action` of the menu that pops up (inside its
/// submenu `submenu` when one is named); `onDialog` then gets the sweep dialog the action opens.
/// Returns the menu's item texts; `dialogSeen` says whether the dialog came.
QStringList chooseFromContextMenu(QWidget* target, QPoint at, const QString& submenu,
                                  const QString& action,
                                  const std::function<void(SweepSettingDialog*)>& onDialog,
                                  bool& dialogSeen) {
    QStringList items;
    QTimer poll; // looks for the action's dialog until it is up
    QObject::connect(&poll, &QTimer::timeout, [&] {
        auto* dialog = qobject_cast<SweepSettingDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        poll.stop();
        dialogSeen = true;
        onDialog(dialog);
    });
    QTimer::singleShot(0, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu)
            return;
        QAction* chosen = nullptr;
        for (QAction* a : menu->actions()) {
            items << a->text();
            if (submenu.isEmpty() && a->text() == action)
                chosen = a;
            if (!submenu.isEmpty() && a->menu() && a->text() == submenu)
                for (QAction* b : a->menu()->actions())
                    if (b->text() == action)
                        chosen = b;
        }
        if (!chosen) {
            menu->close(); // not offered: the test fails rather than waits on the menu
            return;
        }
        poll.start(10); // the dialog may open at once or from a queued call
        menu->close();
        chosen->trigger();
    });
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, target->mapToGlobal(at));
    QApplication::sendEvent(target, &event);
    test::waitUntil([&] { return dialogSeen; }, 3000);
    return items;
}
} // namespace

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
        EXPECT_EQ(dialog->listEdit()->text(), QStringLiteral("1, 2, 4, 8, 16")); // around 4 now
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
    bool dialogSeen = false;
    chooseFromContextMenu(
        stack, stack->row(1)->geometry().center(), QStringLiteral("Sweep d1"),
        QStringLiteral("bandwidth…"),
        [](SweepSettingDialog* dialog) {
            // d1 is 50 GiB/s now: half to double it, on a log scale.
            EXPECT_EQ(dialog->fromEdit()->text(), QStringLiteral("25 GiB/s"));
            EXPECT_EQ(dialog->toEdit()->text(), QStringLiteral("100 GiB/s"));
            dialog->listMode()->setChecked(true);
            dialog->listEdit()->setText(QStringLiteral("25 GiB/s, 50 GiB/s"));
            dialog->accept();
        },
        dialogSeen);
    ASSERT_TRUE(dialogSeen);
    ASSERT_TRUE(test::waitUntil([&] { return !finished.isEmpty(); }, 60000));
    EXPECT_EQ(window.sweepView()->model()->rowCount(), 2);
    EXPECT_EQ(window.sweepView()->model()->finished(), 2u);
    EXPECT_EQ(window.sweepView()->model()->axisNames(), (Values{"bandwidth"}));
}

// "4 to 4, 5 steps" made five identical values (issue #53, Researcher 4): the dialog starts on
// five distinct values around the current one.
TEST(SweepSetting, TheDialogStartsOnFiveDistinctValuesAroundTheCurrentOne) {
    const SweepStart count = sweepStartFor("4");
    EXPECT_TRUE(count.list);
    EXPECT_EQ(sweepListValues(count.listText), (Values{"1", "2", "4", "8", "16"}));
    EXPECT_EQ(sweepRangeValues(count.from, count.to, count.steps, count.log),
              (Values{"1", "2", "4", "8", "16"})); // the range, should the reader pick it
    EXPECT_EQ(sweepListValues(sweepStartFor("1").listText), (Values{"1", "2", "4"}));
    const SweepStart bandwidth = sweepStartFor("50 GiB/s");
    EXPECT_FALSE(bandwidth.list);
    EXPECT_TRUE(bandwidth.log);
    // 25 to 100 on a log scale in 5 steps: a ratio of 4^(1/4) = sqrt 2.
    EXPECT_EQ(sweepRangeValues(bandwidth.from, bandwidth.to, bandwidth.steps, bandwidth.log),
              (Values{"25 GiB/s", "35.3553 GiB/s", "50 GiB/s", "70.7107 GiB/s", "100 GiB/s"}));
    EXPECT_EQ(sweepStartFor("936.25 ns").from, "468.125 ns");
    EXPECT_TRUE(sweepStartFor("LIFO").list);
    EXPECT_EQ(sweepStartFor("LIFO").listText, "LIFO");
    EXPECT_TRUE(sweepStartFor("0").list);
    SweepSettingDialog dialog(QStringLiteral("system.chunks"), QStringLiteral("Chunks"),
                              QStringLiteral("4"));
    std::set<std::string> distinct;
    for (const std::string& v : dialog.values())
        distinct.insert(v);
    EXPECT_EQ(distinct.size(), 5u);
}

// "Sweep this setting…" was only on a field's label (issue #53, Researcher 4): the input's own
// right-click menu offers it after its usual items, and it opens the sweep dialog.
TEST(SweepSetting, TheInputsContextMenuOffersIt) {
    TorusWindow torus;
    ASSERT_TRUE(torus.open());
    MainWindow& window = torus.window;
    window.show();
    QWidget* input = window.configurationPanel()->editorForKey(QStringLiteral("system.chunks"));
    ASSERT_NE(input, nullptr);
    QWidget* target = input->findChild<QLineEdit*>() ? input->findChild<QLineEdit*>() : input;
    bool dialogSeen = false;
    const QStringList items = chooseFromContextMenu(
        target, target->rect().center(), QString(), QStringLiteral("Sweep this setting…"),
        [](SweepSettingDialog* dialog) { dialog->reject(); }, dialogSeen);
    EXPECT_TRUE(dialogSeen) << items.join(u'|').toStdString();
    EXPECT_GT(items.size(), 2) << "the input's own items (Copy, Paste...) come first";
}

// Without a saved project it said "Save the project first" (issue #53, Researcher 4): it offers
// to save, and after saving goes on to the sweep dialog.
TEST(SweepSetting, AnUnsavedProjectIsOfferedToBeSaved) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    ASSERT_TRUE(window.document()->path().isEmpty());
    const QString target = dir.filePath(QStringLiteral("saved/project.yaml"));
    QDir().mkpath(dir.filePath(QStringLiteral("saved")));
    window.projectController()->setPrompts({{}, [&target](const QString&) { return target; }});
    bool offered = false, dialogSeen = false;
    QTimer::singleShot(0, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || box->objectName() != QStringLiteral("saveBeforeSweep"))
            return;
        offered = true;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<SweepSettingDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            dialogSeen = true;
            dialog->reject();
        });
        box->button(QMessageBox::Save)->click();
    });
    window.configurationPanel()->requestSweep(QStringLiteral("system.chunks"));
    EXPECT_TRUE(offered);
    EXPECT_EQ(window.document()->path(), target);
    EXPECT_TRUE(QFile::exists(target));
    EXPECT_TRUE(dialogSeen);
}

// After opening another project the Compare tab kept the old project's runs and the Sweep tab
// the previous sweep (issue #53, Researcher 5): both follow the open project.
TEST(SweepSetting, CompareAndSweepTabsFollowTheOpenProject) {
    TorusWindow torus;
    ASSERT_TRUE(torus.open());
    MainWindow& window = torus.window;
    widgets::SweepView* sweep = window.sweepView();
    std::vector<widgets::SweepRow> rows(3);
    for (size_t i = 0; i < rows.size(); ++i) {
        rows[i].values = {std::to_string(1 << i)};
        rows[i].summary.index = i;
        rows[i].summary.status = widgets::SweepPointStatus::Ok;
        rows[i].summary.endTime = SimTime::fromUs(10 * static_cast<int64_t>(i + 1));
    }
    sweep->model()->setRows({"chunks"}, rows);
    sweep->setTitle(QStringLiteral("project by chunks"));
    RunRecord a, b;
    a.id = 1;
    b.id = 2;
    a.name = QStringLiteral("first");
    b.name = QStringLiteral("second");
    a.spec = b.spec = window.document()->spec();
    window.tabs()->compareRuns({&a, &b});
    auto* compare = window.findChild<widgets::CompareView*>();
    ASSERT_NE(compare, nullptr);
    ASSERT_EQ(compare->runs().size(), 2u);

    QDir().mkpath(torus.dir.filePath(QStringLiteral("other")));
    const QString other = torus.dir.filePath(QStringLiteral("other/project.yaml"));
    ASSERT_TRUE(QFile::copy(
        QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/quickstart/project.yaml"), other));
    ASSERT_TRUE(window.openProject(other));
    EXPECT_TRUE(compare->runs().empty());
    EXPECT_EQ(sweep->model()->rowCount(), 0);
    EXPECT_EQ(sweep->title()->text(), widgets::SweepView::noSweepText());
}
