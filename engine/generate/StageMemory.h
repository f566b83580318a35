#pragma once
// The memory and compute of one pipeline stage on one of its NPUs, from a built program: the
// accounting ModelFigures.h describes, written once. computeFigures (the generator's own memory
// check and live figures) and the parallelism planner (plan/) both read it, so the two can never
// disagree on whether a configuration fits.
//
// Cost: O(layers of the stage x parameter shares) per stage; no allocation. Pure.

#include "generate/GeneratorSpec.h"
#include "generate/LayerProgram.h"
#include "generate/ModelFigures.h"

namespace astrolabe::generate {

/// Stage `stage`'s memory per NPU: model states (ZeRO-sharded, offloaded ones apart) and the
/// activations of its peak chunks in flight, plus the last stage's logits. `program` must be
/// buildProgram(spec) (or one built for the same model, tp, ep, sp, micro-batch, recompute,
/// pp and virtual stages).
MemoryBreakdown stageMemory(const GeneratorSpec& spec, const ModelProgram& program, int stage);

/// Compute seconds of one micro-batch's forward and backward passes over every chunk of
/// `stage`, each step timed as the trace's COMP node is (stepComputeSeconds), the forward counted
/// twice for recomputable layers under full recompute.
double stageComputeSecondsPerMicroBatch(const GeneratorSpec& spec, const ModelProgram& program,
                                        int stage);

/// One compute step's seconds (0 for a collective): the operation model's or the roofline's
/// (generate/OperationCost.h), as its trace node is timed. `elementBytes` sizes GEMM operands.
double stepComputeSeconds(const Step& step, const ComputeSpec& compute, double elementBytes = 2);

struct WorstStageMemory {
    MemoryBreakdown memory; ///< per NPU
    int stage = 0;          ///< the first stage with the largest total
};
/// The stage with the most memory per NPU (the figures' "memory per NPU").
WorstStageMemory worstStageMemory(const GeneratorSpec& spec, const ModelProgram& program);

/// HBM per NPU in bytes: compute.hbmCapacityGiB x 2^30.
double hbmCapacityBytes(const ComputeSpec& compute);
/// The generator's out-of-memory rule: more bytes than the HBM holds.
bool exceedsHbm(const MemoryBreakdown& memory, const ComputeSpec& compute);

} // namespace astrolabe::generate
