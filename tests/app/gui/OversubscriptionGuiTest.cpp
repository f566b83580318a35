// A run whose links are busy longer than the run (congestion-unaware model): the Utilization
// tab flags it, and one click runs the same settings under the congestion-aware model.
#include "GuiTestSupport.h"
#include "TestPaths.h"
#include "gui/MainWindow.h"
#include "gui/ProjectDocument.h"
#include "gui/RunsPanel.h"
#include "gui/RunsTableModel.h"
#include "record/Oversubscription.h"
#include "utilization/DimensionStatsModel.h"
#include "utilization/SummaryPanel.h"
#include "utilization/UtilizationView.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

TEST(GuiIntegration, OversubscribedLinksAreFlaggedAndRunAgainCongestionAwareFixesThem) {
    // The HGX-H100 example with a 64 MiB all-reduce: under the congestion-unaware model 16
    // NVLink links are busy 126.7% of the run (the CLI test measures the same figure).
    QTemporaryDir dir;
    QFile in(QString::fromStdString(ASTROLABE_SOURCE_DIR + "/projects/hgx-h100/project.yaml"));
    ASSERT_TRUE(in.open(QIODevice::ReadOnly));
    QString yaml = QString::fromUtf8(in.readAll());
    ASSERT_TRUE(yaml.contains(QStringLiteral("size: 1 MiB")));
    yaml.replace(QStringLiteral("size: 1 MiB"), QStringLiteral("size: 64 MiB"));
    QDir().mkpath(dir.filePath(QStringLiteral("hgx")));
    const QString project = dir.filePath(QStringLiteral("hgx/project.yaml"));
    QFile out(project);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(yaml.toUtf8());
    out.close();

    MainWindow window(gui::test::testServices(dir));
    window.setAskBeforeDiscarding(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openProject(project));
    QSignalSpy stored(&window, &MainWindow::runStored);
    ASSERT_GT(window.startRun(), 0);
    ASSERT_TRUE(stored.count() > 0 || stored.wait(30000));
    // A copy: the store's records may move when the second run is added below.
    const gui::RunRecord unaware = window.runsModel()->store()->at(0);
    ASSERT_EQ(unaware.status, gui::RunStatus::Finished) << unaware.message.toStdString();
    window.runsPanel()->selectRun(unaware.id);
    window.tabs()->setCurrentIndex(MainWindow::UtilizationTab);
    auto* view =
        window.tabs()->widget(MainWindow::UtilizationTab)->findChild<widgets::UtilizationView*>();
    ASSERT_NE(view, nullptr);
    widgets::SummaryPanel* summary = view->summary();
    ASSERT_TRUE(
        gui::test::waitUntil([summary] { return !summary->oversubscriptionText().isEmpty(); }));
    const QString banner = summary->oversubscriptionText();
    EXPECT_TRUE(banner.contains(QStringLiteral("16 links busy longer than the run (up to 126.7%)")))
        << banner.toStdString();
    EXPECT_TRUE(summary->congestionAwareButton()->isVisible());

    // The dimension table marks the figure instead of showing a bare "126.7 %".
    widgets::DimensionStatsModel* dims = summary->dimensionModel();
    bool marked = false;
    for (int row = 0; row < dims->rowCount(); ++row) {
        const QModelIndex cell = dims->index(row, widgets::DimensionStatsModel::Utilization);
        if (!cell.data().toString().contains(QChar(0x26a0)))
            continue;
        marked = true;
        EXPECT_TRUE(
            cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("congestion-unaware")));
        EXPECT_TRUE(cell.data(Qt::ForegroundRole).isValid());
    }
    EXPECT_TRUE(marked) << "no dimension row shows the over-100% mark";
    gui::test::saveScreenshot(window, QStringLiteral("guiint-9-oversubscribed.png"));

    // One click queues the same settings under the congestion-aware model; the project is
    // not changed.
    QTest::mouseClick(summary->congestionAwareButton(), Qt::LeftButton);
    ASSERT_TRUE(stored.count() > 1 || stored.wait(60000));
    ASSERT_EQ(window.runsModel()->rowCount(), 2);
    const gui::RunRecord& aware = window.runsModel()->store()->at(1);
    ASSERT_EQ(aware.status, gui::RunStatus::Finished) << aware.message.toStdString();
    EXPECT_TRUE(aware.name.endsWith(QStringLiteral("(congestion-aware)")))
        << aware.name.toStdString();
    EXPECT_EQ(aware.spec.options.backend, NetworkBackend::CongestionAware);
    EXPECT_EQ(window.document()->spec().options.backend, unaware.spec.options.backend);
    EXPECT_FALSE(window.isWindowModified());
    ASSERT_TRUE(aware.result);
    EXPECT_FALSE(findOversubscription(*aware.result).any());
    EXPECT_GT(aware.simulatedTime, unaware.simulatedTime) << "shared bandwidth takes longer";
    window.runsPanel()->selectRun(aware.id);
    ASSERT_TRUE(
        gui::test::waitUntil([summary] { return summary->oversubscriptionText().isEmpty(); }));
    EXPECT_FALSE(summary->congestionAwareButton()->isVisible());
}
