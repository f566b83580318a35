#pragma once
// The planner's analytical iteration time (docs/planner.md), built from the same per-rank
// program the trace is built from (generate::buildProgram), so it sees the same compute steps,
// collectives and parameter shares:
//
//   per micro-batch on stage s:  tau_s = compute_s (roofline, recompute included; the COMP
//       nodes' durations) + the blocking tp / ep collectives of its forward and backward passes
//       (NetworkCosts, on the dimension their group's placement puts them on);
//       ZeRO-3: the passes walked layer by layer against the collective queues (PassWalk.h):
//       the weight gathers and reduce-scatters as the generator issues them, the blocking
//       collectives queued behind them, the first layer's gathers of each pass exposed;
//   pipeline: the generator's schedule (1F1B, interleaved) walked pass by pass
//       (PipelineWalk.h): each chunk pass its share of tau_s, a pass needing a boundary
//       message starting once it has arrived (delta after the sender's pass), a send holding
//       the NPU's communication slot until delivered (the next pass's first collective waits
//       for it), each chunk's last backward with its gradient buckets (the pass longer by the
//       collectives queued behind them, its send held behind those still queued); the bubble
//       is what the makespan adds to m tau_max. PipelineModel::ClosedForm, the ranking's
//       first pass: 1F1B m max(tau_max, (sum_s tau_s + 2 (p - 1) delta) / p) + sum_s tau_s -
//       tau_max + 2 (p - 1) delta, interleaved (m + (p - 1) / v) (tau_max + 2 v delta);
//   tail: per stage, after its last pass: the buckets still queued then (ZeRO-3: the last
//       reduce-scatters), the optimizer step (Adam over the rank's shard at HBM speed; with
//       its states offloaded, the larger of that and their traffic through the tier), for
//       ZeRO 1-2 the weight all-gathers after it, one per bucket; the first and last stages
//       also all-reduce the tied embedding once both have drained; the closed-form pass keeps
//       the chain of the last backward's delays down the pipeline instead;
//   iteration = pipeline + tail.
//
// Each term is kept apart so that the planner can refit their weights to simulations
// (PlanSimulation.h: calibrate).

#include "generate/GeneratorSpec.h"
#include "generate/LayerProgram.h"
#include "plan/NetworkCosts.h"
#include "plan/PassWalk.h"
#include "plan/PipelineWalk.h"

#include <array>
#include <vector>

namespace astrolabe::plan {

/// One collective of a pass, with how many times a micro-batch issues it.
struct CollectiveUse {
    CollectiveType type = CollectiveType::AllReduce;
    generate::GroupKind group = generate::GroupKind::Tp;
    double commBytes = 0;
    double count = 0;
};

inline constexpr size_t kGroupKinds = generate::kGroupKindCount;

/// Collectives that run beside a compute step (context parallelism's key/value ring beside the
/// attention core): only what the step does not hide is on the critical path.
struct BesideUse {
    std::vector<CollectiveUse> collectives;
    double hidingSeconds = 0; ///< the compute step they run beside
    double count = 0;         ///< per micro-batch
};

struct StageProfile {
    double computeSeconds = 0;           ///< one micro-batch, every chunk, forward + backward
    double backwardComputeSeconds = 0;   ///< of that, the backward passes (with recompute)
    std::vector<CollectiveUse> blocking; ///< per micro-batch, forward + backward (+ recompute)
    std::vector<BesideUse> beside;       ///< per micro-batch, overlapped (cp's K/V exchange)
    /// Parameter elements on one NPU per synchronisation group (index: GroupKind).
    std::array<double, kGroupKinds> elements{};
    /// ZeRO-3 per micro-batch: 16-bit weight bytes per group (gathered twice, reduced once),
    /// in this many layer shares (one gather each).
    std::array<double, kGroupKinds> weightBytes{};
    std::array<double, kGroupKinds> shares{};
    double layers = 0; ///< layers (embedding and head included) of the stage, every chunk
    WalkChunks walk;   ///< its chunks step by step, for the queue walk (PassWalk.h)
};

/// What depends on the shape (tp, cp, pp, ep, b, v, sp, recompute) only: built once per shape.
struct ShapeProfile {
    std::vector<StageProfile> stages;
    std::vector<SlotKey> slotKeys; ///< the walks' distinct collectives (PassWalk.h)
    double boundaryBytes = 0;
    double tiedEmbeddingBytes = 0;
    /// The shape's pipeline schedule (pp > 1), walked for each candidate's stage times: built
    /// by the first walk; it remembers its last answers (one profile per thread, as the
    /// planner uses it).
    mutable PipelineWalk pipeline;
};

/// spec: a valid candidate spec; program: buildProgram(spec).
ShapeProfile profileShape(const generate::GeneratorSpec& spec,
                          const generate::ModelProgram& program);

struct Estimate {
    double compute = 0;       ///< m x compute of the slowest stage
    double communication = 0; ///< m x its blocking collectives (closed form: + the messages)
    double bubble = 0;        ///< what the pipeline adds to m tau_max
    double tail = 0;          ///< after the pipeline: exposed reductions, optimizer, gathers
    double total() const { return compute + communication + bubble + tail; }
};

/// What of a placement the estimate depends on: the stride class (NetworkCosts::strideClass) of
/// every group kind's members (-1 for a group of one). Two placements of one shape and ZeRO stage
/// with the same key have the same estimate, to the bit (the planner ranks such twins once, as the
/// first).
using PlacementKey = std::array<long, 10>; // GroupKind values
PlacementKey placementKey(const generate::ParallelSpec& parallel, const NetworkCosts& network);

/// A communicator group whose members reach past the dimension of their smallest distance:
/// the congestion-unaware network model times its whole ring on that dimension (NetworkCosts.h),
/// and so does the estimate, while its real messages also cross the dimensions above.
struct FoldedGroup {
    generate::GroupKind kind = generate::GroupKind::None;
    int members = 0;
    int timedOn = 0; ///< the dimension of its stride
    int reaches = 0; ///< the highest dimension its members span
};
/// The groups of `spec` that carry collectives (the expert groups only for a MoE model) and
/// are folded so on `network`.
std::vector<FoldedGroup> foldedGroups(const generate::GeneratorSpec& spec,
                                      const NetworkCosts& network);

/// One NPU's share of the memory tier the optimizer states may be offloaded to: an access of
/// b bytes takes latency + b / bandwidth (memory/RemoteMemory.cpp), one at a time.
struct OffloadCost {
    double bytesPerSecond = 0; ///< 0: no tier
    double latencySeconds = 0;
};

/// How the estimate times the pipeline (pp > 1).
///   Walk: the generator's schedule walked pass by pass (PipelineWalk.h): the model.
///   ClosedForm: the ranking's first pass over the whole space (Planner.h), O(p) instead of
///     O(p v m): 1F1B m max(tau_max, (sum_s tau_s + 2 (p - 1) delta) / p) + a bubble of
///     sum_s tau_s - tau_max + 2 (p - 1) delta; interleaved (m + (p - 1) / v) (tau_max +
///     2 v delta). It charges messages the walk finds hidden (docs/planner.md), so it only
///     chooses which candidates the walk re-estimates.
enum class PipelineModel : uint8_t { Walk, ClosedForm };

/// The estimate of spec (its ZeRO stage and placement) from its shape's profile. With the
/// optimizer states offloaded (spec.offload.optimizer) to `offload`, the optimizer step of the
/// tail becomes max(the step at HBM speed, the states' load and store through the tier, one
/// access each per layer): the generator loads, steps and stores layer by layer, so the steps
/// run beside the next layers' loads.
Estimate estimateIteration(const generate::GeneratorSpec& spec, const ShapeProfile& profile,
                           const NetworkCosts& network, const OffloadCost& offload = {},
                           PipelineModel pipeline = PipelineModel::Walk);

} // namespace astrolabe::plan
