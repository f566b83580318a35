#pragma once
// Links busy for longer than the run. The congestion-unaware model (ASTRA-sim's, and ours by
// default) lets every chunk in flight use a link at its full bandwidth: two chunks on one link
// each see the whole link, so the link's busy time can exceed the run and its utilization 100%.
// That is a property of the model, not of the network; the congestion-aware model shares the
// bandwidth and never does this. The CLI report and the GUI say so wherever the number appears.

#include "record/RunResult.h"

#include <string>
#include <vector>

namespace astrolabe {

struct Oversubscription {
    int links = 0;               ///< links busy longer than the run
    double peakUtilization = 0;  ///< the largest busy / end time over all links
    std::vector<int> dimensions; ///< dimensions whose utilization is above 1
    bool any() const { return links > 0 || !dimensions.empty(); }
};

/// Busy time of one link over the run's end time (0 for an empty run).
double linkUtilization(const RunResult& r, size_t link);

Oversubscription findOversubscription(const RunResult& r);

/// One sentence for the run summary: how many links, how far over, why, and what to do.
std::string explainOversubscription(const Oversubscription& o);

} // namespace astrolabe
