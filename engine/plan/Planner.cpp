#include "plan/Planner.h"

#include "core/Error.h"
#include "generate/ModelFigures.h"
#include "generate/StageMemory.h"
#include "generate/TransformerCounts.h"
#include "generate/WorkloadGenerator.h"

#include <algorithm>
#include <chrono>

namespace astrolabe::plan {
namespace {

std::array<double, 4> termsOf(const generate::MemoryBreakdown& m) {
    return {m.weights, m.gradients, m.optimizer, m.activations};
}

size_t largestTerm(const std::array<double, 4>& terms) {
    return size_t(std::max_element(terms.begin(), terms.end()) - terms.begin());
}

/// Offloaded states: loaded and stored back once per iteration (the optimizer states: before
/// and after the step, generate/StageMemory.h's offloadLoadBytes / offloadStoreBytes) through
/// one NPU's share of the tier; in the tail, behind the gradient reduction.
double offloadSeconds(const PlanRequest& request, const generate::MemoryBreakdown& memory) {
    const double bytes = memory.offloadLoadBytes + memory.offloadStoreBytes;
    return bytes > 0 && request.offloadBytesPerSecond > 0 ? bytes / request.offloadBytesPerSecond
                                                          : 0;
}

} // namespace

const char* memoryTermName(MemoryTerm term) {
    switch (term) {
    case MemoryTerm::Weights:
        return "weights";
    case MemoryTerm::Gradients:
        return "gradients";
    case MemoryTerm::Optimizer:
        return "optimizer states";
    case MemoryTerm::Activations:
        return "activations";
    }
    return "weights";
}

double PlanResult::mfu(double seconds) const {
    return seconds > 0 && peakFlops > 0 ? modelFlops / (seconds * npus * peakFlops) : 0;
}

RankedCandidate evaluateCandidate(const PlanRequest& request, const NetworkCosts& network,
                                  const Candidate& candidate) {
    const generate::GeneratorSpec spec = candidateSpec(request, candidate);
    generate::validate(spec);
    const generate::ModelProgram program = generate::buildProgram(spec);
    RankedCandidate out;
    out.candidate = candidate;
    out.candidate.microBatches = spec.microBatches();
    out.estimate = estimateIteration(spec, profileShape(spec, program), network);
    const generate::MemoryBreakdown memory = generate::worstStageMemory(spec, program).memory;
    out.estimate.tail += offloadSeconds(request, memory);
    out.memoryBytes = memory.total();
    return out;
}

Candidate candidateFromSpec(const generate::GeneratorSpec& spec) {
    const generate::ParallelSpec& p = spec.parallel;
    Candidate c;
    c.tp = p.tp;
    c.cp = p.cp;
    c.pp = p.pp;
    c.dp = p.dp;
    c.ep = p.ep;
    c.virtualStages = p.schedule == generate::PipelineSchedule::Interleaved ? p.virtualStages : 1;
    c.microBatch = spec.training.microBatch;
    c.microBatches = spec.microBatches();
    c.zero = static_cast<int8_t>(p.zeroStage);
    c.sequenceParallel = p.sequenceParallel;
    c.recompute = p.recompute;
    c.selectiveRecompute = p.selectiveRecompute;
    c.offloadOptimizer = spec.offload.optimizer != generate::OffloadTier::None;
    const auto& names = placementNames();
    c.placement =
        static_cast<uint8_t>(std::find(names.begin(), names.end(), p.placement) - names.begin());
    if (c.placement >= names.size())
        c.placement = 0;
    return c;
}

void offloadTierOf(PlanRequest& request, const RemoteMemoryConfig& memory) {
    using generate::OffloadTier;
    const double bw = double(memory.bandwidthBytesPerNs) * 1e9;
    const double npus = std::max(1, request.npus);
    request.offloadTier = OffloadTier::None;
    request.offloadBytesPerSecond = 0;
    switch (memory.type) {
    case RemoteMemoryType::NoMemoryExpansion:
        return;
    case RemoteMemoryType::PerNpuMemoryExpansion:
        request.offloadTier = OffloadTier::Nvme;
        request.offloadBytesPerSecond = bw;
        return;
    case RemoteMemoryType::PerNodeMemoryExpansion:
        request.offloadTier = OffloadTier::Pool;
        request.offloadBytesPerSecond = bw / std::max(1, memory.numNpusPerNode);
        return;
    case RemoteMemoryType::MemoryPool:
        request.offloadTier = OffloadTier::Pool;
        request.offloadBytesPerSecond = bw / npus;
        return;
    case RemoteMemoryType::Pooled:
        request.offloadTier = OffloadTier::Pool;
        request.offloadBytesPerSecond =
            std::min(double(memory.fabricBytesPerNs) * 1e9, bw * std::max(1, memory.groups) / npus);
        return;
    }
}

PlanResult rankConfigurations(const PlanRequest& request, const NetworkCosts& network) {
    const auto started = std::chrono::steady_clock::now();
    PlanResult result;
    result.npus = request.npus;
    const generate::GeneratorSpec& base = request.base;
    result.hbmBytes = generate::hbmCapacityBytes(base.compute);
    result.peakFlops = base.compute.peakTflops * 1e12;
    result.modelFlops =
        3.0 * base.training.globalBatch * generate::transformerForwardFlopsPerSequence(base.model);
    if (network.npus() != request.npus) {
        result.unsatisfiable = "the platform has " + std::to_string(network.npus()) +
                               " NPUs, the plan asks for " + std::to_string(request.npus);
        return result;
    }
    const Space space = enumerateSpace(request);
    if (!space.unsatisfiable.empty()) {
        result.unsatisfiable = space.unsatisfiable;
        return result;
    }
    result.ranked.reserve(size_t(space.candidates));
    double leastBytes = -1;
    for (const Shape& shape : space.shapes) {
        generate::GeneratorSpec spec = candidateSpec(request, candidateOf(shape, 0, 0));
        try {
            generate::validate(spec);
        } catch (const Error&) {
            continue; // the space's rules are validate()'s; a test keeps them in step
        }
        const generate::ModelProgram program = generate::buildProgram(spec);
        const ShapeProfile profile = profileShape(spec, program);
        const std::vector<uint8_t> placements = placementsOf(shape, request.placements);
        for (int zero = 0; zero < zeroStagesOf(shape) * offloadChoicesOf(request); ++zero) {
            const bool offload = zero >= zeroStagesOf(shape); // the same stages, offloaded
            spec.parallel.zeroStage = zero % zeroStagesOf(shape);
            spec.offload.optimizer = offload ? request.offloadTier : generate::OffloadTier::None;
            const generate::WorstStageMemory memory = generate::worstStageMemory(spec, program);
            const double bytes = memory.memory.total();
            result.enumerated += placements.size();
            if (leastBytes < 0 || bytes < leastBytes) {
                leastBytes = bytes;
                result.leastMemory.candidate =
                    candidateOf(shape, spec.parallel.zeroStage, placements.front(), offload);
                result.leastMemory.memoryBytes = bytes;
                result.leastMemoryTerms = termsOf(memory.memory);
            }
            if (generate::exceedsHbm(memory.memory, spec.compute)) {
                result.rejectedForMemory += placements.size();
                result.rejectedBy[largestTerm(termsOf(memory.memory))] += placements.size();
                continue;
            }
            for (uint8_t placement : placements) {
                spec.parallel.placement = placementNames()[placement];
                RankedCandidate ranked;
                ranked.candidate = candidateOf(shape, spec.parallel.zeroStage, placement, offload);
                ranked.estimate = estimateIteration(spec, profile, network);
                ranked.estimate.tail += offloadSeconds(request, memory.memory);
                ranked.memoryBytes = bytes;
                result.ranked.push_back(ranked);
            }
            spec.parallel.placement = placementNames()[0];
        }
    }
    std::stable_sort(result.ranked.begin(), result.ranked.end(),
                     [](const RankedCandidate& a, const RankedCandidate& b) {
                         return a.seconds() < b.seconds();
                     });
    if (result.ranked.empty()) {
        const size_t term = largestTerm(result.leastMemoryTerms);
        result.unsatisfiable =
            base.model.name + " fits no configuration of " + std::to_string(request.npus) +
            " GPUs: the least memory per GPU, " + generate::formatBytes(leastBytes) + " (" +
            candidateLabel(result.leastMemory.candidate) + "), is more than the " +
            generate::formatBytes(result.hbmBytes) + " of HBM; its largest term is " +
            memoryTermName(static_cast<MemoryTerm>(term)) + " (" +
            generate::formatBytes(result.leastMemoryTerms[term]) + ")";
    }
    result.rankingSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

} // namespace astrolabe::plan
