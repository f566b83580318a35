#pragma once
// Serving runs side by side (the Compare tab, when the compared runs are serving runs): a
// table of latency percentiles, throughput and goodput, one column per run, and the TTFT, TPOT
// and end-to-end CDFs of every run overlaid, each with the first run's SLO.

#include "serving/ServingResult.h"

#include <QAbstractTableModel>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

class QTableView;

namespace astrolabe::widgets {

class CdfChart;

struct NamedServingRun {
    QString name;
    std::shared_ptr<const serving::ServingResult> result;
};

/// One row of the comparison: a metric and its value in each run (in the row's unit).
struct ServingCompareRow {
    QString label;
    std::vector<double> values;
};
/// TTFT, TPOT and end-to-end p50 / p90 / p99 (ms), output tokens/s per GPU, goodput
/// (requests/s and per GPU) and SLO attainment (%), in that order.
std::vector<ServingCompareRow> servingCompareRows(const std::vector<NamedServingRun>& runs);

class ServingCompareModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setRuns(const std::vector<NamedServingRun>& runs);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<QString> m_names;
    std::vector<ServingCompareRow> m_rows;
};

class ServingCompareView : public QWidget {
    Q_OBJECT
public:
    explicit ServingCompareView(QWidget* parent = nullptr);
    void setRuns(std::vector<NamedServingRun> runs);
    ServingCompareModel* model() const { return m_model; }
    CdfChart* ttftChart() const { return m_ttft; }
    CdfChart* tpotChart() const { return m_tpot; }
    CdfChart* e2eChart() const { return m_e2e; }

private:
    ServingCompareModel* m_model;
    QTableView* m_table;
    CdfChart *m_ttft, *m_tpot, *m_e2e;
};

} // namespace astrolabe::widgets
