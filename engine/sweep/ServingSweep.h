#pragma once
// Sweeping a serving deployment (docs/sweeps.md, "Searching a deployment"): each point of a
// sweep over a serving project runs as `astrolabe-cli serve` runs it, optionally after
// searching its highest rate within the SLOs (serving/RateSearch.h), and is ranked by the sweep
// file's objective (SweepServing): goodput per GPU under the SLOs, or output tokens/s per GPU.

#include "core/Simulator.h"
#include "project/SweepFile.h"
#include "record/RunResult.h"
#include "serving/ServingResult.h"
#include "spec/SimulationSpec.h"
#include "store/ProjectDatabase.h"

#include <cstdint>
#include <optional>

namespace astrolabe {

/// What one serving point ran: the run to store and the numbers its objective reads.
struct ServingPointRun {
    RunResult result; ///< serving::servingRunResult of the run at `rate`
    serving::ServingSummary summary;
    double rate = 0;        ///< the arrival rate it ran at, requests/s
    size_t simulations = 0; ///< runServing calls: the rate search's probes, plus one
};

/// Runs `spec` (a serving project) as the sweep's serving options say. With a rate search the
/// point searches its highest rate meeting `rateSearch` of requests within both SLOs, then runs
/// at that rate for its records (at the lowest rate probed when none met the target). Throws
/// as serving::runServing and serving::searchRate do. `cancel` is checked between simulations.
ServingPointRun runServingPoint(const SweepServing& options, SimulationSpec spec,
                                const CancelToken* cancel = nullptr);

/// The objective's value for a summary: higher is better (servingObjectiveNames()).
double servingObjectiveValue(const std::string& objective, const serving::ServingSummary& s);

/// The summary of a stored serving run (decoded from its records), or nothing for a run that
/// is not a serving run. Throws astrolabe::Error (Input) on corrupt records.
std::optional<serving::ServingSummary> storedServingSummary(const ProjectDatabase& db,
                                                            int64_t runId);

} // namespace astrolabe
