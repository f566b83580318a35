#pragma once
// The run at a glance: end-to-end time, compute, exposed communication and overlap (from the
// per-NPU summaries), time per collective type (bar chart), and per-dimension bytes and achieved
// bandwidth against peak (bar chart and table), and in plain words what bounds the run
// (analysis/RunExplanation.h).

#include "record/RunResult.h"
#include "spec/PlatformSpec.h"
#include "spec/SystemConfig.h"

#include <QWidget>
#include <memory>

class QChartView;
class QFrame;
class QLabel;
class QPushButton;
class QTableView;

namespace astrolabe::widgets {

class DimensionStatsModel;

class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);
    /// `platform` and `system` are the ones the run ran on (latencies, endpoint delay and
    /// local-mem-bw divide its collectives' time); with no platform, or one that does not match
    /// the run, the bound is not explained. `system` may be null (analysis/RunExplanation.h).
    void setResult(std::shared_ptr<const RunResult> result, const PlatformSpec& platform = {},
                   const SystemConfig* system = nullptr);

    DimensionStatsModel* dimensionModel() const { return m_dimensions; }
    QString figuresText() const;
    /// "bandwidth-bound on dimension 1: ..." and the critical path's breakdown (empty when the
    /// run could not be explained).
    QString explanationText() const { return m_explanation; }
    /// The explanation shown when links are busy longer than the run (empty when none are).
    QString oversubscriptionText() const;
    QPushButton* congestionAwareButton() const { return m_runAware; }

signals:
    /// "Run again congestion-aware": the same settings with bandwidth shared on each link.
    void congestionAwareRunRequested();

private:
    void fillCollectiveChart();
    void fillBandwidthChart();

    std::shared_ptr<const RunResult> m_result;
    QLabel* m_figures = nullptr;
    QString m_explanation;
    QFrame* m_oversubscription = nullptr;
    QLabel* m_oversubscriptionText = nullptr;
    QPushButton* m_runAware = nullptr;
    QChartView* m_collectives = nullptr;
    QChartView* m_bandwidth = nullptr;
    QTableView* m_table = nullptr;
    DimensionStatsModel* m_dimensions = nullptr;
};

} // namespace astrolabe::widgets
