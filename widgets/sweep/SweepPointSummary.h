#pragma once
// What the sweep views show of one point: its status and the few numbers a table row, a chart
// point or a heatmap cell needs. The run's full result stays in the project database; a point's
// summary is small enough to cross threads by value.

#include "core/SimTime.h"

#include <cstdint>
#include <string>

namespace astrolabe::widgets {

enum class SweepPointStatus { Pending, Running, Ok, Failed, Skipped };

/// "pending", "running", "ok", "failed", "skipped"
const char* sweepPointStatusName(SweepPointStatus status);

struct SweepPointSummary {
    size_t index = 0; ///< the point's index in its SweepPlan
    SweepPointStatus status = SweepPointStatus::Pending;
    SimTime endTime;        ///< the run's simulated end time (Ok only)
    SimTime maxExposedComm; ///< the largest exposed communication over the NPUs (Ok only)
    int64_t runId = 0;      ///< the stored run's id in the project database; 0: not stored
    int64_t runNumber = 0;  ///< "#12"
    std::string message;    ///< the error (Failed) or the constraint (Skipped)
    /// A serving point (docs/sweeps.md, "Searching a deployment"): what its objective and the
    /// Pareto front read (Ok only).
    bool serving = false;
    double goodputPerGpu = 0; ///< requests/s meeting both SLOs, per GPU
    double outputTokensPerGpuSecond = 0;
    double tpotP50Seconds = 0;
    double sloAttainment = 0; ///< share of completed requests meeting both SLOs
    double requestsPerSecond = 0;
    double objective = 0; ///< the sweep's objective for this point (higher is better)
};

} // namespace astrolabe::widgets
