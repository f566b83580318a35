#include "timeline/TimeAxis.h"

#include "core/Units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace astrolabe::widgets {

namespace {
constexpr TimeUnit kUnits[] = {
    {1, "ps"}, {1000, "ns"}, {1000'000, "µs"}, {1000'000'000, "ms"}, {1000'000'000'000, "s"}};

std::string formatValue(double value, int decimals, const char* suffix) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals, value, suffix);
    return buffer;
}
} // namespace

int64_t niceStep(double minStepPs) {
    if (!(minStepPs > 1))
        return 1;
    int64_t decade = 1;
    while (true) {
        for (int64_t mantissa : {1, 2, 5}) {
            if (static_cast<double>(mantissa * decade) >= minStepPs)
                return mantissa * decade;
        }
        if (decade > INT64_MAX / 100)
            return decade * 10;
        decade *= 10;
    }
}

TimeUnit unitForStep(int64_t stepPs) {
    TimeUnit unit = kUnits[0];
    for (const TimeUnit& candidate : kUnits)
        if (stepPs >= candidate.psPerUnit)
            unit = candidate;
    return unit;
}

std::string formatTickLabel(int64_t ps, int64_t stepPs, int64_t magnitudePs) {
    // The unit of ten steps: a 0.5 ms step reads "1.5 ms", not "1500 us"; and "5.30 ms" reads
    // better than "5300 us" deep into a run.
    const int64_t tenSteps = stepPs > INT64_MAX / 10 ? stepPs : stepPs * 10;
    const TimeUnit unit = unitForStep(std::max<int64_t>(tenSteps, std::llabs(magnitudePs)));
    return formatValue(static_cast<double>(ps) / static_cast<double>(unit.psPerUnit),
                       decimalsForStep(stepPs, unit), unit.suffix);
}

int decimalsForStep(int64_t stepPs, TimeUnit unit) {
    int decimals = 0;
    for (int64_t scale = unit.psPerUnit; scale > 1 && stepPs % scale != 0; scale /= 10)
        ++decimals;
    return decimals;
}

std::vector<TimeTick> timeTicks(const TimeMapper& mapper, double minSpacingPx) {
    std::vector<TimeTick> ticks;
    const int64_t step = niceStep(minSpacingPx * mapper.psPerPixel());
    // First multiple of step at or after t0 (floor division that works for negative t0).
    int64_t first = mapper.t0() / step * step;
    if (first < mapper.t0())
        first += step;
    for (int64_t t = first; t <= mapper.t1(); t += step) {
        ticks.push_back({t, mapper.timeToX(t), formatTickLabel(t, step, mapper.t1())});
        if (t > INT64_MAX - step)
            break;
    }
    return ticks;
}

std::string formatTime(int64_t ps) {
    return units::formatTime(SimTime::fromPs(ps), units::TimeSpelling::MicroSign);
}

std::optional<double> TickLabelPlacer::place(double tickX, double textWidth) {
    const double left = tickX + 3 + textWidth > m_right ? tickX - 3 - textWidth : tickX + 3;
    if (left < m_lastRight + 6)
        return std::nullopt;
    m_lastRight = left + textWidth;
    return left;
}

} // namespace astrolabe::widgets
