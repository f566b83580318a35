#pragma once
// The one place where a rate-derived duration (double nanoseconds) becomes simulated time.
// AstraCompatible floors to whole nanoseconds, at exactly the points where ASTRA-sim truncates
// (per message, per link, per reduction); Precise rounds once to the picosecond.

#include "core/SimTime.h"
#include "spec/SimulationSpec.h"

#include <cmath>

namespace astrolabe {

struct Timing {
    TimingMode mode = TimingMode::AstraCompatible;

    SimTime fromNs(double ns) const {
        if (mode != TimingMode::AstraCompatible)
            return SimTime::fromNsRounded(ns);
        // Converting a double outside int64's range is undefined: refuse it first.
        if (!(std::fabs(ns) < 9.2e15))
            throwTimeOverflow("conversion from floating point");
        return SimTime::fromNs(static_cast<int64_t>(std::floor(ns)));
    }
};

} // namespace astrolabe
