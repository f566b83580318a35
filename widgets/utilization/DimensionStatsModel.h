#pragma once
// Per-dimension traffic: bytes, busy time, utilization, achieved bandwidth against the peak of
// the dimension's links (DimensionStats). Qt::UserRole gives the raw number behind a cell.
// A dimension whose switches reduced in the network (inSwitch) says so in its first cell.

#include "record/RunResult.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace astrolabe::widgets {

class DimensionStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Dimension, Bytes, Busy, Utilization, Achieved, Peak, PercentOfPeak, ColumnCount };

    explicit DimensionStatsModel(QObject* parent = nullptr);
    void setResult(std::shared_ptr<const RunResult> result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    double value(int row, int column) const;
    /// Whether the dimension's switches reduced in the network (an inSwitch phase ran on it).
    bool reducedInNetwork(int dimension) const;

private:
    std::shared_ptr<const RunResult> m_result;
    std::vector<bool> m_inNetwork; ///< per dimension
};

} // namespace astrolabe::widgets
