#pragma once
// Sweeps across machines: rank 0 hands out points one at a time to the ranks that ask for work
// and alone writes the project database; the other ranks run points and send back each result.
// Built only with ASTROLABE_WITH_MPI (Debian's OpenMPI); without it, --mpi is a usage error.

#include "sweep/SweepRun.h"

#include <functional>
#include <memory>
#include <vector>

namespace astrolabe::cli {

/// Removes the scratch databases (astrolabe-sweep-<pid>-<rank>.db) that MPI ranks of sweeps
/// on this machine left in the temporary folder when they died. Every sweep calls it when it
/// starts; MPI ranks also when they end.
void removeOrphanedSweepScratch();

class MpiSweep {
public:
    /// Initialises MPI (MPI_Init). Throws UsageError when built without MPI.
    MpiSweep();
    /// MPI_Finalize; when a rank was lost it cannot be waited for, so the process ends here
    /// with the status given to setExitStatus.
    ~MpiSweep();
    MpiSweep(const MpiSweep&) = delete;
    MpiSweep& operator=(const MpiSweep&) = delete;

    int rank() const;
    /// Ends every rank at once (MPI_Abort): for an error on rank 0 while others wait for work.
    [[noreturn]] void abort(int exitCode);
    int size() const;
    /// Rank 0: distributes `todo` dynamically and calls `deliver` once per point, in the order
    /// results arrive. When every point is out and a rank asks for work, it gets a point still
    /// running elsewhere (a backup copy): a rank that died or stalls delays nothing, and the
    /// first result of a point is the one kept. Once every point is in, ranks still running a
    /// copy are waited for (at most max(30 s, 3 x the longest point)); those that never answer
    /// (dead under mpirun --enable-recovery) are returned.
    std::vector<int> distribute(const SweepPlan& plan, const std::vector<size_t>& todo,
                                const std::function<void(PointOutcome&&)>& deliver);
    /// Other ranks: run the points rank 0 sends until it says stop.
    void serve(const SweepPlan& plan);
    /// The command's exit status, for the destructor's early exit after a lost rank.
    void setExitStatus(int status);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace astrolabe::cli
