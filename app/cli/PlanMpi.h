#pragma once
// The planner's top-K simulations across MPI ranks (optimize parallelism --mpi). Every rank runs
// the same command, so each ranks the same space and asks for the same batches; each simulates
// its share of a batch (candidate i on rank i mod size, on its own --jobs threads) and the
// outcomes are exchanged so that every rank holds all of them and takes the same next step
// (retries, rounds). MPI is started and ended by MpiSweep (SweepMpi.h), as sweeps do; only rank 0
// prints.

#include "cli/SweepMpi.h"
#include "plan/PlanSimulation.h"

#include <functional>
#include <vector>

namespace astrolabe::cli {

/// plan::simulateCandidates across the ranks of `mpi`: the same outcomes in the same order on
/// every rank; `done` is called for each, in the candidates' order, once all are in.
std::vector<plan::SimulatedCandidate>
simulateCandidatesMpi(MpiSweep& mpi, const SimulationSpec& project,
                      const plan::PlanRequest& request,
                      const std::vector<plan::RankedCandidate>& candidates, int jobs,
                      const std::function<void(const plan::SimulatedCandidate&)>& done = {});

} // namespace astrolabe::cli
