#pragma once
// Running a sweep's points and storing each as a run of the project database, tagged with the
// sweep and its coordinates (sweepPointTags). One writer: the thread that stores never runs a
// point and the workers never touch the database, so no worker waits on SQLite. A point is
// stored in one transaction, so after an interruption (even kill -9) every point is wholly
// stored or absent, and running the sweep again runs exactly the absent ones.

#include "core/Simulator.h"
#include "record/RunResult.h"
#include "serving/ServingResult.h"
#include "store/ProjectDatabase.h"
#include "sweep/SweepPlan.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace astrolabe {

/// What running one point gave: a result, or the error that stopped it.
struct PointOutcome {
    size_t index = 0;
    std::shared_ptr<const RunResult> result; ///< null unless status is Ok
    RunStatus status = RunStatus::Ok;
    std::string error;
    double wallSeconds = 0;
    /// A serving point (docs/sweeps.md): its summary and the arrival rate it ran at.
    std::optional<serving::ServingSummary> serving;
    double servingRate = 0;
};

/// Runs one runnable point on the calling thread, making its project first; never throws for
/// an invalid project or a failing simulation (the outcome carries the message), so one bad
/// point does not stop a sweep.
PointOutcome runSweepPoint(const SweepPlan& plan, size_t index,
                           const CancelToken* cancel = nullptr);

/// Stores the outcome as a run named "<sweep> · point <i> (<axis>=<value>, ...)" with the point's
/// tags and a note listing its coordinates; one transaction. Returns the run id.
int64_t storeSweepPoint(ProjectDatabase& db, const SweepPlan& plan, const PointOutcome& outcome);

/// The newest stored run of each of this sweep's points (ok or failed; a cancelled point
/// counts as not run), by point index.
std::map<size_t, RunRecord> storedSweepRuns(const ProjectDatabase& db, const std::string& identity);
/// The points whose newest stored run is ok: those are not run again. A point whose run failed
/// is run again, so a re-run either completes the sweep or fails again (and says so).
std::set<size_t> storedSweepPoints(const ProjectDatabase& db, const std::string& identity);
/// The runnable points not yet stored, in index order.
std::vector<size_t> pendingSweepPoints(const SweepPlan& plan, const std::set<size_t>& stored);

/// Runs the points `todo` on `jobs` worker threads (each takes the next point when it is
/// free). `deliver` is called on the calling thread once per point as it finishes, while the
/// workers go on. The results do not depend on `jobs` or on the order points finish in.
void runSweepOnThreads(const SweepPlan& plan, const std::vector<size_t>& todo, int jobs,
                       const std::function<void(PointOutcome&&)>& deliver,
                       const CancelToken* cancel = nullptr);

} // namespace astrolabe
