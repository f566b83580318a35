#include "timeline/MemoryTrack.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::widgets {

QPolygonF memoryTrackLine(std::span<const MemoryUsagePoint> usage, uint64_t scaleBytes,
                          const TimeMapper& mapper, int64_t endPs, qreal top, qreal height) {
    QPolygonF line;
    const int64_t t1 = std::min(mapper.t1(), endPs);
    if (usage.empty() || scaleBytes == 0 || t1 <= mapper.t0())
        return line;
    const auto yOf = [&](uint64_t bytes) {
        return top + height * (1.0 - static_cast<double>(bytes) / static_cast<double>(scaleBytes));
    };
    // The value in effect at the window's start: the last point at or before it (0 before any).
    auto it =
        std::upper_bound(usage.begin(), usage.end(), mapper.t0(),
                         [](int64_t t, const MemoryUsagePoint& p) { return t < p.time.ps(); });
    qreal y = it == usage.begin() ? yOf(0) : yOf(std::prev(it)->bytes);
    line << QPointF(mapper.timeToX(mapper.t0()), y);
    // Points falling in one pixel column become one vertical stroke over their range.
    int column = std::numeric_limits<int>::min();
    qreal low = y, high = y;
    const auto flush = [&] {
        if (column == std::numeric_limits<int>::min())
            return;
        const qreal x = column;
        line << QPointF(x, line.back().y());
        if (low != high)
            line << QPointF(x, low) << QPointF(x, high);
        line << QPointF(x, y);
    };
    for (; it != usage.end() && it->time.ps() < t1; ++it) {
        const int c = static_cast<int>(std::floor(mapper.timeToX(it->time.ps())));
        if (c != column) {
            flush();
            column = c;
            low = high = line.back().y();
        }
        y = yOf(it->bytes);
        low = std::min(low, y);
        high = std::max(high, y);
    }
    flush();
    line << QPointF(mapper.timeToX(t1), y);
    return line;
}

} // namespace astrolabe::widgets
