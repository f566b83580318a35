#pragma once
// Field-by-field comparison of two runs of one workload, for the tests that check a run which
// simulated fewer NPUs (symmetry, rank folding) against the full run.

#include "record/RunResult.h"

#include <string>

namespace golden {

/// The first difference between two results of one workload, "" when there is none: every
/// NPU's summary, the activities (with node names), phase and collective spans, every link's
/// load and series, the dimensions' and NPU-to-NPU traffic, the critical path's length and the
/// report lines (as sets: NPUs finishing together may print in either order).
std::string runDifference(const astrolabe::RunResult& folded, const astrolabe::RunResult& full);

} // namespace golden
