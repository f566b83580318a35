#pragma once
// Utilization over time: one line per dimension (mean over its links) and optional lines for
// chosen links. Series are fed in bulk with replace(), downsampled to two points (min and max)
// per pixel column of the plot, and re-fed when the plot is resized.

#include "record/RunResult.h"

#include <QChartView>
#include <memory>

class QLineSeries;
class QValueAxis;

namespace astrolabe::widgets {

class UtilizationChart : public QChartView {
    Q_OBJECT
public:
    explicit UtilizationChart(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const RunResult> result);
    /// Adds lines for these links (replacing the previous choice).
    void setLinks(const std::vector<int>& links);
    /// Points currently fed to each series (for tests: at most two per plot column).
    std::vector<int> seriesPointCounts() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refeed();
    int plotColumns() const;

    std::shared_ptr<const RunResult> m_result;
    std::vector<std::vector<float>> m_data; ///< per series, bucket values in [0, 1]
    std::vector<QLineSeries*> m_series;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    int m_dimensionSeries = 0;
    int m_fedColumns = -1;
    double m_psPerUnit = 1e6; ///< the x axis unit (µs, ms, ...) in picoseconds
};

} // namespace astrolabe::widgets
