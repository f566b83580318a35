#pragma once
// The local-memory counter of an NPU row (track-local-mem): a step line from the row's bottom
// (nothing in use) to its top (the most any NPU of the run had in use), so rows compare at a
// glance. Built for the visible window only, with at most four vertices per pixel column, so a
// row of a million allocations costs what a row of a thousand does.

#include "record/RunResult.h"
#include "timeline/TimeMapper.h"

#include <QPolygonF>
#include <span>

namespace astrolabe::widgets {

/// `usage` in time order; `endPs` where the line stops (the row's finish or the run's end).
QPolygonF memoryTrackLine(std::span<const MemoryUsagePoint> usage, uint64_t scaleBytes,
                          const TimeMapper& mapper, int64_t endPs, qreal top, qreal height);

} // namespace astrolabe::widgets
