#pragma once
// The pipeline part of the planner's estimate (docs/planner.md, "the pipeline walk"): the
// schedule the generator emits (generate::pipelineOrder: 1F1B, interleaved 1F1B with v chunks,
// GPipe) walked as a small event graph, pass by pass.
//
//   * each stage runs its chunk passes one after the other, in the generator's order; a pass
//     lasts its chunk's forward or backward time on that stage;
//   * a pass that needs the previous chunk's activation (forward) or the next chunk's gradient
//     (backward) starts once that message has arrived: sent when the sender's pass ends, it
//     takes delta on the link between the two stages;
//   * a send is not compute, but in the simulator it holds the NPU's communication slot until
//     it is delivered (execution/NpuExecutor.h: collectives, sends and remote memory share one
//     slot; receives take none): the next send waits for it, and so does the next pass's first
//     node on that slot, a collective issued `lead` seconds into the pass (the compute before
//     it); the pass is late by what of the send is left then.
//
// The iteration's pipeline part is the walk's makespan: every stage from the first pass to the
// end of its last. With delta 0 and equal stages it is the textbook (m + p - 1) tau for 1F1B
// and m tau + (p - 1) tau / v interleaved (tau: a micro-batch's passes over all v chunks).
//
// Cost: O(p v m) passes, each O(1). A PipelineWalk builds the stages' orders once (per shape:
// they depend on p, v and m only) and remembers its last few answers: a shape's ZeRO stages
// 0-2 and its placement twins share their passes' times.
// Units: seconds.

#include "generate/GeneratorSpec.h"
#include "generate/PipelineOrder.h"
#include "plan/PassWalk.h"

#include <algorithm>
#include <vector>

namespace astrolabe::plan {

/// One local chunk's passes on a stage: their seconds, and the compute before their first node
/// on the communication slot (a collective; the pass's length when it has none). The chunk's
/// last backward pass (its gradients final) reduces them in buckets: the collectives queued
/// behind the buckets make that pass `lastBackwardLonger`, and the buckets still queued when it
/// ends hold the slot `lastBackwardHeld` longer before its send (they were issued first).
struct ChunkPasses {
    double forward = 0, backward = 0;
    double forwardLead = 0, backwardLead = 0;
    double lastBackwardLonger = 0, lastBackwardHeld = 0;
    bool operator==(const ChunkPasses&) const = default;
};

/// Per stage, its v local chunks (local chunk c holds model chunk c p + s).
using PipelineStages = std::vector<std::vector<ChunkPasses>>;

struct PipelineWalkOptions {
    generate::PipelineSchedule schedule = generate::PipelineSchedule::OneFOneB;
    int microBatches = 1;
    double delta = 0;     ///< a boundary message between stages s and s + 1
    double wrapDelta = 0; ///< interleaved: from the last stage to the first (next chunk)
};

/// The makespan of the schedule (seconds); 0 for no stage; infinity for an order that waits on
/// itself (not one the generator emits).
double walkPipeline(const PipelineStages& stages, const PipelineWalkOptions& options);

/// The same walk for many stage times on one schedule (p, v, m fixed): the orders built once,
/// the scratch reused, the last answers remembered (exact: equal inputs, the same makespan).
/// Not for use from two threads at once.
class PipelineWalk {
public:
    PipelineWalk() = default;
    PipelineWalk(generate::PipelineSchedule schedule, int stages, int virtualStages,
                 int microBatches);
    bool walks(generate::PipelineSchedule schedule, int stages, int virtualStages,
               int microBatches) const {
        return schedule == m_schedule && stages == m_p && virtualStages == m_v &&
               std::max(1, microBatches) == m_m;
    }
    /// When each stage ends its last pass; passes: stage s's local chunk c at s v + c.
    const std::vector<double>& stageEnds(const std::vector<ChunkPasses>& passes, double delta,
                                         double wrapDelta);

private:
    void walk(const std::vector<ChunkPasses>& passes, double delta, double wrapDelta,
              std::vector<double>& ends);

    generate::PipelineSchedule m_schedule = generate::PipelineSchedule::OneFOneB;
    int m_p = 0, m_v = 0, m_m = 0;
    std::vector<std::vector<generate::PipelineOp>> m_orders; ///< per stage
    std::vector<size_t> m_lastBackward; ///< per (stage, chunk): its last backward in the order
    std::vector<double> m_forward, m_backward; ///< per (model chunk, micro-batch)
    struct Stage {
        size_t next = 0;     ///< the next pass in its order
        double free = 0;     ///< when its last pass ended
        double slotFree = 0; ///< when its last send was delivered
    };
    std::vector<Stage> m_state;
    struct Answer {
        std::vector<ChunkPasses> passes;
        double delta = 0, wrapDelta = 0;
        std::vector<double> ends;
    };
    std::vector<Answer> m_answers; ///< the last few, oldest replaced first
    size_t m_oldest = 0;
};

/// A stage's chunk passes from its walk (PassWalk.h), appended to `out`: the compute steps and
/// the blocking collectives (phases back to back) of each pass, forward and backward
/// (recomputation first under full recompute), and the compute before each pass's first
/// collective; ZeRO-3 (`options.zero3`) gathers the first layer's weights when a pass starts,
/// so its lead is 0. ZeRO 0-2: each chunk's last backward walked alone with its gradient
/// buckets (walkLastBackward) gives lastBackwardLonger and lastBackwardHeld.
void appendChunkPasses(std::vector<ChunkPasses>& out, const WalkChunks& chunks,
                       const WalkOptions& options, const PhaseSlots& table, const PhasesOf& phases);

} // namespace astrolabe::plan
