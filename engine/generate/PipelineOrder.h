#pragma once
// The order in which one pipeline stage runs its forward and backward passes.
//
// * GPipe: every micro-batch forward, then every backward (ascending micro-batch).
// * 1F1B (PipeDream-flush): p - s - 1 warm-up forwards on stage s, then one forward / one
//   backward pairs, then the remaining backwards.
// * Interleaved (Narayanan et al. 2021): v model chunks per stage, stage s holding chunks
//   c * p + s. Forwards visit micro-batches in groups of p per chunk; warm-up is
//   (p - s - 1) * 2 + (v - 1) * p forwards; backwards visit chunks in reverse. Needs m % p == 0.
// Bubble fraction of the whole iteration: (p - 1) / (m + p - 1), interleaved (p - 1) / (v m + p -
// 1).

#include "generate/GeneratorSpec.h"

#include <vector>

namespace astrolabe::generate {

struct PipelineOp {
    bool forward = true;
    int microBatch = 0;
    int chunk = 0; ///< local chunk c (0..v-1); global model chunk is c * p + stage
};

/// Every (forward, backward) x micro-batch x chunk exactly once, in execution order.
std::vector<PipelineOp> pipelineOrder(PipelineSchedule schedule, int stages, int virtualStages,
                                      int microBatches, int stage);

/// (p - 1) / (m + p - 1), or (p - 1) / (v m + p - 1) for the interleaved schedule.
double pipelineBubbleFraction(PipelineSchedule schedule, int stages, int virtualStages,
                              int microBatches);

/// Forward chunk passes whose activations stage `stage` holds at its peak (memory figure): the
/// peak of (forwards - backwards) along pipelineOrder, in closed form (O(1)): m under GPipe,
/// else min(passes, warm-up + 1).
int peakInFlightChunks(PipelineSchedule schedule, int stages, int virtualStages, int microBatches,
                       int stage);

/// Micro-batches whose last model chunk ran forward but not yet backward at the peak, on the
/// last stage (the logits kept for the loss): m under GPipe, 1 under 1F1B and interleaved.
int peakLastChunkInFlight(PipelineSchedule schedule, int stages, int virtualStages,
                          int microBatches);

} // namespace astrolabe::generate
