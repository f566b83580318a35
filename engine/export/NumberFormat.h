#pragma once
// Exact decimal text for picosecond times: ps / 10^digits with no binary rounding, trailing
// zeros trimmed ("936.25", "1", "0.000001"). Used where a double would print 0.30000000000000004.

#include "core/SimTime.h"

#include <string>

namespace astrolabe {

/// Appends value / 10^digits (digits in 0..18) to out.
void appendScaled(std::string& out, int64_t value, int digits);
inline std::string nsText(SimTime t) {
    std::string s;
    appendScaled(s, t.ps(), 3);
    return s;
}
inline std::string usText(SimTime t) {
    std::string s;
    appendScaled(s, t.ps(), 6);
    return s;
}

} // namespace astrolabe
