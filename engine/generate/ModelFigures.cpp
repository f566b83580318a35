#include "generate/ModelFigures.h"

#include "core/Units.h"
#include "generate/DataParallelProgram.h"
#include "generate/ModelStates.h"
#include "generate/OperationCost.h"
#include "generate/PipelineOrder.h"
#include "generate/RankLayout.h"
#include "generate/StageMemory.h"
#include "generate/TransformerCounts.h"
#include "generate/WorkloadGenerator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::generate {

namespace {

double computeFlops(const std::vector<Step>& steps, bool withRecomputed = false) {
    double sum = 0;
    for (const Step& s : steps)
        if (s.kind == Step::Kind::Compute && (withRecomputed || !s.recomputed))
            sum += s.flops;
    return sum;
}

} // namespace

ModelFigures computeFigures(const GeneratorSpec& spec) {
    validate(spec);
    const ModelSpec& model = spec.model;
    const ParallelSpec& par = spec.parallel;
    const ModelProgram program = buildProgram(spec);
    const int p = par.pp, v = par.virtualStages;

    ModelFigures f;
    f.npus = static_cast<int>(par.npus()); // validated: at most kMaxNpus
    f.microBatches = spec.microBatches();
    f.globalBatch = spec.training.globalBatch;
    f.microBatch = spec.training.microBatch;
    f.dataParallel = spec.parallel.dp;
    const double m = f.microBatches;
    const double replicas = double(par.tp) * par.cp * par.dp; // ranks per stage
    if (model.kind == ModelKind::Transformer) { // Megatron's closed form: dense models only
        const ParameterCounts counts = transformerParameters(model);
        f.parameters = counts.total;
        f.activeParameters = counts.active;
        f.tokens = double(spec.training.globalBatch) * model.sequence;
        f.sixNT = 6 * f.activeParameters * f.tokens;
        const double B = spec.training.globalBatch, s = model.sequence, l = model.layers;
        const double h = model.hidden, V = model.vocabulary;
        if (model.isMoe()) {
            // no closed form: experts break the 24 B s h^2 per layer assumption
        } else if (par.recompute) {
            f.megatronFlops = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
            f.megatronFormula = "96 B s l h^2 (1 + s/6h + V/16lh), full recompute";
            f.megatronWithRecompute = true;
        } else {
            f.megatronFlops = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
            f.megatronFormula = "72 B s l h^2 (1 + s/6h + V/12lh)";
        }
    } else {
        f.parameters = f.activeParameters = dataParallelParameters(spec);
        f.tokens = spec.training.globalBatch;
    }

    for (const LayerProgram& layer : program.layers) {
        const double fwd = computeFlops(layer.forward), bwd = computeFlops(layer.backward);
        f.modelFlops += (fwd + bwd) * replicas * m;
        const double again = computeFlops(layer.backward, true) - bwd; // selective recompute
        f.hardwareFlops +=
            (fwd + bwd + again + (par.recompute && layer.recomputable ? fwd : 0)) * replicas * m;
        for (const std::vector<Step>* pass : {&layer.forward, &layer.backward})
            for (const Step& step : *pass)
                if (step.kind == Step::Kind::Compute)
                    ++(timedBy(step.flops, step.kernels, spec.compute) == TimedBy::Operations
                           ? f.stepsByOperations
                           : f.stepsByRoofline);
    }
    f.computeModel = spec.compute.model;
    f.bubbleFraction = p > 1 ? pipelineBubbleFraction(par.schedule, p, v, f.microBatches) : 0;

    f.offload = spec.offload;
    f.gradientBytes = spec.training.gradientBytes();
    const WorstStageMemory worst = worstStageMemory(spec, program);
    f.memory = worst.memory;
    f.worstStage = worst.stage;
    for (int stage = 0; stage < p; ++stage)
        f.computeSeconds =
            std::max(f.computeSeconds, stageComputeSecondsPerMicroBatch(spec, program, stage) * m);
    f.hbmCapacityBytes = hbmCapacityBytes(spec.compute);
    f.outOfMemory = exceedsHbm(f.memory, spec.compute);
    return f;
}

double ModelFigures::offloadedTo(OffloadTier tier) const {
    double bytes = 0;
    if (offload.parameters == tier)
        bytes += memory.offloadedWeights;
    if (offload.gradients == tier)
        bytes += memory.offloadedGradients;
    if (offload.optimizer == tier)
        bytes += memory.offloadedOptimizer;
    return bytes;
}

std::string formatCount(double value) {
    const char* suffix[] = {"", " K", " M", " B", " T", " P", " E", " Z"};
    int i = 0;
    while (std::fabs(value) >= 1000 && i < 7) {
        value /= 1000;
        ++i;
    }
    return units::formatFixed(value, i == 0 ? 0 : value < 10 ? 3 : value < 100 ? 2 : 1) + suffix[i];
}

std::string formatBytes(double bytes) {
    const char* suffix[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    while (bytes >= 1024 && i < 5) {
        bytes /= 1024;
        ++i;
    }
    return units::formatFixed(bytes, i == 0 ? 0 : 2) + " " + suffix[i];
}

std::string formatFigures(const ModelFigures& f) {
    std::string out;
    auto line = [&](const std::string& key, const std::string& value) {
        std::string k = key;
        k.resize(22, ' ');
        out += k + value + "\n";
    };
    line("NPUs", std::to_string(f.npus) + ", " + std::to_string(f.microBatches) +
                     " micro-batches per pipeline");
    line("parameters", formatCount(f.parameters) +
                           (f.activeParameters < f.parameters
                                ? " (active per token " + formatCount(f.activeParameters) + ")"
                                : ""));
    // How the batch is made, so that a batch that followed dp (--npus without --global-batch
    // keeps the micro-batches per pipeline) is visible.
    line("tokens per iteration",
         formatCount(f.tokens) + (f.globalBatch > 0 && f.microBatch > 0
                                      ? " (global batch " + std::to_string(f.globalBatch) + " = " +
                                            std::to_string(f.microBatches) + " micro-batches x " +
                                            std::to_string(f.microBatch) + " x dp " +
                                            std::to_string(f.dataParallel) + ")"
                                      : ""));
    line("model FLOPs", formatCount(f.modelFlops) + "FLOP (3 x forward)");
    line("hardware FLOPs", formatCount(f.hardwareFlops) + (f.hardwareFlops > f.modelFlops
                                                               ? "FLOP (with recomputation)"
                                                               : "FLOP (no recomputation)"));
    if (f.sixNT > 0)
        line("6 N T", formatCount(f.sixNT) + "FLOP (model / 6NT = " +
                          units::formatFixed(f.modelFlops / f.sixNT, 3) + ")");
    if (f.megatronFlops > 0) {
        const double ours = f.megatronWithRecompute ? f.hardwareFlops : f.modelFlops;
        line("Megatron", formatCount(f.megatronFlops) + "FLOP (ours / Megatron = " +
                             units::formatFixed(ours / f.megatronFlops, 3) + ")");
        line("  formula", f.megatronFormula + " (GPT layers)");
    }
    line("pipeline bubble", units::formatFixed(100 * f.bubbleFraction, 1) + " % of the iteration");
    line("memory per NPU", formatBytes(f.memory.total()) + " (stage " +
                               std::to_string(f.worstStage) + ") of " +
                               formatBytes(f.hbmCapacityBytes) + " HBM");
    line("  weights", formatBytes(f.memory.weights));
    line("  gradients", formatBytes(f.memory.gradients) + (f.gradientBytes == 4 ? " (fp32)" : ""));
    line("  optimizer states", formatBytes(f.memory.optimizer));
    line("  activations",
         formatBytes(f.memory.activations) +
             (f.memory.logits > 0 ? " (the loss's logits " + formatBytes(f.memory.logits) + ")"
                                  : ""));
    if (f.offload.any()) {
        std::string tiers = formatBytes(f.memory.offloaded());
        for (OffloadTier tier : {OffloadTier::Nvme, OffloadTier::Pool}) {
            tiers += tier == OffloadTier::Nvme ? ": " : ", ";
            tiers += offloadTierName(tier);
            tiers += ' ';
            tiers += formatBytes(f.offloadedTo(tier));
        }
        line("offloaded per NPU", tiers);
        auto state = [&](const std::string& key, double bytes, OffloadTier tier) {
            if (tier == OffloadTier::None)
                return;
            std::string value = formatBytes(bytes);
            value += " to ";
            value += offloadTierName(tier);
            line(key, value);
        };
        state("  weights", f.memory.offloadedWeights, f.offload.parameters);
        state("  gradients", f.memory.offloadedGradients, f.offload.gradients);
        state("  optimizer states", f.memory.offloadedOptimizer, f.offload.optimizer);
        std::string traffic = "load ";
        traffic += formatBytes(f.memory.offloadLoadBytes);
        traffic += ", store ";
        traffic += formatBytes(f.memory.offloadStoreBytes);
        traffic += " per iteration";
        line("offload traffic", traffic);
    }
    line("compute per NPU", units::formatFixed(f.computeSeconds * 1e3, 1) +
                                " ms per iteration (no bubble, no communication)");
    std::string timed = computeModelName(f.computeModel);
    timed += ": " + std::to_string(f.stepsByOperations) + " steps by their kernels, " +
             std::to_string(f.stepsByRoofline) + " by the roofline";
    line("compute model", timed);
    if (f.outOfMemory)
        out += "WARNING: out of memory: " + formatBytes(f.memory.total()) + " needed, " +
               formatBytes(f.hbmCapacityBytes) + " available\n";
    return out;
}

} // namespace astrolabe::generate
