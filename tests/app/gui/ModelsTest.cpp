// Every item model of the shell passes QAbstractItemModelTester while it changes, and the runs
// model does what its cells say.
#include "common/LogModel.h"
#include "graph/GraphGenerators.h"
#include "gui/Presets.h"
#include "gui/ProjectExplorer.h"
#include "gui/RunsTableModel.h"

#include <QAbstractItemModelTester>
#include <QStandardItemModel>
#include <gtest/gtest.h>
#include <malloc.h>

using namespace astrolabe;
using namespace astrolabe::gui;

namespace {
RunRecord finishedRun(const QString& name, int64_t endNs) {
    RunRecord r;
    r.name = name;
    r.started = QDateTime(QDate(2026, 11, 21), QTime(9, 30));
    r.status = RunStatus::Finished;
    r.simulatedTime = SimTime::fromNs(endNs);
    r.wallSeconds = 0.25;
    r.spec = preset(QStringLiteral("quickstart")).spec;
    return r;
}
} // namespace

TEST(RunsTableModel, PassesTheModelTesterThroughAddRenameTagAndDelete) {
    InMemoryRunStore store;
    RunsTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setStore(&store);
    EXPECT_EQ(model.rowCount(), 0);
    const int a = model.addRun(finishedRun(QStringLiteral("first"), 12345));
    RunRecord failed;
    failed.name = QStringLiteral("second");
    failed.status = RunStatus::Failed;
    failed.message = QStringLiteral("endpoint delay must be whole nanoseconds\nhint: ...");
    const int b = model.addRun(failed);
    EXPECT_NE(a, b);
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.columnCount(), RunsTableModel::ColumnCount);

    EXPECT_EQ(model.index(0, RunsTableModel::Name).data().toString(), QStringLiteral("first"));
    EXPECT_EQ(model.index(0, RunsTableModel::Date).data().toString(),
              QStringLiteral("2026-11-21 09:30:00"));
    // The GUI writes µ; files and the CLI write "us".
    EXPECT_EQ(model.index(0, RunsTableModel::SimulatedTime).data().toString(),
              QStringLiteral("12.345 µs"));
    EXPECT_EQ(model.index(0, RunsTableModel::WallTime).data().toString(),
              QStringLiteral("250.0 ms"));
    const QString settings = model.index(0, RunsTableModel::Settings).data().toString();
    EXPECT_TRUE(settings.contains(QStringLiteral("8 NPUs"))) << settings.toStdString();
    EXPECT_TRUE(settings.contains(QStringLiteral("all-reduce 1 MiB"))) << settings.toStdString();
    EXPECT_TRUE(settings.contains(QStringLiteral("4 chunks"))) << settings.toStdString();
    EXPECT_EQ(model.index(1, RunsTableModel::Status).data().toString(), QStringLiteral("Failed"));
    EXPECT_EQ(model.index(1, RunsTableModel::Status).data(Qt::ToolTipRole).toString(),
              failed.message);
    EXPECT_FALSE(model.index(0, RunsTableModel::Status).data(Qt::ToolTipRole).isValid());
    EXPECT_EQ(model.index(1, RunsTableModel::SimulatedTime).data().toString(),
              QStringLiteral("\u2014"));

    // Editing through the model, as a view's delegate does.
    EXPECT_TRUE(model.setData(model.index(0, RunsTableModel::Name), QStringLiteral("baseline")));
    EXPECT_FALSE(model.setData(model.index(0, RunsTableModel::Name), QStringLiteral("  ")));
    EXPECT_TRUE(
        model.setData(model.index(0, RunsTableModel::Tags), QStringLiteral("ring, paper, ring ,")));
    EXPECT_TRUE(model.setData(model.index(0, RunsTableModel::Notes), QStringLiteral("reference")));
    EXPECT_FALSE(model.setData(model.index(0, RunsTableModel::Status), QStringLiteral("x")));
    EXPECT_EQ(store.at(0).name, QStringLiteral("baseline"));
    EXPECT_EQ(store.at(0).tags, (QStringList{QStringLiteral("ring"), QStringLiteral("paper")}));
    EXPECT_EQ(model.index(0, RunsTableModel::Tags).data().toString(),
              QStringLiteral("ring, paper"));
    EXPECT_EQ(store.at(0).notes, QStringLiteral("reference"));
    EXPECT_TRUE(model.flags(model.index(0, RunsTableModel::Name)) & Qt::ItemIsEditable);
    EXPECT_FALSE(model.flags(model.index(0, RunsTableModel::Date)) & Qt::ItemIsEditable);

    EXPECT_TRUE(model.removeRun(a));
    EXPECT_FALSE(model.removeRun(a));
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.idAt(0), b);
    model.setStore(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(ProjectExplorer, TreeModelPassesTheModelTesterAndListsTheProject) {
    ProjectExplorer explorer;
    QAbstractItemModelTester tester(explorer.treeModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    const SimulationSpec torus = preset(QStringLiteral("torus-2d")).spec;
    explorer.showProject(QStringLiteral("Torus"), torus);
    InMemoryRunStore store;
    store.add(finishedRun(QStringLiteral("r1"), 10));
    store.add(finishedRun(QStringLiteral("r2"), 20));
    explorer.showRuns(&store);
    QStandardItemModel* m = explorer.treeModel();
    ASSERT_EQ(m->rowCount(), 6); // project, platform, system, memory, workload, runs
    EXPECT_EQ(m->item(1)->text(), QStringLiteral("Platform \u2014 16 NPUs"));
    EXPECT_EQ(m->item(2)->child(0)->text(), QStringLiteral("4 chunks per collective"));
    EXPECT_EQ(m->item(1)->rowCount(), 2) << "one row per dimension";
    EXPECT_EQ(m->item(5)->text(), QStringLiteral("Runs (2)"));
    EXPECT_EQ(m->item(5)->child(1)->data(ProjectExplorer::RunIdRole).toInt(), store.at(1).id);
    store.remove(store.at(0).id);
    explorer.showRuns(&store);
    EXPECT_EQ(m->item(5)->rowCount(), 1);
    explorer.showProject(QStringLiteral("Quick"), preset(QStringLiteral("quickstart")).spec);
    EXPECT_EQ(m->item(1)->rowCount(), 1);
}

// Every memory type has its words in the tree (the pooled memory, added last, once read past
// the end of a four-name table).
TEST(ProjectExplorer, EveryMemoryTypeIsDescribed) {
    ProjectExplorer explorer;
    SimulationSpec spec = preset(QStringLiteral("quickstart")).spec;
    const char* expected[] = {"no remote memory", "per-node memory, 64 GB/s",
                              "per-NPU memory, 64 GB/s", "memory pool, 64 GB/s",
                              "pooled: 256 groups x 64 GB/s, 512 GB/s ports"};
    spec.memory.bandwidthBytesPerNs = 64;
    spec.memory.groups = 256;
    spec.memory.fabricBytesPerNs = 512;
    for (int t = 0; t <= static_cast<int>(RemoteMemoryType::Pooled); ++t) {
        spec.memory.type = static_cast<RemoteMemoryType>(t);
        explorer.showProject(QStringLiteral("Quick"), spec);
        EXPECT_EQ(explorer.treeModel()->item(3)->child(0)->text(), QString::fromUtf8(expected[t]))
            << t;
    }
}

TEST(LogModel, PassesTheModelTester) {
    widgets::LogModel log;
    QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::Fatal);
    log.append(widgets::LogModel::Severity::Info, QStringLiteral("hello"));
    log.append(widgets::LogModel::Severity::Error, QStringLiteral("bad"));
    EXPECT_EQ(log.rowCount(), 2);
    EXPECT_EQ(log.index(1).data(widgets::LogModel::SeverityRole).toInt(),
              static_cast<int>(widgets::LogModel::Severity::Error));
    log.clear();
    EXPECT_EQ(log.rowCount(), 0);
}

// A long session's log keeps its newest rows only (the soak scenario adds six a loop).
TEST(LogModel, KeepsTheNewestRowsOnly) {
    using widgets::LogModel;
    LogModel log;
    for (int i = 0; i < LogModel::kMaxRows; ++i)
        log.append(LogModel::Severity::Info, QStringLiteral("message %1").arg(i));
    EXPECT_EQ(log.rowCount(), LogModel::kMaxRows);
    // The tester checks every row at each change, so it watches only the append that removes.
    QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::Fatal);
    log.append(LogModel::Severity::Info, QStringLiteral("message %1").arg(LogModel::kMaxRows));
    EXPECT_EQ(log.rowCount(), LogModel::kMaxRows - LogModel::kDropRows + 1);
    EXPECT_TRUE(log.index(0).data().toString().endsWith(
        QStringLiteral("message %1").arg(LogModel::kDropRows)));
    EXPECT_TRUE(log.index(log.rowCount() - 1)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("message %1").arg(LogModel::kMaxRows)));
}

// A full log must stay small beside the window's own memory (the soak's budget is 10 % of its
// resident memory): a row of 80 characters, held as UTF-8, takes well under 200 bytes of heap.
TEST(LogModel, AFullLogHoldsUnderTwoHundredBytesARow) {
    using widgets::LogModel;
    const QString message =
        QStringLiteral("Run 'torus 4x4, 1 MiB all-reduce' finished: 1234567 cycles on 16 NPUs ");
    const auto heapInUse = [] { return static_cast<double>(mallinfo2().uordblks); };
    LogModel log;
    const double before = heapInUse();
    for (int i = 0; i < LogModel::kMaxRows; ++i)
        log.append(LogModel::Severity::Info, message + QString::number(i));
    const double perRow = (heapInUse() - before) / LogModel::kMaxRows;
    EXPECT_LT(perRow, 200.0) << "bytes of heap per log row";
}

// A 4x4 mesh graph's one logical dimension is a Ring of 16 to the collectives, but the runs list
// called the platform "Ring 16" (issue #53, Researcher 6): it names the graph.
TEST(RunsTableModel, AGraphPlatformIsNamedAsTheGraph) {
    SimulationSpec spec = preset(QStringLiteral("quickstart")).spec;
    GraphGeneratorSpec mesh;
    mesh.name = "mesh2d";
    mesh.size = {4, 4};
    mesh.bandwidthBytesPerSecond = 50e9;
    mesh.latencyNs = 500;
    GraphSpec graph = generateGraph(mesh);
    graph.generator = "mesh2d 4x4";
    spec.platform = graphPlatform(graph);
    const QString text = keySettings(spec);
    EXPECT_TRUE(text.startsWith(QStringLiteral("16 NPUs \u00B7 graph mesh2d 4x4 \u00B7")))
        << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("Ring"))) << text.toStdString();
    // The project explorer too: the graph, not "Dim 0: Ring x 16".
    ProjectExplorer explorer;
    explorer.showProject(QStringLiteral("Mesh"), spec);
    QStandardItemModel* m = explorer.treeModel();
    ASSERT_EQ(m->item(1)->rowCount(), 1);
    const QString detail = m->item(1)->child(0)->text();
    EXPECT_TRUE(detail.startsWith(QStringLiteral("Graph mesh2d 4x4: 0 switches, ")))
        << detail.toStdString();
    EXPECT_FALSE(detail.contains(QStringLiteral("Ring"))) << detail.toStdString();
}
