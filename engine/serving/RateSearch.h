#pragma once
// The highest request rate a deployment serves within its SLOs: the rate at which the share
// of requests meeting both SLOs (TTFT and TPOT, ServingSummary::sloAttainment) is still at least
// `attainment`. Found by bracketing and bisection over serving.rate (Poisson or gamma arrivals
// at that rate for the project's duration), not over a fixed grid:
//
//   1. bracket: from the project's rate, double (or halve) until one rate meets the target and
//      the next one up does not;
//   2. bisect the bracket [meets, fails] until (fails - meets) <= tolerance x meets.
//
// Same seed at every rate: request i has the same lengths and arrives at (the same draw) / rate,
// so a higher rate is the same requests sooner and attainment falls with the rate (up to the
// batching effects near the limit). The answer is the highest rate that was seen to meet the
// target. Each probe is one runServing(); cost = bracketing steps + log2(1 / tolerance).

#include "serving/ServingResult.h"
#include "spec/SimulationSpec.h"

#include <functional>
#include <optional>
#include <vector>

namespace astrolabe::serving {

struct RateSearchOptions {
    double attainment = 0.9; ///< in (0, 1]
    double tolerance = 0.01; ///< relative width of the final bracket, > 0
    int maxProbes = 40;      ///< simulations at most (bracketing included)
    /// > 1: the rate found is run once more for this many times the duration. A rate a little
    /// past what the deployment sustains meets the target over a short run, while its queue
    /// is still growing; the longer run shows it (RateSearchResult::sustained).
    double confirmFactor = 0;
};

struct RateProbe {
    double rate = 0; ///< requests/s
    ServingSummary summary;
    bool meets = false; ///< summary.sloAttainment >= the target
};

struct RateSearchResult {
    double rate = 0; ///< the highest probed rate that met the target; 0 when none did
    bool converged = false;
    std::vector<RateProbe> probes; ///< in the order they ran
    /// With RateSearchOptions::confirmFactor: the found rate over the longer duration (its
    /// summary's durationSeconds is that run's), and whether it still met the target.
    std::optional<RateProbe> confirmation;
    double confirmationDurationSeconds = 0;
    bool sustained() const { return !confirmation || confirmation->meets; }
};

/// Throws astrolabe::Error (Validation) naming the option or the serving.* key: an attainment
/// outside (0, 1], a tolerance <= 0, a project without synthetic arrivals (a trace or a closed
/// loop has no rate to search). `onProbe` (may be empty) sees each probe as it finishes.
RateSearchResult searchRate(const SimulationSpec& spec, const RateSearchOptions& options,
                            const std::function<void(const RateProbe&)>& onProbe = {});

} // namespace astrolabe::serving
