#pragma once
// The units a dimension's bandwidth and latency can be edited in. The model keeps bytes per
// second and nanoseconds; a unit only changes how the number is shown and typed.
//   GB/s = 10^9 B/s, GiB/s = 2^30 B/s (ASTRA-sim's network "GB/s"), Gbps = 10^9 bit/s,
//   TB/s = 10^12 B/s; ns, us = 1000 ns.

#include <QString>
#include <vector>

namespace astrolabe::widgets {

struct UnitChoice {
    QString name;
    double factor; ///< model units (B/s or ns) per one displayed unit
};

const std::vector<UnitChoice>& bandwidthUnits();
const std::vector<UnitChoice>& latencyUnits();

/// GiB/s when the value is a whole or half number of GiB/s (ASTRA-sim inputs), else GB/s.
int preferredBandwidthUnit(double bytesPerSecond);
/// us for latencies of 10 us and more, else ns.
int preferredLatencyUnit(double ns);

/// Text for summaries: "400 GiB/s" for whole (or half) GiB/s values, else decimal "429.5 GB/s".
QString describeBandwidth(double bytesPerSecond);

} // namespace astrolabe::widgets
