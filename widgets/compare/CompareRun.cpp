#include "compare/CompareRun.h"

#include <cmath>

namespace astrolabe::widgets {

QString formatNs(double ns) {
    const double a = std::abs(ns);
    if (a >= 1e9)
        return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'g', 4);
    if (a >= 1e6)
        return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'g', 4);
    if (a >= 1e3)
        return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'g', 4);
    return QStringLiteral("%1 ns").arg(ns, 0, 'g', 4);
}

QString formatBytes(double bytes) {
    constexpr double kKiB = 1024.0;
    if (bytes >= kKiB * kKiB * kKiB)
        return QStringLiteral("%1 GiB").arg(bytes / (kKiB * kKiB * kKiB), 0, 'g', 4);
    if (bytes >= kKiB * kKiB)
        return QStringLiteral("%1 MiB").arg(bytes / (kKiB * kKiB), 0, 'g', 4);
    if (bytes >= kKiB)
        return QStringLiteral("%1 KiB").arg(bytes / kKiB, 0, 'g', 4);
    return QStringLiteral("%1 B").arg(bytes, 0, 'g', 4);
}

QString formatBandwidth(double bytesPerSecond) {
    return QStringLiteral("%1 GiB/s").arg(bytesPerSecond / (1024.0 * 1024.0 * 1024.0), 0, 'g', 4);
}

} // namespace astrolabe::widgets
