#include "utilization/ReadableAxis.h"

#include <QChart>
#include <QFontMetricsF>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

namespace {

/// The smallest of {1, 2, 2.5, 5} x 10^k that is >= minStep (> 0).
double niceStepAtLeast(double minStep) {
    const double decade = std::pow(10.0, std::floor(std::log10(minStep)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * decade >= minStep * (1 - 1e-12))
            return m * decade;
    return 10 * decade;
}

/// Room each label needs along the axis: its height plus a gap on a vertical axis, the widest
/// label plus a gap on a horizontal one.
double labelRoom(const QValueAxis& axis, double top, Qt::Orientation o) {
    const QFontMetricsF metrics(axis.labelsFont());
    if (o == Qt::Vertical)
        return metrics.height() * 1.6;
    const QString widest = QString::number(top * 1.25, 'g', 4);
    return metrics.horizontalAdvance(widest) + 2 * metrics.averageCharWidth();
}

} // namespace

AxisTicks readableTicks(double top, double lengthPx, double labelPx) {
    if (!(top > 0) || !std::isfinite(top))
        return {1, 1};
    const int fit = std::clamp(static_cast<int>(lengthPx / std::max(1.0, labelPx)), 1, 10);
    // The step grows until top fits in `fit` intervals; ticks stay round.
    double step = niceStepAtLeast(top / fit);
    while (std::ceil(top / step - 1e-9) > fit)
        step = niceStepAtLeast(step * 1.0001);
    return {step, step * std::max(1.0, std::ceil(top / step - 1e-9))};
}

void keepTicksReadable(QChart* chart, QValueAxis* axis, double top, Qt::Orientation o) {
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    const auto apply = [chart, axis, top, o] {
        const QRectF area = chart->plotArea();
        const double length = o == Qt::Vertical ? area.height() : area.width();
        const AxisTicks ticks = readableTicks(top, length, labelRoom(*axis, top, o));
        if (axis->tickInterval() != ticks.step || axis->max() != ticks.max) {
            axis->setRange(0, ticks.max);
            axis->setTickInterval(ticks.step);
        }
    };
    apply();
    // Queued: plotAreaChanged comes in the middle of the chart's layout, and changing the axis
    // there re-enters the layout and crashes Qt Charts 6.4 (VerticalAxis::updateGeometry).
    QObject::connect(chart, &QChart::plotAreaChanged, axis, apply, Qt::QueuedConnection);
}

} // namespace astrolabe::widgets
