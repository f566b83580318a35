#include "record/Oversubscription.h"

#include "core/Units.h"

#include <cstdio>

namespace astrolabe {

double linkUtilization(const RunResult& r, size_t link) {
    if (link >= r.linkStats.size() || r.endTime.ps() <= 0)
        return 0;
    return static_cast<double>(r.linkStats[link].busy.ps()) / static_cast<double>(r.endTime.ps());
}

Oversubscription findOversubscription(const RunResult& r) {
    Oversubscription o;
    // Busy times and end times are whole picoseconds: no tolerance is needed for "over".
    for (size_t link = 0; link < r.linkStats.size(); ++link) {
        if (r.linkStats[link].busy > r.endTime)
            ++o.links;
        o.peakUtilization = std::max(o.peakUtilization, linkUtilization(r, link));
    }
    for (const DimensionStats& d : r.dimensions)
        if (d.utilization > 1.0)
            o.dimensions.push_back(d.dimension);
    return o;
}

std::string explainOversubscription(const Oversubscription& o) {
    char peak[32];
    std::snprintf(peak, sizeof peak, "%.1f%%", 100.0 * o.peakUtilization);
    return units::countOf(static_cast<uint64_t>(o.links), "link") + " busy longer than the run " +
           "(up to " + peak +
           "): the congestion-unaware model gives every chunk in flight a link's full bandwidth "
           "instead of sharing it; the congestion-aware model shares it and stays within 100%";
}

} // namespace astrolabe
