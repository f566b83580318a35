#pragma once
// A cumulative distribution of latencies (TTFT, TPOT or end-to-end), one line per run, with
// the SLO drawn as a vertical line. Values are kept sorted; a repaint evaluates the CDF once
// per pixel column by binary search (at most two points per column, whatever the count of
// requests), so 100,000 values repaint as fast as 1,000.

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

namespace astrolabe::widgets {

struct CdfSeries {
    QString name;
    QColor color;
    std::vector<double> sorted; ///< seconds, ascending
};

/// The fraction of `sorted` at or below `value` (0 for no values).
double cdfAt(const std::vector<double>& sorted, double value);
/// The polyline of the CDF over [0, xMax] on `width` columns: one point per column and the
/// step's foot, at most 2 x (width + 1) points; y in [0, 1] (not yet flipped to pixels).
std::vector<std::pair<double, double>> cdfPolyline(const std::vector<double>& sorted, double xMax,
                                                   int width);

class CdfChart : public QWidget {
    Q_OBJECT
public:
    explicit CdfChart(const QString& title, QWidget* parent = nullptr);
    /// Replaces the lines; `sloSeconds` <= 0: no SLO line.
    void setSeries(std::vector<CdfSeries> series, double sloSeconds);
    const std::vector<CdfSeries>& series() const { return m_series; }
    double xMax() const { return m_xMax; }
    double slo() const { return m_slo; }
    QSize sizeHint() const override { return {300, 200}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_title;
    std::vector<CdfSeries> m_series;
    double m_slo = 0;
    double m_xMax = 1;
};

} // namespace astrolabe::widgets
