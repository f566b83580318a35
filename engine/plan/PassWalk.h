#pragma once
// The passes of one pipeline stage walked step by step against the NPU's collective queues
// (docs/planner.md, "the queue walk"), for the collectives that run beside the compute: ZeRO-3's
// weight gathers and gradient reduce-scatters, and the data-parallel gradient buckets of the
// last backward pass.
//
// The simulator runs one collective phase at a time per queue (active-chunks-per-dimension 1):
// every communicator group's ring on queue 0, a group of every NPU one phase per dimension on
// that dimension's queue (NetworkCosts::collectivePhases). A background collective is issued when
// the generator issues it (generate/TraceBuilder.cpp) and runs when its queue is free; a
// blocking collective (tensor- or expert-parallel) issued at t runs once everything queued before
// it is done. First come, first served: that is what the simulated traces show, even under
// Selene's LIFO scheduling policy (an all-to-all issued 2.7 ms into the next layer's 4.6 ms
// expert gather waited for it and for the small gather queued after it; docs/planner.md).
// The generator's order, modelled here:
//   ZeRO-3: a pass's first layer gathers its weights when the pass starts (exposed); each layer
//   starts once its gathers are done and then issues the next layer's (after its first step
//   when that is a collective); in the backward pass a layer's reduce-scatters follow its last
//   compute step and the next layer's gather of the same group;
//   buckets (ZeRO 0-2, the last backward pass of each chunk): a group's gradients are reduced
//   (all-reduce, or reduce-scatter) once a bucket's worth is ready, the rest when the pass ends.
//
// Units: seconds. Pure.

#include "generate/LayerProgram.h"
#include "plan/NetworkCosts.h"

#include <functional>
#include <utility>
#include <vector>

namespace astrolabe::plan {

/// A collective as the walk meets it; the shape's distinct ones are numbered (slots), so that a
/// candidate times each once (PhaseSlots) and the walk looks them up by number.
struct SlotKey {
    CollectiveType type = CollectiveType::AllReduce;
    generate::GroupKind group = generate::GroupKind::Tp;
    double commBytes = 0;
};
/// The slot of a collective in `keys`, added when new.
int slotOf(std::vector<SlotKey>& keys, CollectiveType type, generate::GroupKind group,
           double commBytes);

struct WalkStep {
    bool collective = false;
    double seconds = 0; ///< a compute step's
    CollectiveType type = CollectiveType::AllReduce;
    generate::GroupKind group = generate::GroupKind::Tp;
    double commBytes = 0;
    int slot = -1; ///< a collective's slot (-1: looked up by PhasesOf)
};

/// The weight and gradient bytes of a parameter share, with its group and the slots of ZeRO-3's
/// gather (all-gather of bytes / members) and reduce-scatter (of gradientBytes).
struct WalkShare {
    generate::GroupKind group = generate::GroupKind::Dp;
    double bytes = 0, gradientBytes = 0;
    int gatherSlot = -1, reduceSlot = -1;
};

struct WalkLayer {
    std::vector<WalkStep> forward, backward;
    bool recomputable = true;
    std::vector<WalkShare> shares;
};

/// One stage's local chunks, each its layers in forward order.
using WalkChunks = std::vector<std::vector<WalkLayer>>;

/// A candidate's collectives on the queues: the phases of one collective (a reference that
/// stays valid for the walk: the estimate caches them, the layers repeat the same few).
using PhasesOf = std::function<const std::vector<NetworkCosts::Phase>&(
    CollectiveType, generate::GroupKind, double)>;
/// The phases of each slot (SlotKey) for one candidate.
using PhaseSlots = std::vector<std::vector<NetworkCosts::Phase>>;

struct WalkOptions {
    bool recompute = false;
    bool zero3 = false;
    int zeroStage = 0;
    double bucketBytes = 0; ///< of gradients
    /// ZeRO 1-2: a bucket's weights all-gathered per byte of its gradients (e over the
    /// gradients' bytes per element: 1/2 with fp32 gradients of 16-bit weights).
    double weightBytesPerGradientByte = 1;
    /// The number of members of a group (for the ZeRO-3 shard sizes).
    std::function<int(generate::GroupKind)> groupSize;
};

/// ZeRO-3: one micro-batch's passes (forward of each chunk, then a backward) in the steady
/// state, the second of two micro-batches walked back to back: its seconds, and how long the
/// queues run on after its last pass (the last reduce-scatters).
struct Zero3Walk {
    double microBatch = 0, after = 0;
};
Zero3Walk walkZero3MicroBatch(const WalkChunks& chunks, const WalkOptions& options,
                              const PhaseSlots& table, const PhasesOf& phases);

/// The last backward pass of every chunk with the gradient buckets issued as the generator
/// does: {the passes' time with the buckets, without them (compute and blocking collectives
/// back to back), how long the buckets run on after the last pass, and (ZeRO 1-2) the
/// all-gathers of the updated weights after the optimizer step, one per bucket}.
struct BucketWalk {
    double withBuckets = 0, without = 0, after = 0, gathers = 0;
};
BucketWalk walkLastBackward(const WalkChunks& chunks, const WalkOptions& options,
                            const PhaseSlots& table, const PhasesOf& phases);
/// The same for one chunk (its layers in forward order).
BucketWalk walkChunkLastBackward(const std::vector<WalkLayer>& chunk, const WalkOptions& options,
                                 const PhaseSlots& table, const PhasesOf& phases);

} // namespace astrolabe::plan
