#pragma once
// The compared runs' results side by side (export/Comparison.h's metric rows): one row per
// metric, a unit column, then one column per run showing the value and its ratio to the
// baseline run ("6.1 µs  ×0.50").

#include "compare/CompareRun.h"
#include "export/Comparison.h"

#include <QAbstractTableModel>

namespace astrolabe::widgets {

class MetricsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int ValueRole = Qt::UserRole;     ///< double, invalid when absent
    static constexpr int RatioRole = Qt::UserRole + 1; ///< value / baseline, invalid when none
    static constexpr int FirstRunColumn = 2;           ///< columns: metric, unit, runs...

    using QAbstractTableModel::QAbstractTableModel;
    void setRuns(const CompareRuns& runs);
    /// The run (index into the runs) whose values are the ratios' denominators.
    void setBaseline(int run);
    int baseline() const { return m_baseline; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const std::vector<MetricRow>& rows() const { return m_rows; }
    const QStringList& runNames() const { return m_names; }
    /// The row of a metric key ("end_time", "exposed_comm", "dim0.bytes"...), or -1.
    int rowOfKey(const std::string& key) const;

private:
    QStringList m_names;
    std::vector<MetricRow> m_rows;
    int m_baseline = 0;
};

} // namespace astrolabe::widgets
