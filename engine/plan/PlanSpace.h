#pragma once
// The parallelism planner's search space (docs/planner.md): every legal way to train one model
// on N NPUs with a fixed global batch B, as the generator (generate/) can build it.
//
// Axes and their rules (each a rule of generate::validate() or of Megatron-LM):
//   tp  divides N, the heads, the FFN and the hidden size; KV heads and tp divide one another;
//       MoE: tp divides the sequence (tokens are split over tp);
//   pp  divides N / tp and the layers (equal stages: layers per stage = layers / pp);
//   cp  divides N / tp, where generate::contextParallelProblems accepts it (fused attention, the
//       sequence divisible by 2 cp, no MoE); placed right after tp, as the generator does;
//   pp  then divides N / (tp cp);
//   dp  = N / (tp cp pp), and divides B;
//   ep  MoE only: divides dp and the experts (dense: 1);
//   b   the micro-batch: b dp divides B; m = B / (b dp) micro-batches per pipeline;
//   v   1 (1F1B; no pipeline when pp = 1), or interleaved with v >= 2 model chunks per stage
//       when pp >= 2, pp v divides the layers and pp divides m;
//   ZeRO 0-3 when dp cp > 1 (the gradients' group; with dp cp = 1 every stage is ZeRO 0);
//   recompute: none, full, or selective (the attention core only) when the attention is not
//       fused (with fused attention the core stores nothing, so selective saves nothing);
//   sp  sequence parallelism, off or on when tp > 1 and tp divides the sequence;
//   placement: the order of the groups on the ranks, innermost first; only the order of the
//       axes of size > 1 matters, so k! orders for k such axes;
//   offload: the optimizer states kept in HBM or, where the project has a remote memory tier,
//       offloaded to it (x 2).
// So the count is, in closed form,
//   sum over (tp, cp, pp, ep, b) of (1 + #v) x zeros x recomputes x sps x k! x offloads
// with recomputes 2 (fused attention) or 3, k counting tp x cp as one axis
// (tests/engine/plan checks it on small cases).

#include "generate/GeneratorSpec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::plan {

/// What to plan: the model, training (global batch, precision) and compute of `base` (its
/// parallel section is ignored but for bucketBytes), on `npus` NPUs.
struct PlanRequest {
    generate::GeneratorSpec base;
    int npus = 0;
    /// Placements tried (indices into placementNames()); empty: all. A placement of a shape
    /// whose axes of size > 1 come in the same order as an allowed one counts as allowed.
    std::vector<uint8_t> placements;
    /// The project's remote memory tier (offloadTierOf): None, or where the optimizer states may
    /// be offloaded, each candidate then tried with and without (ZeRO-Offload / -Infinity).
    generate::OffloadTier offloadTier = generate::OffloadTier::None;
    /// One NPU's share of that tier's bandwidth, B/s, and its latency per access, s (its loads
    /// and stores are timed by them).
    double offloadBytesPerSecond = 0;
    double offloadLatencySeconds = 0;
    /// Threads ranking the space (rankConfigurations); 0: one per hardware thread.
    int threads = 0;
};

/// One configuration. Compact (the space of GPT-3 175B on 1,024 NPUs has ~10^5 of them).
struct Candidate {
    int tp = 1, pp = 1, dp = 1, ep = 1;
    int virtualStages = 1; ///< > 1: interleaved
    int microBatch = 1;
    int microBatches = 1; ///< per pipeline: B / (b dp)
    int8_t zero = 0;
    bool sequenceParallel = false;
    bool recompute = false;
    uint8_t placement = 0; ///< index into placementNames()
    int cp = 1;            ///< context parallelism (after placement: older initialisers hold)
    bool selectiveRecompute = false; ///< the attention core only (exclusive with recompute)
    bool offloadOptimizer = false;   ///< optimizer states in the request's offloadTier
};

/// The six orders of tp, dp, pp, innermost first ("tp,dp,pp" first, Megatron's).
const std::vector<std::string>& placementNames();

/// The generator spec of a candidate: the request's base with its split, batch and options.
generate::GeneratorSpec candidateSpec(const PlanRequest& request, const Candidate& c);

/// "t8 c2 p8 d16 v2 b1 z1 sp rc [tp,dp,pp]" (sel: selective recomputation; oo: optimizer
/// states offloaded)
std::string candidateLabel(const Candidate& c);

/// The (tp, cp, pp, ep, b, v, sp, recompute) shapes the space is made of: candidates sharing one
/// have one per-rank program (generate::buildProgram) and differ only in ZeRO and placement.
struct Shape {
    int tp = 1, pp = 1, dp = 1, ep = 1, virtualStages = 1, microBatch = 1, microBatches = 1;
    bool sequenceParallel = false, recompute = false;
    int cp = 1;
    bool selectiveRecompute = false;
};

struct Space {
    std::vector<Shape> shapes;
    uint64_t candidates = 0; ///< shapes x ZeRO stages x placements
    /// When `shapes` is empty: the constraint nobody can satisfy, as one sentence.
    std::string unsatisfiable;
};

/// Every legal shape. Never throws for a request it cannot satisfy: `unsatisfiable` says why
/// (NPUs not divisible, a global batch too small for the pipeline...).
Space enumerateSpace(const PlanRequest& request);

/// The candidate of a shape at a ZeRO stage and placement.
Candidate candidateOf(const Shape& shape, int zero, uint8_t placement,
                      bool offloadOptimizer = false);
/// Offload choices tried: 2 (none, optimizer states) when the request has a tier, else 1.
int offloadChoicesOf(const PlanRequest& request);

/// ZeRO stages tried for a shape: 0..3 when dp cp > 1, else 0 only.
int zeroStagesOf(const Shape& shape);
/// Placements tried for a shape: one per order of its axes of size > 1 (indices into
/// placementNames()), limited to the request's when it names some.
std::vector<uint8_t> placementsOf(const Shape& shape, const std::vector<uint8_t>& allowed = {});

} // namespace astrolabe::plan
