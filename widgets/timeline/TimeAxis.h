#pragma once
// Time axis ticks: "nice" steps (1, 2, 5 x 10^k picoseconds) at least minSpacing pixels apart,
// labelled in the unit of ten steps (ps, ns, µs, ms, s). Pure functions, unit-tested.

#include "timeline/TimeMapper.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe::widgets {

struct TimeTick {
    int64_t ps = 0;
    double x = 0;
    std::string label;
    bool operator==(const TimeTick&) const = default;
};

struct TimeUnit {
    int64_t psPerUnit = 1;
    const char* suffix = "ps";
};

/// The smallest step in {1, 2, 5} x 10^k ps that is >= minStepPs (minStepPs >= 1).
int64_t niceStep(double minStepPs);
/// The unit a step of stepPs is labelled in: the largest unit not larger than the step.
TimeUnit unitForStep(int64_t stepPs);
/// Decimals a label in `unit` needs so that ticks stepPs apart read differently (0.2 µs: 1).
int decimalsForStep(int64_t stepPs, TimeUnit unit);
/// Ticks at multiples of the nice step inside [t0, t1], at least minSpacingPx apart.
std::vector<TimeTick> timeTicks(const TimeMapper& mapper, double minSpacingPx);
/// "1.5 ms"-style text for a tick: the unit of ten steps or of the largest value shown
/// (magnitudePs), whichever is larger, with enough decimals for the step.
std::string formatTickLabel(int64_t ps, int64_t stepPs, int64_t magnitudePs = 0);
/// Places the tick labels of an axis that ends at `right`, in tick order: a label goes right of
/// its tick, or left of it when it would run past `right`, and is left out when it would come
/// within 6 px of the label before it ("1.15 ms1.20 ms").
class TickLabelPlacer {
public:
    explicit TickLabelPlacer(double right)
        : m_right(right) {}
    /// The label's left edge, or nothing when it is left out.
    std::optional<double> place(double tickX, double textWidth);

private:
    double m_right;
    double m_lastRight = -1e300; ///< where the previous label ends
};

/// A duration or time for humans: the engine's formatter (units::formatTime) with the micro sign.
std::string formatTime(int64_t ps);

} // namespace astrolabe::widgets
