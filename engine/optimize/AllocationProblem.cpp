#include "optimize/AllocationProblem.h"

#include "core/Error.h"
#include "core/Units.h"

#include <cmath>
#include <limits>
#include <numeric>

namespace astrolabe::optimize {

const char* objectiveName(Objective objective) {
    return objective == Objective::Time ? "time" : "perf-per-cost";
}

Objective parseObjective(const std::string& name) {
    if (name == "time")
        return Objective::Time;
    if (name == "perf-per-cost")
        return Objective::PerfPerCost;
    std::string message = "unknown objective \"";
    message += name;
    message += "\"; expected time or perf-per-cost";
    throw Error(ErrorKind::Validation, message);
}

std::vector<double> defaultDollarsPerGBps(const PlatformSpec& platform,
                                          const ComponentPrices& prices) {
    const double npus = static_cast<double>(platform.npuCount());
    std::vector<double> out;
    for (const DimensionSpec& d : platform.dimensions) {
        double perNpu = 0;
        switch (d.kind) {
        case BlockKind::Ring: // k links for k NPUs; two NPUs share one
            perNpu = (d.size == 2 ? 0.5 : 1.0) * prices.directLinkDollarsPerGBps;
            break;
        case BlockKind::FullyConnected: // k(k-1)/2 links for k NPUs
            perNpu = 0.5 * static_cast<double>(d.size - 1) * prices.directLinkDollarsPerGBps;
            break;
        case BlockKind::Switch: // one link, one NIC and one switch port per NPU
            perNpu = prices.switchedLinkDollarsPerGBps + prices.nicDollarsPerGBps +
                     prices.switchPortDollarsPerGBps;
            break;
        }
        out.push_back(perNpu * npus);
    }
    return out;
}

double AllocationProblem::costDollars(const std::vector<double>& gbps) const {
    double cost = fixedDollars;
    for (size_t d = 0; d < gbps.size() && d < dollarsPerGBps.size(); ++d)
        cost += dollarsPerGBps[d] * gbps[d];
    return cost;
}

bool AllocationProblem::feasible(const std::vector<double>& gbps, double tolerance) const {
    if (gbps.size() != dimensions())
        return false;
    for (size_t d = 0; d < gbps.size(); ++d)
        if (gbps[d] < minGBps[d] * (1 - tolerance) || gbps[d] > maxGBps[d] * (1 + tolerance))
            return false;
    if (std::accumulate(gbps.begin(), gbps.end(), 0.0) > totalGBps * (1 + tolerance))
        return false;
    return !budgetDollars || costDollars(gbps) <= *budgetDollars * (1 + tolerance);
}

void AllocationProblem::validate() const {
    const size_t n = dimensions();
    if (n == 0 || maxGBps.size() != n || dollarsPerGBps.size() != n)
        throw Error(ErrorKind::Validation,
                    "the allocation problem needs a minimum, a maximum and a price for each of "
                    "the platform's dimensions");
    if (!(totalGBps > 0) || !std::isfinite(totalGBps))
        throw Error(ErrorKind::Validation, "the total bandwidth per NPU must be a positive number",
                    {}, "e.g. --total-bandwidth 500");
    double minimum = 0;
    for (size_t d = 0; d < n; ++d) {
        std::string dim = "dimension ";
        dim += std::to_string(d);
        if (!(minGBps[d] > 0))
            throw Error(ErrorKind::Validation, dim + ": the minimum bandwidth must be above 0");
        if (maxGBps[d] < minGBps[d])
            throw Error(ErrorKind::Validation,
                        dim + ": the maximum bandwidth is below the minimum");
        if (dollarsPerGBps[d] < 0)
            throw Error(ErrorKind::Validation, dim + ": a price cannot be negative");
        minimum += minGBps[d];
    }
    if (minimum > totalGBps * (1 + 1e-9))
        throw Error(ErrorKind::Validation,
                    "the per-dimension minimums add up to more than the total bandwidth", {},
                    "lower a --min or raise --total-bandwidth");
    if (budgetDollars && costDollars(minGBps) > *budgetDollars * (1 + 1e-9))
        throw Error(ErrorKind::Validation,
                    "the budget does not pay for the per-dimension minimums (they cost $" +
                        std::to_string(static_cast<long long>(costDollars(minGBps))) + ")",
                    {}, "raise --budget or lower a --min");
}

std::string AllocationProblem::totalOutOfReach() const {
    const double reachable = std::accumulate(maxGBps.begin(), maxGBps.end(), 0.0);
    if (!(reachable < totalGBps * (1 - 1e-9)))
        return {};
    return "the dimensions' maximums add up to " + units::formatFixed(reachable, 2) +
           " GB/s per NPU, less than the total of " + units::formatFixed(totalGBps, 2) +
           " GB/s: the total cannot be reached";
}

AllocationProblem defaultProblem(const PlatformSpec& platform, double totalGBps,
                                 const ComponentPrices& prices) {
    AllocationProblem p;
    p.totalGBps = totalGBps;
    const size_t n = platform.dimensions.size();
    p.minGBps.assign(n, totalGBps * 1e-3);
    p.maxGBps.assign(n, std::numeric_limits<double>::infinity());
    p.dollarsPerGBps = defaultDollarsPerGBps(platform, prices);
    p.fixedDollars = prices.npuDollars * static_cast<double>(platform.npuCount());
    return p;
}

} // namespace astrolabe::optimize
