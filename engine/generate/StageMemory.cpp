#include "generate/StageMemory.h"

#include "generate/ModelStates.h"
#include "generate/OperationCost.h"
#include "generate/PipelineOrder.h"

#include <algorithm>

namespace astrolabe::generate {

double stepComputeSeconds(const Step& step, const ComputeSpec& c, double elementBytes) {
    if (step.kind != Step::Kind::Compute)
        return 0;
    return computeSeconds(step.flops, step.bytes, step.kernels, c, elementBytes);
}

MemoryBreakdown stageMemory(const GeneratorSpec& spec, const ModelProgram& program, int stage) {
    const ParallelSpec& par = spec.parallel;
    const int p = par.pp, v = par.virtualStages, m = spec.microBatches();
    const bool offloadWeights = spec.offload.parameters != OffloadTier::None;
    const bool offloadGradients = spec.offload.gradients != OffloadTier::None;
    const bool offloadOptimizer = spec.offload.optimizer != OffloadTier::None;
    MemoryBreakdown mem;
    double activationsPerPass = 0;
    for (int c = 0; c < v; ++c)
        for (int index : program.chunks[size_t(c * p + stage)]) {
            const LayerProgram& layer = program.layers[size_t(index)];
            for (const ParamShare& share : layer.params) {
                const StateBytes states = shareStateBytes(spec, share);
                (offloadWeights ? mem.offloadedWeights : mem.weights) += states.weights;
                (offloadGradients ? mem.offloadedGradients : mem.gradients) += states.gradients;
                (offloadOptimizer ? mem.offloadedOptimizer : mem.optimizer) += states.optimizer;
            }
            activationsPerPass += layer.activationBytes / v;
        }
    // Parameters are loaded before each forward and backward pass of every micro-batch and
    // written back once after the optimizer step.
    mem.offloadLoadBytes = 2.0 * m * mem.offloadedWeights + mem.offloadedOptimizer;
    mem.offloadStoreBytes = mem.offloadedWeights + mem.offloadedGradients + mem.offloadedOptimizer;
    mem.activations = activationsPerPass * peakInFlightChunks(par.schedule, p, v, m, stage);
    // The fp32 logits of every micro-batch whose last chunk ran forward but not yet backward,
    // and one micro-batch's 16-bit logits (or their gradient) while its loss runs.
    if (stage == p - 1) {
        mem.logits =
            program.extraActivationBytesLastStage * peakLastChunkInFlight(par.schedule, p, v, m) +
            program.transientBytesLastStage;
        mem.activations += mem.logits;
    }
    return mem;
}

double stageComputeSecondsPerMicroBatch(const GeneratorSpec& spec, const ModelProgram& program,
                                        int stage) {
    const ParallelSpec& par = spec.parallel;
    double seconds = 0;
    for (int c = 0; c < par.virtualStages; ++c)
        for (int index : program.chunks[size_t(c * par.pp + stage)]) {
            const LayerProgram& layer = program.layers[size_t(index)];
            const int forwards = par.recompute && layer.recomputable ? 2 : 1;
            for (const Step& step : layer.forward)
                seconds += stepComputeSeconds(step, spec.compute, spec.training.bytesPerElement) *
                           forwards;
            for (const Step& step : layer.backward)
                seconds += stepComputeSeconds(step, spec.compute, spec.training.bytesPerElement);
        }
    return seconds;
}

WorstStageMemory worstStageMemory(const GeneratorSpec& spec, const ModelProgram& program) {
    WorstStageMemory worst;
    double most = -1;
    for (int stage = 0; stage < spec.parallel.pp; ++stage) {
        const MemoryBreakdown mem = stageMemory(spec, program, stage);
        if (mem.total() > most) {
            most = mem.total();
            worst.memory = mem;
            worst.stage = stage;
        }
    }
    return worst;
}

double hbmCapacityBytes(const ComputeSpec& compute) {
    return compute.hbmCapacityGiB * 1024.0 * 1024.0 * 1024.0;
}

bool exceedsHbm(const MemoryBreakdown& memory, const ComputeSpec& compute) {
    return memory.total() > hbmCapacityBytes(compute);
}

} // namespace astrolabe::generate
