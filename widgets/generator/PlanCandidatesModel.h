#pragma once
// The Planner panel's table: every candidate the planner ranked (plan/Planner.h), one row each,
// with its context parallelism, activation recomputation and offload (the axes its label
// abbreviates, as columns to sort by), its estimate, its simulated time once simulated, its
// worst stage's memory per GPU and its MFU (of the simulated time where there is one, else of
// the estimate). A view over the
// result, not a copy: the ranking of GPT-3 175B on 1,024 GPUs has ~43,000 rows, so sorting
// permutes an index vector (O(n log n), no item objects) and data() formats on demand.

#include "plan/Planner.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace astrolabe::widgets {

class PlanCandidatesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Rank,
        Configuration,
        Cp,        ///< context-parallel ranks per sequence
        Recompute, ///< none, selective (the attention core) or full; sorts in that order
        Offload,   ///< the optimizer states offloaded to the project's memory tier, or not
        Estimate,
        Simulated,
        Memory,
        Mfu,
        ColumnCount
    };
    /// The value a column sorts by (seconds, bytes, a fraction; the rank for Configuration;
    /// Recompute 0 none, 1 selective, 2 full; Offload 0 or 1).
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit PlanCandidatesModel(QObject* parent = nullptr);

    /// A new ranking, in its own order (fastest estimate first); forgets the simulations.
    void setResult(std::shared_ptr<const plan::PlanResult> result);
    const plan::PlanResult* result() const { return m_result.get(); }
    /// Candidate `ranked` (an index into result()->ranked) simulated in `seconds`, or not run
    /// (`error` says why).
    /// `error`: why the candidate did not run; kCancelled when a cancel stopped it (its cell
    /// then says "cancelled", not "failed").
    void setSimulated(size_t ranked, double seconds, const QString& error = {});
    static inline const QString kCancelled = QStringLiteral("cancelled");
    /// Seconds simulated, or NaN when not (yet).
    double simulatedSeconds(size_t ranked) const;
    /// The candidate shown in `row` (an index into result()->ranked); -1 for none.
    int rankedIndex(int row) const;
    /// The row showing candidate `ranked`, or -1.
    int rowOf(size_t ranked) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    /// Stable; candidates not simulated sort after the simulated ones in either order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    double sortValue(size_t ranked, int column) const;

    std::shared_ptr<const plan::PlanResult> m_result;
    std::vector<size_t> m_order;     ///< row -> ranked index
    std::vector<double> m_simulated; ///< per ranked index; NaN: not simulated
    std::vector<QString> m_errors;   ///< per ranked index, only for those that did not run
};

} // namespace astrolabe::widgets
