#pragma once
// A chart's value axis from 0 with round ticks, as many as its length can label without Qt
// Charts silently dropping some (a 150 px chart read "0, 200, 400, 800, 1000": 600 had no room).

#include <QtGlobal>
#include <qnamespace.h>

QT_BEGIN_NAMESPACE
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace astrolabe::widgets {

struct AxisTicks {
    double step = 1; ///< in {1, 2, 2.5, 5} x 10^k
    double max = 1;  ///< a multiple of step, >= the largest value
    int intervals() const { return static_cast<int>(max / step + 0.5); }
};

/// The ticks for values in [0, top] on an axis lengthPx long whose labels need labelPx each
/// (height on a vertical axis, width on a horizontal one): the most intervals that fit, at
/// least one, with the axis ending on the first tick at or above top.
AxisTicks readableTicks(double top, double lengthPx, double labelPx);

/// Ranges `axis` (attached to `chart`, in orientation `o`) over [0, top] with readableTicks, and
/// again whenever the chart's plot area changes size.
void keepTicksReadable(QChart* chart, QValueAxis* axis, double top, Qt::Orientation o);

} // namespace astrolabe::widgets
