#include "topology/UnitChoices.h"

#include "core/Units.h"

#include <cmath>

namespace astrolabe::widgets {

namespace {
constexpr double kGiB = 1073741824.0;
}

const std::vector<UnitChoice>& bandwidthUnits() {
    static const std::vector<UnitChoice> units{{QStringLiteral("GB/s"), 1e9},
                                               {QStringLiteral("GiB/s"), kGiB},
                                               {QStringLiteral("Gbps"), 1.25e8},
                                               {QStringLiteral("TB/s"), 1e12}};
    return units;
}

const std::vector<UnitChoice>& latencyUnits() {
    static const std::vector<UnitChoice> units{{QStringLiteral("ns"), 1.0},
                                               {QStringLiteral("µs"), 1000.0}};
    return units;
}

int preferredBandwidthUnit(double bytesPerSecond) {
    const double halves = bytesPerSecond / kGiB * 2;
    if (bytesPerSecond > 0 && std::fabs(halves - std::round(halves)) < 1e-9 * halves)
        return 1;
    return 0;
}

int preferredLatencyUnit(double ns) {
    return ns >= 10000 ? 1 : 0;
}

QString describeBandwidth(double bytesPerSecond) {
    // Shown in the unit the rows use, so "400 GiB/s" in a row is not "429.497 GB/s" here.
    if (preferredBandwidthUnit(bytesPerSecond) == 1) {
        const double gib = bytesPerSecond / kGiB;
        return gib >= 10000 ? QStringLiteral("%1 TiB/s").arg(gib / 1024, 0, 'g', 6)
                            : QStringLiteral("%1 GiB/s").arg(gib, 0, 'g', 6);
    }
    return QString::fromStdString(units::formatBandwidth(bytesPerSecond));
}

} // namespace astrolabe::widgets
