#pragma once
// The "Utilization" tab: link and dimension utilization over time with a links x time heatmap,
// the hottest links table, the traffic matrix, and the run summary. The main window calls
// setResult() when a run finishes.

#include "record/RunResult.h"
#include "spec/PlatformSpec.h"
#include "spec/SystemConfig.h"

#include <QWidget>
#include <memory>

class QTabWidget;
class QTableView;

namespace astrolabe::widgets {

class HeatmapWidget;
class HottestLinksModel;
class SummaryPanel;
class UtilizationChart;

class UtilizationView : public QWidget {
    Q_OBJECT
public:
    explicit UtilizationView(QWidget* parent = nullptr);

    /// `system` (may be null) lets the summary's explanation of the run's bound tell local
    /// memory from waiting inside collectives.
    void setResult(std::shared_ptr<const RunResult> result, const PlatformSpec& platform,
                   const SystemConfig* system = nullptr);

    UtilizationChart* chart() const { return m_chart; }
    HeatmapWidget* linkHeatmap() const { return m_linkHeatmap; }
    HeatmapWidget* trafficMatrix() const { return m_traffic; }
    HottestLinksModel* linksModel() const { return m_links; }
    SummaryPanel* summary() const { return m_summary; }
    QTabWidget* tabs() const { return m_tabs; }

    /// Exports the visible tab; the format follows the suffix (.png or .svg).
    bool exportImage(const QString& path) const;

signals:
    /// The summary's "Run again congestion-aware" (shown when links are over-subscribed).
    void congestionAwareRunRequested();

private:
    void showSelectedLinks();
    void showLinkHeatmap();      ///< rows = links (a fresh run, or a small stored one)
    void showLinkGroupHeatmap(); ///< rows = groups of links (a stored run with many links)
    void exportWithDialog();

    std::shared_ptr<const RunResult> m_result;
    QTabWidget* m_tabs = nullptr;
    UtilizationChart* m_chart = nullptr;
    HeatmapWidget* m_linkHeatmap = nullptr;
    HeatmapWidget* m_traffic = nullptr;
    HottestLinksModel* m_links = nullptr;
    QTableView* m_linkTable = nullptr;
    SummaryPanel* m_summary = nullptr;
};

} // namespace astrolabe::widgets
