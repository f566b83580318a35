#pragma once
// End time over two sweep axes as a grid of coloured cells (Qt Charts has none): columns are
// the first axis's values, rows the second's, the colour goes from green (shortest end time)
// through yellow to red (longest); grey cells have no finished point yet. The mapping from
// values and cells to colours and rectangles is in free functions, testable without a window.

#include "sweep/SweepChartData.h"

#include <QColor>
#include <QRectF>
#include <QWidget>
#include <optional>

namespace astrolabe::widgets {

/// The colour of a value at `fraction` of the way from the minimum (0) to the maximum (1);
/// fractions outside [0, 1] are clamped.
QColor heatmapColor(double fraction);
/// Where `value` lies between min and max (0 when they are equal).
double heatmapFraction(double value, double min, double max);
/// The rectangle of cell (column, row) in `plot`, split evenly; row 0 at the top.
QRectF heatmapCellRect(const QRectF& plot, int columns, int rows, int column, int row);
/// The cell under `point`, or nullopt outside the plot.
std::optional<QPoint> heatmapCellAt(const QRectF& plot, int columns, int rows, QPointF point);

class SweepHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit SweepHeatmap(QWidget* parent = nullptr);

    void setData(HeatmapData data);
    const HeatmapData& data() const { return m_data; }
    /// The rectangle the cells fill in the current size (labels and legend around it).
    QRectF plotRect() const;
    /// The text drawn in a cell ("12.5"; in the legend's unit), empty when it does not fit.
    QString cellText(int column, int row) const;
    QSize minimumSizeHint() const override { return {360, 240}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override; ///< tooltips name the cell's values

private:
    void paintLegend(QPainter& painter, const QRectF& plot) const;

    HeatmapData m_data;
};

} // namespace astrolabe::widgets
