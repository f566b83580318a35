#pragma once
// The Serving tab's content for one serving run: its summary, the request timeline with the
// clicked request's path beside it, the TTFT / TPOT / end-to-end CDFs with the SLO lines,
// throughput and KV-cache occupancy over time, and the replica table.

#include "serving/ServingResult.h"
#include "spec/SimulationSpec.h"

#include <QWidget>
#include <memory>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QTableView;

namespace astrolabe::widgets {

class CdfChart;
class ReplicaTableModel;
class RequestTimeline;
class ServingPoolsView;
class ServingSeriesChart;

/// The sorted latencies of the finished requests (TPOT: those with 2+ output tokens).
struct LatencySamples {
    std::vector<double> ttft, tpot, e2e;
};
LatencySamples latencySamples(const serving::ServingResult& result);

class ServingView : public QWidget {
    Q_OBJECT
public:
    explicit ServingView(QWidget* parent = nullptr);
    /// nullptr: nothing shown.
    void setResult(std::shared_ptr<const serving::ServingResult> result);
    /// The project the next result ran (its platform and serving settings draw the pools).
    void setProject(const SimulationSpec& spec);
    const std::shared_ptr<const serving::ServingResult>& result() const { return m_result; }

    RequestTimeline* timeline() const { return m_timeline; }
    CdfChart* ttftChart() const { return m_ttft; }
    CdfChart* tpotChart() const { return m_tpot; }
    CdfChart* e2eChart() const { return m_e2e; }
    ServingSeriesChart* seriesChart() const { return m_series; }
    ReplicaTableModel* replicaModel() const { return m_replicas; }
    ServingPoolsView* poolsView() const { return m_pools; }
    /// The clicked request's path, as text.
    QString pathText() const;
    void showRequest(int request);

private:
    std::shared_ptr<const serving::ServingResult> m_result;
    QLabel* m_summary;
    RequestTimeline* m_timeline;
    QPlainTextEdit* m_path;
    CdfChart *m_ttft, *m_tpot, *m_e2e;
    ServingSeriesChart* m_series;
    ReplicaTableModel* m_replicas;
    QTableView* m_replicaTable;
    ServingPoolsView* m_pools = nullptr;
    SimulationSpec m_project;
};

} // namespace astrolabe::widgets
