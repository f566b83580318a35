#include "plan/PlanEstimate.h"

#include "generate/ModelStates.h"
#include "generate/RankLayout.h"
#include "generate/StageMemory.h"
#include "plan/PipelineWalk.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace astrolabe::plan {
namespace {

using generate::GroupKind;
using generate::Step;

void addUse(std::vector<CollectiveUse>& uses, const Step& step, double count) {
    for (CollectiveUse& u : uses)
        if (u.type == step.collective && u.group == step.group &&
            u.commBytes == double(step.commBytes)) {
            u.count += count;
            return;
        }
    uses.push_back({step.collective, step.group, double(step.commBytes), count});
}

/// Rank distance between consecutive members (the smallest), from the placement.
struct Strides {
    long tp = 1, dp = 1, pp = 1, cp = 1;
};

Strides stridesOf(const generate::ParallelSpec& p) {
    Strides s;
    long stride = 1;
    const std::string& order = p.placement; // validated: a permutation of tp, dp, pp
    for (size_t at = 0; at + 1 < order.size(); at += 3) {
        const char axis = order[at];
        if (axis == 't') { // cp sits right after tp (generate/RankLayout.h)
            s.tp = stride;
            s.cp = stride * p.tp;
            stride *= long(p.tp) * p.cp;
        } else if (axis == 'd') {
            s.dp = stride;
            stride *= p.dp;
        } else {
            s.pp = stride;
            stride *= p.pp;
        }
    }
    return s;
}

long groupStride(GroupKind kind, const generate::ParallelSpec& p, const Strides& s) {
    constexpr long none = std::numeric_limits<long>::max();
    switch (kind) {
    case GroupKind::Tp:
        return s.tp;
    case GroupKind::Dp: // dp x cp: its members' smallest distance
        return p.cp > 1 && (p.dp == 1 || s.cp < s.dp) ? s.cp : s.dp;
    case GroupKind::Cp:
        return s.cp;
    case GroupKind::Ep:
        return s.dp;
    case GroupKind::Pp:
        return s.pp;
    case GroupKind::ExpertDp:
        return std::min(p.tp > 1 ? s.tp : none, p.dp / p.ep > 1 ? s.dp * p.ep : none);
    case GroupKind::StageDp:
        return std::min({p.tp > 1 ? s.tp : none, p.cp > 1 ? s.cp : none, p.dp > 1 ? s.dp : none});
    case GroupKind::Embedding:
        return s.pp * std::max(1, p.pp - 1);
    default:
        return 1;
    }
}

/// A pass's collectives (blocking, or beside the next step: Step::overlapsNext) and, when
/// `backward`, its compute time.
void addPass(StageProfile& sp, const std::vector<Step>& steps, double count, bool backward,
             const generate::GeneratorSpec& spec) {
    BesideUse beside;
    for (const Step& step : steps) {
        if (step.kind == Step::Kind::Collective && step.overlapsNext) {
            addUse(beside.collectives, step, 1);
            continue;
        }
        const double seconds =
            step.kind == Step::Kind::Compute
                ? generate::stepComputeSeconds(step, spec.compute, spec.training.bytesPerElement)
                : 0;
        if (!beside.collectives.empty()) {
            beside.hidingSeconds = seconds;
            beside.count = count;
            sp.beside.push_back(std::move(beside));
            beside = BesideUse{};
        }
        if (step.kind == Step::Kind::Collective)
            addUse(sp.blocking, step, count);
        else if (backward)
            sp.backwardComputeSeconds += seconds;
    }
}

WalkLayer walkLayer(const generate::LayerProgram& layer, const generate::GeneratorSpec& spec,
                    std::vector<SlotKey>& keys) {
    WalkLayer out;
    out.recomputable = layer.recomputable;
    auto steps = [&](const std::vector<Step>& from, std::vector<WalkStep>& to) {
        for (const Step& step : from) {
            if (step.kind == Step::Kind::Collective && step.overlapsNext)
                continue; // beside the attention core (context parallelism): not queued
            WalkStep w;
            w.collective = step.kind == Step::Kind::Collective;
            if (w.collective) {
                w.type = step.collective;
                w.group = step.group;
                w.commBytes = double(step.commBytes);
                w.slot = slotOf(keys, w.type, w.group, w.commBytes);
            } else {
                w.seconds =
                    generate::stepComputeSeconds(step, spec.compute, spec.training.bytesPerElement);
            }
            to.push_back(w);
        }
    };
    steps(layer.forward, out.forward);
    steps(layer.backward, out.backward);
    for (const generate::ParamShare& share : layer.params) {
        WalkShare w;
        w.group = share.group;
        w.bytes = double(share.elements) * spec.training.bytesPerElement;
        w.gradientBytes = double(share.elements) * spec.training.gradientBytes();
        const int members = std::max(1, generate::groupSizeOf(share.group, spec.parallel));
        w.gatherSlot = slotOf(keys, CollectiveType::AllGather, w.group, w.bytes / members);
        w.reduceSlot = slotOf(keys, CollectiveType::ReduceScatter, w.group, w.gradientBytes);
        out.shares.push_back(w);
    }
    return out;
}

} // namespace

ShapeProfile profileShape(const generate::GeneratorSpec& spec,
                          const generate::ModelProgram& program) {
    const generate::ParallelSpec& par = spec.parallel;
    const double e = spec.training.bytesPerElement;
    ShapeProfile profile;
    profile.boundaryBytes = double(program.boundaryBytes);
    profile.tiedEmbeddingBytes = double(program.tiedEmbeddingGradientBytes);
    for (int stage = 0; stage < par.pp; ++stage) {
        StageProfile sp;
        sp.computeSeconds = generate::stageComputeSecondsPerMicroBatch(spec, program, stage);
        for (int c = 0; c < par.virtualStages; ++c) {
            sp.walk.emplace_back();
            for (int index : program.chunks[size_t(c * par.pp + stage)]) {
                const generate::LayerProgram& layer = program.layers[size_t(index)];
                const bool again = par.recompute && layer.recomputable;
                sp.layers += 1;
                sp.walk.back().push_back(walkLayer(layer, spec, profile.slotKeys));
                addPass(sp, layer.forward, again ? 2 : 1, again, spec);
                addPass(sp, layer.backward, 1, true, spec);
                for (const generate::ParamShare& share : layer.params) {
                    sp.elements[size_t(share.group)] += double(share.elements);
                    sp.weightBytes[size_t(share.group)] += double(share.elements) * e;
                    sp.shares[size_t(share.group)] += 1;
                }
            }
        }
        profile.stages.push_back(std::move(sp));
    }
    return profile;
}

PlacementKey placementKey(const generate::ParallelSpec& parallel, const NetworkCosts& network) {
    const Strides strides = stridesOf(parallel);
    PlacementKey key{};
    for (size_t k = 0; k < key.size(); ++k) {
        const auto kind = static_cast<GroupKind>(k);
        // A group of one member communicates nothing, wherever it sits.
        key[k] = generate::groupSizeOf(kind, parallel) > 1
                     ? network.strideClass(groupStride(kind, parallel, strides))
                     : -1;
    }
    return key;
}

std::vector<FoldedGroup> foldedGroups(const generate::GeneratorSpec& spec,
                                      const NetworkCosts& network) {
    const generate::ParallelSpec& p = spec.parallel;
    const Strides s = stridesOf(p);
    // The farthest two members of each group: the sum over its axes of (degree - 1) x stride.
    auto span = [&](GroupKind kind) -> long {
        switch (kind) {
        case GroupKind::Tp:
            return (p.tp - 1) * s.tp;
        case GroupKind::Cp:
            return (p.cp - 1) * s.cp;
        case GroupKind::Dp: // dp x cp
            return (p.dp - 1) * s.dp + (p.cp - 1) * s.cp;
        case GroupKind::Ep:
            return (p.ep - 1) * s.dp;
        case GroupKind::ExpertDp: // every tp, dp indices ep apart
            return (p.tp - 1) * s.tp + (p.dp / p.ep - 1) * s.dp * p.ep;
        default: // StageDp: every tp, cp and dp
            return (p.tp - 1) * s.tp + (p.cp - 1) * s.cp + (p.dp - 1) * s.dp;
        }
    };
    std::vector<FoldedGroup> out;
    for (GroupKind kind : {GroupKind::Tp, GroupKind::Cp, GroupKind::Dp, GroupKind::Ep,
                           GroupKind::ExpertDp, GroupKind::StageDp}) {
        const bool expert =
            kind == GroupKind::Ep || kind == GroupKind::ExpertDp || kind == GroupKind::StageDp;
        const int members = generate::groupSizeOf(kind, p);
        if (members <= 1 || (expert && !spec.model.isMoe()))
            continue;
        const int timedOn = network.dimensionOfStride(groupStride(kind, p, s));
        const int reaches = network.highestDimensionOf(span(kind));
        if (reaches > timedOn)
            out.push_back({kind, members, timedOn, reaches});
    }
    return out;
}

Estimate estimateIteration(const generate::GeneratorSpec& spec, const ShapeProfile& profile,
                           const NetworkCosts& net, const OffloadCost& offload,
                           PipelineModel pipeline) {
    const generate::ParallelSpec& par = spec.parallel;
    const Strides strides = stridesOf(par);
    const int p = par.pp;
    const double m = spec.microBatches();
    const double e = spec.training.bytesPerElement, g = spec.training.gradientBytes();
    const double stateBytes = e < 4 ? 24 : 16; // Adam: fp32 master, m, v read and written
    const double hbm = spec.compute.hbmGBps * 1e9 * spec.compute.efficiency;
    const bool offloaded =
        spec.offload.optimizer != generate::OffloadTier::None && offload.bytesPerSecond > 0;
    const double optimizerBytes = generate::optimizerStateBytesPerParameter(spec);
    auto coll = [&](CollectiveType type, GroupKind group, double bytes) {
        return net.collectiveSeconds(type, generate::groupSizeOf(group, par), bytes,
                                     groupStride(group, par, strides));
    };

    // The phases of each distinct collective, computed once (the layers repeat a few).
    struct Cached {
        CollectiveType type;
        GroupKind group;
        double bytes;
        std::vector<NetworkCosts::Phase> phases;
    };
    std::deque<Cached> cache; // references to its entries stay valid
    const PhasesOf phases = [&](CollectiveType type, GroupKind group,
                                double bytes) -> const std::vector<NetworkCosts::Phase>& {
        for (const Cached& c : cache)
            if (c.type == type && c.group == group && c.bytes == bytes)
                return c.phases;
        cache.push_back({type, group, bytes,
                         net.collectivePhases(type, generate::groupSizeOf(group, par), bytes,
                                              groupStride(group, par, strides))});
        return cache.back().phases;
    };
    PhaseSlots table;
    table.reserve(profile.slotKeys.size());
    for (const SlotKey& k : profile.slotKeys)
        table.push_back(net.collectivePhases(k.type, generate::groupSizeOf(k.group, par),
                                             k.commBytes, groupStride(k.group, par, strides)));
    WalkOptions walk;
    walk.recompute = par.recompute;
    walk.zero3 = par.zeroStage == 3;
    walk.zeroStage = par.zeroStage;
    walk.bucketBytes = double(std::max<uint64_t>(par.bucketBytes, 1));
    walk.weightBytesPerGradientByte = e / g;
    walk.groupSize = [&](GroupKind group) { return generate::groupSizeOf(group, par); };

    double tauMax = 0, tauSum = 0, computeOfMax = 0, tailMax = 0;
    std::vector<double> delays, helds, exposeds, tails, taus; // per stage
    for (const StageProfile& s : profile.stages) {
        double comm = 0;
        for (const CollectiveUse& u : s.blocking)
            comm += u.count * coll(u.type, u.group, u.commBytes);
        // Context parallelism's key/value exchange runs beside the attention core: what the
        // core does not hide.
        for (const BesideUse& b : s.beside) {
            double seconds = 0;
            for (const CollectiveUse& u : b.collectives)
                seconds += u.count * coll(u.type, u.group, u.commBytes);
            comm += b.count * std::max(0.0, seconds - b.hidingSeconds);
        }
        double gather = 0, shardElements = 0, offloadedElements = 0;
        for (size_t k = 0; k < kGroupKinds; ++k) {
            const auto group = static_cast<GroupKind>(k);
            if (s.elements[k] <= 0)
                continue;
            const int size = generate::groupSizeOf(group, par);
            offloadedElements += s.elements[k] / (par.zeroStage >= 1 ? size : 1);
            if (group != GroupKind::None)
                shardElements += s.elements[k] / (par.zeroStage >= 1 ? size : 1);
        }
        double tau = s.computeSeconds + comm, exposed = 0, delay = 0, held = 0;
        if (par.zeroStage == 3) {
            // ZeRO-3's gathers and reduce-scatters beside the compute, and the blocking
            // collectives queued behind them, walked layer by layer; the last reduce-scatters
            // run on after the last pass.
            const Zero3Walk z3 = walkZero3MicroBatch(s.walk, walk, table, phases);
            tau = std::max(tau, z3.microBatch);
            exposed = z3.after;
        } else {
            // The gradient buckets run behind the last micro-batch's backward pass, delaying
            // the blocking collectives queued behind them; what runs on after it is exposed.
            const BucketWalk last = walkLastBackward(s.walk, walk, table, phases);
            delay = std::max(0.0, last.withBuckets - last.without);
            exposed = last.after;
            gather = last.gathers; // ZeRO 1-2: the updated weights, bucket by bucket
            // The gradient this stage sends down with its last pass (the last backward of its
            // first chunk) waits for the slot behind the buckets still queued then: the pass
            // flushed them before it sent (lower node ids go first). Interleaved, the other
            // chunks' buckets were flushed passes earlier: only that chunk's are walked.
            held = s.walk.size() == 1
                       ? last.after
                       : walkChunkLastBackward(s.walk.front(), walk, table, phases).after;
        }
        double optimizer = shardElements * (e + g + stateBytes) / hbm;
        if (offloaded) {
            // The states are loaded and stored back through the tier, layer by layer; each
            // layer's step runs once its load is done, beside the next loads, so the steps hide
            // under the tier's traffic (or it under them when the tier is the faster).
            const double traffic = 2 * offloadedElements * optimizerBytes / offload.bytesPerSecond +
                                   2 * s.layers * offload.latencySeconds;
            optimizer = std::max(optimizer, traffic);
        }
        double tail = optimizer + gather;
        delays.push_back(delay);
        helds.push_back(held);
        exposeds.push_back(exposed);
        tails.push_back(tail);
        taus.push_back(tau);
        tauSum += tau;
        if (tau > tauMax) {
            tauMax = tau;
            computeOfMax = s.computeSeconds;
        }
    }
    // The tied embedding's gradient all-reduce between the first and the last stage, queued
    // behind their buckets: it ends once both have joined.
    const double embedding =
        p > 1 && profile.tiedEmbeddingBytes > 0
            ? coll(CollectiveType::AllReduce, GroupKind::Embedding, profile.tiedEmbeddingBytes)
            : 0;
    auto holdsEmbedding = [&](size_t s) { return s == 0 || s + 1 == size_t(p); };
    Estimate est;
    est.compute = m * computeOfMax;
    est.communication = m * (tauMax - computeOfMax);
    if (p == 1 || pipeline == PipelineModel::ClosedForm) {
        // The last backward pass goes down the pipeline from the last stage to the first, each
        // stage's made longer by its buckets (the delay above), its send to the next stage
        // down held behind the buckets still queued: stage s ends its pass after the delays
        // and holds of the stages after it, then its own tail runs.
        double chain = 0;
        for (size_t s = profile.stages.size(); s-- > 0;) {
            chain += delays[s];
            tailMax = std::max(tailMax, chain + exposeds[s] + tails[s] +
                                            (holdsEmbedding(s) ? embedding : 0));
            chain += helds[s];
        }
        est.tail = tailMax;
    }
    if (p == 1)
        return est;
    if (pipeline == PipelineModel::ClosedForm) {
        const double delta = net.messageSeconds(profile.boundaryBytes, strides.pp);
        const int v = par.virtualStages;
        if (v == 1) {
            // 1F1B: the first stage's p micro-batches in flight share the loop through the
            // pipeline and back; the faster stages hide the messages in their slack.
            const double period = std::max(tauMax, (tauSum + 2.0 * (p - 1) * delta) / p);
            est.communication = m * (period - computeOfMax);
            est.bubble = tauSum - tauMax + 2.0 * (p - 1) * delta;
        } else {
            // Interleaved: both messages of each chunk on the cycle between neighbours.
            const double p2p = 2.0 * v * delta;
            est.communication = m * (tauMax - computeOfMax + p2p);
            est.bubble = double(p - 1) / v * (tauMax + p2p);
        }
        return est;
    }
    // The pipeline: the generator's schedule walked pass by pass (PipelineWalk.h), each stage's
    // chunk passes scaled to its tau (which holds what the walk of its steps does not: context
    // parallelism's exchange, ZeRO-3's waits), the boundary messages on the links between the
    // stages, each chunk's last backward pass made longer by its gradient buckets and its send
    // held behind them. Each stage's tail runs after its last pass.
    std::vector<ChunkPasses> passes; // stage s's chunk c at s v + c
    passes.reserve(size_t(p) * size_t(par.virtualStages));
    for (size_t s = 0; s < profile.stages.size(); ++s) {
        const size_t first = passes.size();
        appendChunkPasses(passes, profile.stages[s].walk, walk, table, phases);
        double plain = 0;
        for (size_t i = first; i < passes.size(); ++i)
            plain += passes[i].forward + passes[i].backward;
        const double scale = plain > 0 ? taus[s] / plain : 1;
        for (size_t i = first; i < passes.size(); ++i) {
            ChunkPasses& c = passes[i];
            c.forward *= scale;
            c.backward *= scale;
            c.forwardLead = std::min(c.forwardLead, c.forward);
            c.backwardLead = std::min(c.backwardLead, c.backward);
        }
    }
    const double delta = net.messageSeconds(profile.boundaryBytes, strides.pp);
    const double wrapDelta = net.messageSeconds(profile.boundaryBytes, strides.pp * (p - 1));
    const int microBatches = spec.microBatches();
    // Built on first use (the ranking's closed-form pass never walks), kept for the shape's
    // other candidates.
    if (!profile.pipeline.walks(par.schedule, p, par.virtualStages, microBatches))
        profile.pipeline = PipelineWalk(par.schedule, p, par.virtualStages, microBatches);
    const std::vector<double>& ends = profile.pipeline.stageEnds(passes, delta, wrapDelta);
    // After its last pass (its first chunk's last backward), the buckets still queued then
    // (ZeRO-3: the last reduce-scatters), then the stage's own tail.
    auto drained = [&](size_t s) {
        return ends[s] + (par.zeroStage == 3
                              ? exposeds[s]
                              : passes[s * size_t(par.virtualStages)].lastBackwardHeld);
    };
    const double joined = std::max(drained(0), drained(ends.size() - 1)) + embedding;
    double makespan = 0, iteration = 0;
    for (size_t s = 0; s < ends.size(); ++s) {
        makespan = std::max(makespan, ends[s]);
        iteration = std::max(iteration, (holdsEmbedding(s) ? joined : drained(s)) + tails[s]);
    }
    est.bubble = std::max(0.0, makespan - m * tauMax);
    est.tail = iteration - makespan;
    return est;
}

} // namespace astrolabe::plan
