#pragma once
// How a utilization above 100% is shown in a table cell: the number stays (it is what the
// congestion-unaware model computed), marked and explained.

#include <QColor>
#include <QObject>
#include <QVariant>

namespace astrolabe::widgets {

/// The value for `role` of a cell showing `percent` (a utilization in %), or an invalid
/// QVariant when the cell is not over 100% or the role is not one this marks.
inline QVariant oversubscribedCell(double percent, int role) {
    if (percent <= 100.0)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1 % \u26a0").arg(percent, 0, 'f', 1);
    case Qt::ForegroundRole:
        return QColor(0xb3, 0x3c, 0x00); // dark vermillion: readable on white and in grey
    case Qt::ToolTipRole:
        return QObject::
            tr("Busy %1 % of the run: the congestion-unaware model gives every chunk in flight the "
               "link's full bandwidth instead of sharing it, so concurrent chunks over-subscribe "
               "it. "
               "A real link cannot exceed 100 %; run congestion-aware to see shared bandwidth.")
                .arg(percent, 0, 'f', 1);
    default:
        return {};
    }
}

} // namespace astrolabe::widgets
