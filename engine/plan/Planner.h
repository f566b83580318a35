#pragma once
// The parallelism planner's ranking (docs/planner.md): enumerate the legal space (PlanSpace.h),
// refuse what does not fit in HBM by the generator's own accounting (generate/StageMemory.h,
// the check computeFigures makes), and estimate the rest (PlanEstimate.h), fastest first.
//
// Cost: one generate::buildProgram per shape (tp, cp, pp, ep, b, v, sp, recompute), one
// worst-stage memory sum per ZeRO stage and offload choice, one estimate per ZeRO stage and
// distinct placement key (PlanEstimate.h: placements whose groups land on the same dimensions
// share it). The shapes are spread over PlanRequest::threads threads; the result is the same
// for any number of them.

#include "plan/NetworkCosts.h"
#include "plan/PlanEstimate.h"
#include "plan/PlanSpace.h"
#include "spec/MemoryConfig.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::plan {

/// The memory terms, in MemoryBreakdown's order: weights, gradients, optimizer, activations.
enum class MemoryTerm : uint8_t { Weights, Gradients, Optimizer, Activations };
const char* memoryTermName(MemoryTerm term); ///< "weights", ..., "activations"

struct RankedCandidate {
    Candidate candidate;
    Estimate estimate;
    double memoryBytes = 0; ///< the worst stage's, per NPU
    /// How its estimate timed the pipeline (rankConfigurations: the best kWalkedCandidates by
    /// the closed forms are walked).
    PipelineModel pipeline = PipelineModel::Walk;
    /// Bit p: placementNames()[p] puts every group on the same dimension with the same hops as
    /// this candidate's placement (the same placementKey), so the estimate cannot tell the two
    /// apart; such twins are ranked once, as the first placement of the set.
    uint8_t twinPlacements = 0;
    double seconds() const { return estimate.total(); }
};

struct PlanResult {
    std::string unsatisfiable; ///< non-empty: nothing could be ranked, and why
    uint64_t enumerated = 0;   ///< legal candidates: ranked + rejected for memory + twins
    uint64_t rejectedForMemory = 0;
    uint64_t twins = 0; ///< candidates ranked as a twin's placement (twinPlacements)
    /// Candidates refused for memory, by their largest term (index: MemoryTerm).
    std::array<uint64_t, 4> rejectedBy{};
    /// Every candidate that fits, fastest estimate first.
    std::vector<RankedCandidate> ranked;
    /// The candidate that needs the least memory (whether or not it fits) and its breakdown:
    /// what "the model fits no configuration" quotes.
    RankedCandidate leastMemory;
    std::array<double, 4> leastMemoryTerms{};
    double hbmBytes = 0;
    double modelFlops = 0;     ///< per iteration (3 x forward), for MFU
    double peakFlops = 0;      ///< per NPU, FLOP/s
    double rankingSeconds = 0; ///< wall time of enumeration, memory and estimates
    int npus = 0;

    /// Model FLOPs utilisation at `seconds` per iteration.
    double mfu(double seconds) const;
};

/// One candidate, in or out of the space (a reference configuration such as the one a paper
/// used): its estimate and worst-stage memory by the same code as the ranking. Throws
/// astrolabe::Error when its spec does not validate.
RankedCandidate evaluateCandidate(const PlanRequest& request, const NetworkCosts& network,
                                  const Candidate& candidate,
                                  PipelineModel pipeline = PipelineModel::Walk);

/// The twin placements of a ranked candidate ({"dp,tp,pp", "pp,tp,dp"}), in placementNames()
/// order; empty when it has none. twinPlacementsText joins them with "; ".
std::vector<std::string> twinPlacementNames(const RankedCandidate& ranked);
std::string twinPlacementsText(const RankedCandidate& ranked);

/// The candidate a spec's parallel section describes (its placement must be one of
/// placementNames(); the micro-batches follow the global batch).
Candidate candidateFromSpec(const generate::GeneratorSpec& spec);

/// Sets the request's offload tier from the project's remote memory (none: no offload axis;
/// per NPU: nvme at its bandwidth; per node, a pool: pool, at one NPU's share of the bandwidth;
/// its latency per access).
/// Call after setting request.npus.
void offloadTierOf(PlanRequest& request, const RemoteMemoryConfig& memory);

/// How many of the best candidates by the closed-form pipeline (PipelineModel::ClosedForm) the
/// ranking re-estimates with the pipeline walk before it sorts them again (docs/planner.md,
/// "pipeline: the schedule walked", says how far down the closed forms' order the walk's best
/// lie).
inline constexpr size_t kWalkedCandidates = 4096;

/// Ranks the whole space (on request.threads threads): every candidate estimated with the
/// closed-form pipeline, the best kWalkedCandidates of them again with the walk, then sorted. Never
/// throws for an unsatisfiable request: `unsatisfiable` names the constraint (including "fits no
/// configuration" when every candidate is out of memory).
PlanResult rankConfigurations(const PlanRequest& request, const NetworkCosts& network);

} // namespace astrolabe::plan
