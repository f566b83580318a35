#pragma once
// The links of a run as a table, hottest (most bytes) first: endpoints, dimension, bytes, busy
// time, utilization over the run and achieved against peak bandwidth. Sortable on any column;
// Qt::UserRole gives the raw number behind a cell.

#include "record/RunResult.h"

#include <QAbstractTableModel>
#include <memory>

namespace astrolabe::widgets {

class HottestLinksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Link,
        From,
        To,
        Dimension,
        Bytes,
        Busy,
        Utilization,
        Achieved,
        Peak,
        ColumnCount
    };

    explicit HottestLinksModel(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const RunResult> result);
    /// The link shown in a row.
    int linkAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    double value(int link, int column) const;
    QString deviceName(int device) const;

    std::shared_ptr<const RunResult> m_result;
    std::vector<int> m_order;
};

} // namespace astrolabe::widgets
