#pragma once
// The sweep's charts over Qt Charts: end time against one axis (a line; numeric values on a
// value axis, others as categories), and the Pareto scatter of end time against a second cost
// chosen in a combo box, with the non-dominated points joined and highlighted.

#include "core/Units.h"
#include "sweep/SweepChartData.h"

#include <QChartView>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace astrolabe::widgets {

class SweepLineChart : public QChartView {
    Q_OBJECT
public:
    explicit SweepLineChart(QWidget* parent = nullptr);
    /// End time of the finished points against axis `axis`.
    void setRows(const std::vector<std::string>& axisNames, const std::vector<SweepRow>& rows,
                 size_t axis);
    QLineSeries* line() const { return m_line; }
    /// The alpha-beta model's line over a sweep of a microbenchmark's size (null otherwise), in
    /// the chart's units: sizeScale() on x, timeScale() on y.
    QLineSeries* model() const { return m_model; }
    units::Scale sizeScale() const { return m_sizeScale; }
    units::Scale timeScale() const { return m_timeScale; }

private:
    void addModel(const AlphaBetaCurve& curve);

    QLineSeries* m_line = nullptr;
    QLineSeries* m_model = nullptr;
    units::Scale m_sizeScale{1, ""};
    units::Scale m_timeScale{1, ""};
};

class SweepParetoChart : public QWidget {
    Q_OBJECT
public:
    explicit SweepParetoChart(QWidget* parent = nullptr);
    void setRows(const std::vector<std::string>& axisNames, const std::vector<SweepRow>& rows);
    /// Chooses the second cost by its name (paretoMetrics); false when there is none.
    bool selectMetric(const QString& name);
    QComboBox* metricBox() const { return m_metric; }
    QChartView* view() const { return m_view; }
    /// The points on the front, in the chart's units, in the order they are joined.
    QList<QPointF> frontPoints() const;

private:
    void createSeries();
    void redraw();
    /// A serving sweep: output tokens/s per GPU against TPOT p50 or tokens/s per user.
    void redrawServing(bool interactivity);

    QComboBox* m_metric;
    QLabel* m_metricLabel = nullptr;
    QChartView* m_view;
    std::vector<std::string> m_axisNames;
    std::vector<SweepRow> m_rows;
    std::vector<SweepMetric> m_metrics;
    QScatterSeries* m_all = nullptr;
    QLineSeries* m_front = nullptr;
    QScatterSeries* m_best = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};

} // namespace astrolabe::widgets
