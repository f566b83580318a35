// Issue #53, Researcher 1, in the main window: a Switch dimension dragged under the quick
// start's Ring 8 gets its own algorithm in every list, so a 64 MiB all-reduce moves bytes on
// both dimensions; a list the user then cuts back to [ring] leaves the Switch idle, and the
// run's summary (Utilization tab) says so.
#include "GuiTestSupport.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/RunsTableModel.h"
#include "spec/AlgorithmLists.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyEditor.h"
#include "utilization/SummaryPanel.h"
#include "utilization/UtilizationView.h"

#include <QSignalSpy>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {

constexpr uint64_t kSize = 64ull << 20;

/// Runs the open project in the window and returns its result, the Utilization tab showing it.
std::shared_ptr<const RunResult> runShown(MainWindow& window) {
    QSignalSpy stored(&window, &MainWindow::runStored);
    if (window.startRun() <= 0)
        return nullptr;
    if (!test::waitUntil([&] { return !stored.isEmpty(); }, 60000))
        return nullptr;
    window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
    QApplication::processEvents();
    const RunStore* store = window.runsModel()->store();
    return store->at(store->count() - 1).result;
}

QString summaryText(MainWindow& window) {
    auto* view = window.findChild<widgets::UtilizationView*>();
    return view ? view->summary()->figuresText() : QString();
}

} // namespace

TEST(PlatformEditRun, ADimensionDraggedInCarriesTheAllReduceOrTheSummarySaysWhyNot) {
    QTemporaryDir dir;
    MainWindow window(test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.resize(1400, 900);
    window.show();
    window.newProjectFromPreset(QStringLiteral("quickstart"));
    window.document()->applyEdit(
        {QStringLiteral("workload.microbenchmark.size"), QStringLiteral("64 MiB"),
         [](SimulationSpec& s) { s.workload.microbenchmark.sizeBytes = kSize; }});
    auto* editor = window.findChild<widgets::TopologyEditor*>();
    ASSERT_NE(editor, nullptr);
    const DimensionSpec ring = window.document()->spec().platform.dimensions.at(0);
    DimensionSpec sw = ring;
    sw.kind = BlockKind::Switch;
    sw.size = 4;
    editor->document()->insertDimensions(1, {sw}); // what dropping a Switch under the ring does
    ASSERT_EQ(window.document()->spec().platform.dimensions.size(), 2u);
    EXPECT_EQ(algorithmNames(window.document()->spec().system.allReduce), "ring, halvingDoubling");

    const auto both = runShown(window);
    ASSERT_NE(both, nullptr);
    ASSERT_EQ(both->dimensions.size(), 2u);
    // Ring all-reduce over dimension 0 as before: 32 NPUs x 2 (8 - 1) / 8 S = 56 S on its
    // links; halving-doubling over the Switch: 32 x 2 x 3/16 S = 12 S (IdleDimensionsTest).
    EXPECT_EQ(both->dimensions[0].bytes, 56 * kSize);
    EXPECT_EQ(both->dimensions[1].bytes, 12 * kSize);
    EXPECT_FALSE(summaryText(window).contains(QStringLiteral("Idle dimension")));
    test::saveScreenshot(window, QStringLiteral("issue53-switch-dragged-in-after.png"));

    // The user's own list, [ring]: the Switch idles, and the summary says so.
    window.document()->applyEdit(
        {QStringLiteral("system.algorithms"), QStringLiteral("[ring]"),
         [](SimulationSpec& s) { s.system.allReduce = {AlgorithmSpec{}}; }});
    const auto ringOnly = runShown(window);
    ASSERT_NE(ringOnly, nullptr);
    EXPECT_EQ(ringOnly->dimensions.at(1).bytes, 0u);
    const QString summary = summaryText(window);
    EXPECT_TRUE(summary.contains(QStringLiteral("Idle dimension"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("Dimension 1 (Switch, 4 NPUs) moved no data")))
        << summary.toStdString();
    test::saveScreenshot(window, QStringLiteral("issue53-idle-dimension-note.png"));
}
