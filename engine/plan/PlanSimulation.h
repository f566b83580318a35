#pragma once
// Confirming the planner by simulation (docs/planner.md): the top K candidates generated and
// simulated exactly on the project's platform, on threads; the estimate's rank correlation
// with the simulated times, and its recalibration against them.

#include "core/Simulator.h"
#include "plan/Planner.h"
#include "spec/SimulationSpec.h"

#include <functional>
#include <string>
#include <vector>

namespace astrolabe::plan {

struct SimulatedCandidate {
    RankedCandidate ranked;
    bool ran = false;
    std::string error;           ///< why it did not run
    double simulatedSeconds = 0; ///< the last NPU's finish
    double wallSeconds = 0;
};

/// Generates and simulates one candidate on `project`'s platform and system (its workload is
/// replaced by the generated iteration). Never throws: the outcome carries the message (a
/// fired `cancel` stops the simulation between events: "cancelled").
SimulatedCandidate simulateCandidate(const SimulationSpec& project, const PlanRequest& request,
                                     const RankedCandidate& candidate,
                                     const CancelToken* cancel = nullptr);

/// `platform` grown or shrunk to `npus` NPUs by its outermost dimension, as the planner's
/// --gpus and the Planner panel's GPU count do. Throws astrolabe::Error (Validation) for a graph
/// platform of another size, or a count that is no multiple (at least twice) of the inner
/// dimensions' NPUs ("GPUs not divisible").
void resizePlatform(PlatformSpec& platform, int npus);

/// Simulates `candidates` on `jobs` threads; `done` is called on the calling thread as each
/// finishes. Returns the outcomes in the candidates' order.
std::vector<SimulatedCandidate>
simulateCandidates(const SimulationSpec& project, const PlanRequest& request,
                   const std::vector<RankedCandidate>& candidates, int jobs,
                   const std::function<void(const SimulatedCandidate&)>& done = {});

/// Spearman's rank correlation of two equally long series (ties take their mean rank); 0 for
/// fewer than two points or a constant series.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

/// Weights of the estimate's four terms (compute, communication, bubble, tail), fitted to the
/// simulated times by least squares pulled towards 1 (ridge, so that a few points cannot send a
/// term negative or wild).
struct Calibration {
    double compute = 1, communication = 1, bubble = 1, tail = 1;
    double apply(const Estimate& e) const {
        return compute * e.compute + communication * e.communication + bubble * e.bubble +
               tail * e.tail;
    }
};
Calibration calibrate(const std::vector<SimulatedCandidate>& simulated);

/// Mean |estimate - simulated| / simulated over the candidates that ran, in percent.
double meanAbsErrorPercent(const std::vector<SimulatedCandidate>& simulated,
                           const Calibration& calibration = {});

} // namespace astrolabe::plan
