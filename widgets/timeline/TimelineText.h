#pragma once
// Human-readable text about timeline items: the hover tooltip and the details panel.

#include "timeline/TimelineSource.h"

#include <QString>
#include <optional>

namespace astrolabe::widgets {

QString formatBytes(uint64_t bytes);
QString timeText(int64_t ps);

/// Node name, type, size, start, duration, and, for communication, the dimension and chunk of
/// the phase under the cursor.
QString activityTooltip(const TimelineSource& source, const ActivityInterval& activity,
                        const std::optional<PhaseSpan>& phase);

/// The critical path position of (npu, node id), or -1.
int criticalPathIndex(const TimelineSource& source, int npu, uint64_t nodeId);

} // namespace astrolabe::widgets
