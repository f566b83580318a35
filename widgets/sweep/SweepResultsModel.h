#pragma once
// The table of a sweep: one row per point - its index, each axis value, status, end time,
// largest exposed communication and stored run number. Rows are set once from the plan, then
// updated one at a time as points finish (dataChanged for that row only).

#include "analysis/AlphaBeta.h"
#include "core/Units.h"
#include "sweep/SweepPointSummary.h"

#include <QAbstractTableModel>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe {
struct SweepPlan;
}

namespace astrolabe::widgets {

/// One point as the table and the charts see it.
struct SweepRow {
    std::vector<std::string> values; ///< one per axis, as written in the sweep file
    SweepPointSummary summary;
    /// The point's alpha-beta term (a microbenchmark on one dimension), for the model's curve.
    std::optional<AlphaBetaTerm> alphaBeta;
};

/// What the table shows of a plan before any point has run. Each point's project is read for its
/// alpha-beta term, so a front end computes this off the GUI thread (sweepTableOf) and hands it
/// to the model (setTable).
struct SweepTable {
    std::vector<std::string> axisNames;
    std::vector<SweepRow> rows; ///< skipped points with their reason, the others pending
    bool serving = false;       ///< the sweep is over a serving project
    std::string objective;      ///< its serving objective
};

/// The table of `plan`. Plain data, no Qt object: callable on any thread.
SweepTable sweepTableOf(const SweepPlan& plan);

class SweepResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { PointColumn = 0 }; ///< then one per axis, then the fixed columns below
    /// The serving columns (Goodput to Tpot) are there only for a serving sweep.
    enum class Fixed { Status, EndTime, MaxExposed, Run, Goodput, Tokens, Tpot };
    /// Qt::UserRole: the sortable number of a cell (index, end time in ps, run number).
    static constexpr int SortRole = Qt::UserRole;

    explicit SweepResultsModel(QObject* parent = nullptr);

    /// Every point of the plan: skipped ones with their reason, the others pending. Reads every
    /// point's project (sweepTableOf); a GUI sets a table made off its thread instead.
    void setPlan(const SweepPlan& plan);
    void setTable(SweepTable table);
    void setRows(std::vector<std::string> axisNames, std::vector<SweepRow> rows);
    /// Replaces the summary of point `summary.index` (ignored when there is no such row).
    void updatePoint(const SweepPointSummary& summary);

    const std::vector<std::string>& axisNames() const { return m_axisNames; }
    const std::vector<SweepRow>& rows() const { return m_rows; }
    int column(Fixed fixed) const {
        return 1 + static_cast<int>(m_axisNames.size()) + static_cast<int>(fixed);
    }
    /// A sweep over a serving project: its points carry the serving columns, ranked by
    /// `objective` (sweep file's serving.objective).
    bool isServing() const { return m_serving; }
    const std::string& objective() const { return m_objective; }
    /// The finished point with the highest objective, when this is a serving sweep.
    std::optional<size_t> bestPoint() const;
    /// Points that can run (not skipped), and those of them finished (ok or failed).
    size_t runnable() const;
    size_t finished() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    /// A point's row changed (after dataChanged).
    void pointUpdated(size_t index);

private:
    /// Picks the unit of each time column from its largest value (one unit per column: "850
    /// µs" and "1.2 ms" would not read as a column); true when one changed.
    bool updateTimeScales();

    std::vector<std::string> m_axisNames;
    std::vector<SweepRow> m_rows; ///< row i is point i
    bool m_serving = false;
    std::string m_objective;
    units::Scale m_endTimeScale, m_exposedScale;
};

} // namespace astrolabe::widgets
