#pragma once
// What LIBRA is asked (docs/libra.md): bandwidths B_d per dimension, in GB/s (10^9 B/s) per
// NPU, under a total per NPU, per-dimension bounds and an optional cost budget, minimizing the
// iteration time or maximizing performance per cost.
//
// The cost model is linear: cost(B) = fixedDollars + sum_d dollarsPerGBps[d] * B_d, for the whole
// platform. defaultDollarsPerGBps() derives the per-dimension prices from block kinds and sizes
// (an assumption, documented in docs/libra.md; callers may give their own).

#include "spec/PlatformSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace astrolabe::optimize {

enum class Objective : uint8_t {
    Time,        ///< minimize the iteration time
    PerfPerCost, ///< maximize 1 / (time * cost)
};
const char* objectiveName(Objective objective); ///< "time", "perf-per-cost"
/// Throws astrolabe::Error listing the valid names.
Objective parseObjective(const std::string& name);

/// Assumed component prices, in dollars per GB/s of one direction of one port: rough list
/// prices of 2024 parts, an assumption (docs/libra.md), not quotes. Callers may give their own.
struct ComponentPrices {
    double directLinkDollarsPerGBps = 4.0;    ///< an electrical NPU-to-NPU link (Ring, FC)
    double switchedLinkDollarsPerGBps = 20.0; ///< an optical cable with its two transceivers
    double nicDollarsPerGBps = 35.0;          ///< a network interface in front of a switch
    double switchPortDollarsPerGBps = 12.0;   ///< one switch port (its share of the switch)
    double npuDollars = 25000.0;              ///< the NPU itself (the fixed part of cost)
};

/// Dollars for the whole platform per GB/s of dimension d's bandwidth: direct links per NPU of
/// the block (Ring k > 2: 1, Ring 2: 1/2, FullyConnected k: (k-1)/2) times the direct-link
/// price, or for a Switch one switched link + one NIC + one switch port; times the NPU count.
std::vector<double> defaultDollarsPerGBps(const PlatformSpec& platform,
                                          const ComponentPrices& prices = {});

struct AllocationProblem {
    Objective objective = Objective::Time;
    double totalGBps = 0;               ///< per NPU: sum_d B_d <= totalGBps
    std::vector<double> minGBps;        ///< per dimension, > 0
    std::vector<double> maxGBps;        ///< per dimension, >= min (may be +inf)
    std::vector<double> dollarsPerGBps; ///< per dimension, >= 0, whole platform
    double fixedDollars = 0;            ///< cost that does not depend on B (NPUs)
    std::optional<double> budgetDollars;

    size_t dimensions() const { return minGBps.size(); }
    double costDollars(const std::vector<double>& gbps) const;
    /// True when gbps meets every constraint, to a relative tolerance.
    bool feasible(const std::vector<double>& gbps, double tolerance = 1e-6) const;
    /// Throws astrolabe::Error (Validation) naming what cannot hold: sizes differ, min > max,
    /// the minimums exceed the total or the budget.
    void validate() const;
    /// A sentence saying that the per-dimension maximums add up to less than the total, so the
    /// total cannot be reached (the optimum then gives each dimension at most its maximum);
    /// empty when the total can be reached.
    std::string totalOutOfReach() const;
};

/// A problem for the platform with no bounds (a floor of 0.1% of the total keeps B_d > 0), the
/// given prices (the default ones unless told) and NPU cost, and `totalGBps`.
AllocationProblem defaultProblem(const PlatformSpec& platform, double totalGBps,
                                 const ComponentPrices& prices = {});

} // namespace astrolabe::optimize
