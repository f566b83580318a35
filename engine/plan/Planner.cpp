#include "plan/Planner.h"

#include "core/Error.h"
#include "generate/ModelFigures.h"
#include "generate/StageMemory.h"
#include "generate/TransformerCounts.h"
#include "generate/WorkloadGenerator.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>
#include <tuple>

namespace astrolabe::plan {
namespace {

std::array<double, 4> termsOf(const generate::MemoryBreakdown& m) {
    return {m.weights, m.gradients, m.optimizer, m.activations};
}

size_t largestTerm(const std::array<double, 4>& terms) {
    return size_t(std::max_element(terms.begin(), terms.end()) - terms.begin());
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
                                  const Candidate& candidate, PipelineModel pipeline) {
    const generate::GeneratorSpec spec = candidateSpec(request, candidate);
    generate::validate(spec);
    const generate::ModelProgram program = generate::buildProgram(spec);
    RankedCandidate out;
    out.candidate = candidate;
    out.candidate.microBatches = spec.microBatches();
    out.pipeline = pipeline;
    out.estimate =
        estimateIteration(spec, profileShape(spec, program), network,
                          {request.offloadBytesPerSecond, request.offloadLatencySeconds}, pipeline);
    const generate::MemoryBreakdown memory = generate::worstStageMemory(spec, program).memory;
    out.memoryBytes = memory.total();
    return out;
}

std::vector<std::string> twinPlacementNames(const RankedCandidate& ranked) {
    std::vector<std::string> names;
    for (size_t p = 0; p < placementNames().size(); ++p)
        if (ranked.twinPlacements & (1u << p))
            names.push_back(placementNames()[p]);
    return names;
}

std::string twinPlacementsText(const RankedCandidate& ranked) {
    std::string text;
    for (const std::string& name : twinPlacementNames(ranked))
        text += (text.empty() ? "" : "; ") + name;
    return text;
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
        throw Error(ErrorKind::Validation,
                    "expected one of tp,dp,pp, tp,pp,dp, dp,tp,pp, dp,pp,tp, "
                    "pp,tp,dp or pp,dp,tp (innermost first), found \"" +
                        p.placement + "\"",
                    SourceLocation{{}, 0, 0, "parallel.placement"});
    return c;
}

void offloadTierOf(PlanRequest& request, const RemoteMemoryConfig& memory) {
    using generate::OffloadTier;
    const double bw = double(memory.bandwidthBytesPerNs) * 1e9;
    const double npus = std::max(1, request.npus);
    request.offloadTier = OffloadTier::None;
    request.offloadBytesPerSecond = 0;
    request.offloadLatencySeconds = double(memory.latencyNs) * 1e-9;
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

namespace {

/// What one shape contributes to the result, in the order the sequential loop would add it.
struct ShapeOutcome {
    std::vector<RankedCandidate> ranked;
    uint64_t enumerated = 0, rejectedForMemory = 0, twins = 0;
    std::array<uint64_t, 4> rejectedBy{};
    bool any = false; ///< leastMemory below is set
    RankedCandidate leastMemory;
    std::array<double, 4> leastMemoryTerms{};
};

ShapeOutcome rankShape(const PlanRequest& request, const NetworkCosts& network,
                       const Shape& shape) {
    ShapeOutcome out;
    generate::GeneratorSpec spec = candidateSpec(request, candidateOf(shape, 0, 0));
    try {
        generate::validate(spec);
    } catch (const Error&) {
        return out; // the space's rules are validate()'s; a test keeps them in step
    }
    const generate::ModelProgram program = generate::buildProgram(spec);
    const generate::GeneratorSpec shapeSpec = spec; // ZeRO 0, the first placement
    ShapeProfile profile;                           // built once a candidate of the shape fits
    bool profiled = false;
    const std::vector<uint8_t> placements = placementsOf(shape, request.placements);
    // The estimate depends on the placement only through its groups' stride classes
    // (placementKey): placements of one key are twins, ranked once as the first of them.
    std::vector<PlacementKey> keys;
    std::vector<uint8_t> distinct; // the first placement of each key, in placements' order
    std::vector<uint8_t> twinBits; // per distinct placement: its twins
    for (uint8_t placement : placements) {
        spec.parallel.placement = placementNames()[placement];
        const PlacementKey key = placementKey(spec.parallel, network);
        const auto first = std::find(keys.begin(), keys.end(), key);
        if (first != keys.end()) {
            twinBits[size_t(first - keys.begin())] |= uint8_t(1u << placement);
            continue;
        }
        keys.push_back(key);
        distinct.push_back(placement);
        twinBits.push_back(0);
    }
    for (int zero = 0; zero < zeroStagesOf(shape) * offloadChoicesOf(request); ++zero) {
        const bool offload = zero >= zeroStagesOf(shape); // the same stages, offloaded
        spec.parallel.zeroStage = zero % zeroStagesOf(shape);
        spec.offload.optimizer = offload ? request.offloadTier : generate::OffloadTier::None;
        const generate::WorstStageMemory memory = generate::worstStageMemory(spec, program);
        const double bytes = memory.memory.total();
        out.enumerated += placements.size();
        if (!out.any || bytes < out.leastMemory.memoryBytes) {
            out.any = true;
            out.leastMemory.candidate =
                candidateOf(shape, spec.parallel.zeroStage, placements.front(), offload);
            out.leastMemory.memoryBytes = bytes;
            out.leastMemoryTerms = termsOf(memory.memory);
        }
        if (generate::exceedsHbm(memory.memory, spec.compute)) {
            out.rejectedForMemory += placements.size();
            out.rejectedBy[largestTerm(termsOf(memory.memory))] += placements.size();
            continue;
        }
        out.twins += placements.size() - distinct.size();
        if (!profiled) {
            profile = profileShape(shapeSpec, program);
            profiled = true;
        }
        for (size_t i = 0; i < distinct.size(); ++i) {
            spec.parallel.placement = placementNames()[distinct[i]];
            RankedCandidate ranked;
            ranked.candidate = candidateOf(shape, spec.parallel.zeroStage, distinct[i], offload);
            ranked.estimate =
                estimateIteration(spec, profile, network,
                                  {request.offloadBytesPerSecond, request.offloadLatencySeconds},
                                  PipelineModel::ClosedForm);
            ranked.pipeline = PipelineModel::ClosedForm;
            ranked.memoryBytes = bytes;
            ranked.twinPlacements = twinBits[i];
            out.ranked.push_back(ranked);
        }
        spec.parallel.placement = placementNames()[0];
    }
    return out;
}

/// body(i) for every i < count on `threads` threads, each taking the next index not yet taken;
/// the first exception stops the others from taking more and is rethrown once all have joined.
template <class Body> void forEachOnThreads(size_t count, int threads, const Body& body) {
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto work = [&] {
        try {
            for (size_t i = next++; i < count; i = next++)
                body(i);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
            next = count;
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& thread : pool)
        thread.join();
    if (failure)
        std::rethrow_exception(failure);
}

/// rankShape over every shape on `threads` threads; the outcomes kept in the shapes' order, so
/// the result does not depend on the threads.
std::vector<ShapeOutcome> rankShapes(const PlanRequest& request, const NetworkCosts& network,
                                     const std::vector<Shape>& shapes, int threads) {
    std::vector<ShapeOutcome> outcomes(shapes.size());
    forEachOnThreads(shapes.size(), threads,
                     [&](size_t i) { outcomes[i] = rankShape(request, network, shapes[i]); });
    return outcomes;
}

/// What a shape's profile depends on (rankShape: ZeRO stage, placement and offload apart).
auto shapeKeyOf(const Candidate& c) {
    return std::make_tuple(c.tp, c.cp, c.pp, c.dp, c.ep, c.virtualStages, c.microBatch,
                           c.sequenceParallel, c.recompute, c.selectiveRecompute);
}

/// The first `count` candidates of `ranked` with a pipeline re-estimated with the walk
/// (PipelineModel::Walk), shape by shape on `threads` threads; each estimate is the one
/// evaluateCandidate gives, whatever the threads.
void walkTheBest(const PlanRequest& request, const NetworkCosts& network,
                 std::vector<RankedCandidate>& ranked, size_t count, int threads) {
    std::vector<size_t> order;
    for (size_t i = 0; i < std::min(count, ranked.size()); ++i)
        if (ranked[i].candidate.pp > 1)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return shapeKeyOf(ranked[a].candidate) < shapeKeyOf(ranked[b].candidate);
    });
    std::vector<size_t> groups; // where each shape's run in `order` begins
    for (size_t k = 0; k < order.size(); ++k)
        if (k == 0 ||
            shapeKeyOf(ranked[order[k]].candidate) != shapeKeyOf(ranked[order[k - 1]].candidate))
            groups.push_back(k);
    groups.push_back(order.size());
    forEachOnThreads(groups.size() - 1, threads, [&](size_t g) {
        Candidate first = ranked[order[groups[g]]].candidate;
        first.zero = 0; // the profile rankShape builds: ZeRO 0, no offload
        first.offloadOptimizer = false;
        const generate::GeneratorSpec shapeSpec = candidateSpec(request, first);
        const generate::ModelProgram program = generate::buildProgram(shapeSpec);
        const ShapeProfile profile = profileShape(shapeSpec, program);
        for (size_t k = groups[g]; k < groups[g + 1]; ++k) {
            RankedCandidate& r = ranked[order[k]];
            r.pipeline = PipelineModel::Walk;
            r.estimate =
                estimateIteration(candidateSpec(request, r.candidate), profile, network,
                                  {request.offloadBytesPerSecond, request.offloadLatencySeconds});
        }
    });
}

} // namespace

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
    const int hardware = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const int threads = std::clamp(request.threads > 0 ? request.threads : hardware, 1,
                                   std::max(1, static_cast<int>(space.shapes.size())));
    std::vector<ShapeOutcome> outcomes = rankShapes(request, network, space.shapes, threads);
    result.ranked.reserve(size_t(space.candidates));
    double leastBytes = -1;
    for (ShapeOutcome& o : outcomes) {
        result.enumerated += o.enumerated;
        result.rejectedForMemory += o.rejectedForMemory;
        result.twins += o.twins;
        for (size_t t = 0; t < o.rejectedBy.size(); ++t)
            result.rejectedBy[t] += o.rejectedBy[t];
        if (o.any && (leastBytes < 0 || o.leastMemory.memoryBytes < leastBytes)) {
            leastBytes = o.leastMemory.memoryBytes;
            result.leastMemory = o.leastMemory;
            result.leastMemoryTerms = o.leastMemoryTerms;
        }
        result.ranked.insert(result.ranked.end(), o.ranked.begin(), o.ranked.end());
        o.ranked = {};
    }
    auto fastestFirst = [](const RankedCandidate& a, const RankedCandidate& b) {
        return a.seconds() < b.seconds();
    };
    std::stable_sort(result.ranked.begin(), result.ranked.end(), fastestFirst);
    // The closed forms chose the best; the pipeline walk times them (PlanEstimate.h).
    walkTheBest(request, network, result.ranked, kWalkedCandidates, threads);
    std::stable_sort(result.ranked.begin(), result.ranked.end(), fastestFirst);
    if (result.ranked.empty() && leastBytes < 0) {
        result.unsatisfiable = "no configuration of " + std::to_string(request.npus) +
                               " GPUs can hold " + base.model.name +
                               ": its heads, layers or batch split over none of them";
    } else if (result.ranked.empty()) {
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
