#pragma once
// The Compare tab's charts: the time breakdown per run (grouped bars: compute, exposed
// communication, overlap) and the sweep (each metric against the one setting that changes).

#include "compare/MetricsTableModel.h"

#include <QChartView>
#include <QStringList>

class QBarSeries;
class QLineSeries;

namespace astrolabe::widgets {

class BreakdownChart : public QChartView {
    Q_OBJECT
public:
    explicit BreakdownChart(QWidget* parent = nullptr);
    /// Reads compute / exposed comm / overlap from the model's rows (same numbers as the table).
    void setMetrics(const MetricsTableModel& model);
    QBarSeries* series() const { return m_series; }

private:
    QBarSeries* m_series = nullptr;
};

/// One metric of a sweep: (x, y) points sorted by x.
struct SweepLine {
    QString name;
    std::vector<QPointF> points;
};

/// The metric rows of a sweep: for each metric key, the runs' values against the axis, sorted
/// by x. Runs without a value are skipped.
/// A bar's label under each compared run: its number, the first word "#N" of its name ("#2
/// Quick start", "Quick start #2"), else the name's first word; a label already given gets a
/// prime (two bars in one category are drawn as one).
QStringList runNumberLabels(const QStringList& names);

std::vector<SweepLine> sweepLines(const SettingRow& axis, const MetricsTableModel& model,
                                  const std::vector<std::string>& metricKeys);

class SweepChart : public QChartView {
    Q_OBJECT
public:
    explicit SweepChart(QWidget* parent = nullptr);
    /// Plots the lines (y in ns, shown in µs) against the axis setting; clears when no axis.
    void setSweep(const std::optional<SettingRow>& axis, const MetricsTableModel& model);
    const std::vector<QLineSeries*>& lines() const { return m_lines; }

private:
    std::vector<QLineSeries*> m_lines;
};

} // namespace astrolabe::widgets
