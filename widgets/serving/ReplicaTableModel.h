#pragma once
// One row per replica of a serving run: its pool, GPUs, how busy it was (the sum of its
// iterations over the run's duration), its iterations, requests and tokens.

#include "serving/ServingResult.h"

#include <QAbstractTableModel>
#include <memory>

namespace astrolabe::widgets {

class ReplicaTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Replica, Pool, Gpus, Busy, Iterations, Requests, Tokens, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setResult(std::shared_ptr<const serving::ServingResult> result);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const serving::ServingResult> m_result;
};

} // namespace astrolabe::widgets
