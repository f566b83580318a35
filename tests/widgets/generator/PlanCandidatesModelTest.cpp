// The Planner panel's table shows the axes the candidates' labels abbreviate as columns of their
// own: context parallelism (cp), activation recomputation (none, selective, full) and offload,
// each sortable like the others, in a real QTableView (headless).
#include "generator/PlanCandidatesModel.h"

#include "engine/golden/GoldenSpec.h"
#include "plan/Planner.h"
#include "support/SmallGpt.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QTableView>
#include <gtest/gtest.h>
#include <memory>

using namespace astrolabe;
using astrolabe::widgets::PlanCandidatesModel;

namespace {

/// The small GPT on 8 NPUs (4 x 2 switches), global batch 16, with a per-NPU memory tier:
/// fused attention gives cp 2-8 and offload; unfused, selective recomputation.
std::shared_ptr<const plan::PlanResult> ranking(bool fused) {
    plan::PlanRequest request{test::smallGpt(), 8};
    request.base.training.globalBatch = 16;
    request.base.training.flashAttention = fused;
    RemoteMemoryConfig tier;
    tier.type = RemoteMemoryType::PerNpuMemoryExpansion;
    tier.bandwidthBytesPerNs = 10;
    plan::offloadTierOf(request, tier);
    const SimulationSpec s = golden::spec({golden::dim(BlockKind::Switch, 4, 300, 1000),
                                           golden::dim(BlockKind::Switch, 2, 25, 2000)});
    return std::make_shared<const plan::PlanResult>(
        plan::rankConfigurations(request, plan::NetworkCosts(s.platform, s.system)));
}

double sortValue(const PlanCandidatesModel& model, int row, int column) {
    return model.data(model.index(row, column), PlanCandidatesModel::SortRole).toDouble();
}

/// Sorts the view by `column` and checks the rows follow it; returns the first row's value.
double sortAndCheck(QTableView& view, const PlanCandidatesModel& model, int column,
                    Qt::SortOrder order) {
    view.sortByColumn(column, order);
    for (int row = 1; row < model.rowCount(); ++row) {
        const double a = sortValue(model, row - 1, column), b = sortValue(model, row, column);
        EXPECT_TRUE(order == Qt::AscendingOrder ? a <= b : a >= b)
            << "column " << column << " rows " << row - 1 << ", " << row;
    }
    return sortValue(model, 0, column);
}

} // namespace

TEST(PlanCandidatesModel, CpRecomputeAndOffloadAreColumnsSortableLikeTheOthers) {
    PlanCandidatesModel model;
    QAbstractItemModelTester tester(&model,
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    QTableView view;
    view.setModel(&model);
    view.setSortingEnabled(true);
    EXPECT_EQ(model.headerData(PlanCandidatesModel::Cp, Qt::Horizontal).toString(), "cp");
    EXPECT_EQ(model.headerData(PlanCandidatesModel::Recompute, Qt::Horizontal).toString(),
              "Recompute");
    EXPECT_EQ(model.headerData(PlanCandidatesModel::Offload, Qt::Horizontal).toString(), "Offload");

    const auto fused = ranking(true);
    ASSERT_GT(fused->ranked.size(), 50u) << fused->unsatisfiable;
    model.setResult(fused);
    // Every row's cells are its candidate's.
    for (int row = 0; row < model.rowCount(); ++row) {
        const plan::Candidate& c = fused->ranked[size_t(model.rankedIndex(row))].candidate;
        EXPECT_EQ(model.data(model.index(row, PlanCandidatesModel::Cp)).toInt(), c.cp);
        EXPECT_EQ(model.data(model.index(row, PlanCandidatesModel::Offload)).toString(),
                  c.offloadOptimizer ? "optimizer" : "");
        EXPECT_EQ(model.data(model.index(row, PlanCandidatesModel::Recompute)).toString(),
                  c.recompute ? "full" : "none"); // fused: never selective
    }
    EXPECT_EQ(sortAndCheck(view, model, PlanCandidatesModel::Cp, Qt::DescendingOrder), 8);
    EXPECT_EQ(sortAndCheck(view, model, PlanCandidatesModel::Cp, Qt::AscendingOrder), 1);
    EXPECT_EQ(sortAndCheck(view, model, PlanCandidatesModel::Offload, Qt::DescendingOrder), 1);
    EXPECT_EQ(model.data(model.index(0, PlanCandidatesModel::Offload)).toString(), "optimizer");
    EXPECT_EQ(sortAndCheck(view, model, PlanCandidatesModel::Offload, Qt::AscendingOrder), 0);
    // Within equal cp the sort is stable: the estimate's order is kept.
    sortAndCheck(view, model, PlanCandidatesModel::Rank, Qt::AscendingOrder);
    sortAndCheck(view, model, PlanCandidatesModel::Cp, Qt::AscendingOrder);
    for (int row = 1; row < model.rowCount(); ++row) {
        if (sortValue(model, row - 1, PlanCandidatesModel::Cp) ==
            sortValue(model, row, PlanCandidatesModel::Cp)) {
            EXPECT_LT(model.rankedIndex(row - 1), model.rankedIndex(row));
        }
    }

    // Unfused: none, selective and full recomputation, sorted in that order of work.
    const auto unfused = ranking(false);
    model.setResult(unfused);
    int selective = 0;
    for (const plan::RankedCandidate& r : unfused->ranked)
        selective += r.candidate.selectiveRecompute;
    ASSERT_GT(selective, 10);
    EXPECT_EQ(sortAndCheck(view, model, PlanCandidatesModel::Recompute, Qt::AscendingOrder), 0);
    EXPECT_EQ(model.data(model.index(0, PlanCandidatesModel::Recompute)).toString(), "none");
    EXPECT_EQ(sortAndCheck(view, model, PlanCandidatesModel::Recompute, Qt::DescendingOrder), 2);
    EXPECT_EQ(model.data(model.index(0, PlanCandidatesModel::Recompute)).toString(), "full");
    const int lastSelective = model.rowCount() - 1 - [&] {
        int none = 0;
        for (const plan::RankedCandidate& r : unfused->ranked)
            none += !r.candidate.recompute && !r.candidate.selectiveRecompute;
        return none;
    }();
    EXPECT_EQ(model.data(model.index(lastSelective, PlanCandidatesModel::Recompute)).toString(),
              "selective");
}

TEST(PlanCandidatesModel, ARowWithTwinRankOrdersSaysWhichOnes) {
    // On 4 x 2 switches, tp 2 x dp 4 in either order keeps every group one hop on its dimension.
    PlanCandidatesModel model;
    const auto result = ranking(false);
    ASSERT_GT(result->twins, 0u);
    model.setResult(result);
    int marked = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex cell = model.index(row, PlanCandidatesModel::Configuration);
        const QString text = model.data(cell).toString();
        const QString tip = model.data(cell, Qt::ToolTipRole).toString();
        EXPECT_EQ(text.endsWith(QStringLiteral(" +")), !tip.isEmpty()) << text.toStdString();
        if (tip.isEmpty())
            continue;
        ++marked;
        EXPECT_TRUE(tip.startsWith(QStringLiteral("Also the rank orders "))) << tip.toStdString();
    }
    EXPECT_GT(marked, 0);
}
