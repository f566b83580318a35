#include "plan/PlanEstimate.h"

#include "generate/RankLayout.h"
#include "generate/StageMemory.h"

#include <algorithm>
#include <cmath>
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
        for (int c = 0; c < par.virtualStages; ++c)
            for (int index : program.chunks[size_t(c * par.pp + stage)]) {
                const generate::LayerProgram& layer = program.layers[size_t(index)];
                const bool again = par.recompute && layer.recomputable;
                sp.layers += 1;
                addPass(sp, layer.forward, again ? 2 : 1, again, spec);
                addPass(sp, layer.backward, 1, true, spec);
                for (const generate::ParamShare& share : layer.params) {
                    sp.elements[size_t(share.group)] += double(share.elements);
                    sp.weightBytes[size_t(share.group)] += double(share.elements) * e;
                    sp.shares[size_t(share.group)] += 1;
                }
            }
        profile.stages.push_back(std::move(sp));
    }
    return profile;
}

Estimate estimateIteration(const generate::GeneratorSpec& spec, const ShapeProfile& profile,
                           const NetworkCosts& net) {
    const generate::ParallelSpec& par = spec.parallel;
    const Strides strides = stridesOf(par);
    const int p = par.pp, v = par.virtualStages;
    const double m = spec.microBatches();
    const double e = spec.training.bytesPerElement;
    const double stateBytes = e < 4 ? 24 : 16; // Adam: fp32 master, m, v read and written
    const double hbm = spec.compute.hbmGBps * 1e9 * spec.compute.efficiency;
    const double bucket = double(std::max<uint64_t>(par.bucketBytes, 1));
    auto coll = [&](CollectiveType type, GroupKind group, double bytes) {
        return net.collectiveSeconds(type, generate::groupSizeOf(group, par), bytes,
                                     groupStride(group, par, strides));
    };

    double tauMax = 0, computeOfMax = 0, commOfMax = 0, tailMax = 0;
    const size_t dims =
        size_t(std::max(1, net.dimensionOfStride(std::numeric_limits<long>::max()) + 1));
    std::vector<double> blockingCount(dims), background(dims), backgroundCount(dims);
    for (const StageProfile& s : profile.stages) {
        std::fill(blockingCount.begin(), blockingCount.end(), 0.0);
        std::fill(background.begin(), background.end(), 0.0);
        std::fill(backgroundCount.begin(), backgroundCount.end(), 0.0);
        double comm = 0;
        for (const CollectiveUse& u : s.blocking) {
            comm += u.count * coll(u.type, u.group, u.commBytes);
            blockingCount[size_t(net.dimensionOfStride(groupStride(u.group, par, strides)))] +=
                u.count;
        }
        // Context parallelism's key/value exchange runs beside the attention core: what the
        // core does not hide.
        for (const BesideUse& b : s.beside) {
            double seconds = 0;
            for (const CollectiveUse& u : b.collectives)
                seconds += u.count * coll(u.type, u.group, u.commBytes);
            comm += b.count * std::max(0.0, seconds - b.hidingSeconds);
        }
        double reduce = 0, lastBucket = 0, gather = 0, shardElements = 0, z3 = 0, firstGather = 0;
        for (size_t k = 0; k < kGroupKinds; ++k) {
            const auto group = static_cast<GroupKind>(k);
            if (s.elements[k] <= 0 || group == GroupKind::None)
                continue;
            const int size = generate::groupSizeOf(group, par);
            shardElements += s.elements[k] / (par.zeroStage >= 1 ? size : 1);
            if (par.zeroStage == 3) {
                // Per micro-batch: gather the weights before the forward and the backward pass,
                // reduce-scatter the gradients after it; prefetched a layer ahead.
                const double bytes = s.weightBytes[k] / s.shares[k]; // one share's
                const double ag = coll(CollectiveType::AllGather, group, bytes / size);
                const double one = 2 * ag + coll(CollectiveType::ReduceScatter, group, bytes);
                z3 += s.shares[k] * one;
                firstGather += s.shares[k] * ag;
                const size_t d = size_t(net.dimensionOfStride(groupStride(group, par, strides)));
                background[d] += s.shares[k] * one;
                backgroundCount[d] += 3 * s.shares[k];
                continue;
            }
            const double bytes = s.elements[k] * e;
            const double buckets = std::ceil(bytes / bucket);
            const CollectiveType type =
                par.zeroStage == 0 ? CollectiveType::AllReduce : CollectiveType::ReduceScatter;
            const double one = coll(type, group, bytes / buckets);
            reduce += buckets * one;
            lastBucket = std::max(lastBucket, one);
            if (par.zeroStage > 0)
                gather += buckets * coll(CollectiveType::AllGather, group, bytes / buckets / size);
        }
        double tau = s.computeSeconds + comm;
        if (z3 > 0) {
            // ZeRO-3's transfers hide behind the compute, but for the first layer's gathers of
            // each pass (2 v passes per micro-batch; no earlier layer to prefetch behind) ...
            tau += 2.0 * v * firstGather / std::max(1.0, s.layers);
            tau += std::max(0.0, z3 - s.computeSeconds);
            // ... and a blocking collective on a dimension they keep busy waits for the one in
            // flight (one collective at a time per dimension): on average half of one, with the
            // probability that the dimension is busy.
            const double busy = std::min(1.0, z3 / (s.computeSeconds + comm));
            for (size_t d = 0; d < dims; ++d)
                if (backgroundCount[d] > 0)
                    tau += blockingCount[d] * busy * background[d] / backgroundCount[d] / 2;
        }
        // The reductions run behind the last micro-batch's backward pass; the last bucket is
        // always exposed.
        const double window = s.backwardComputeSeconds;
        const double exposed = std::max(reduce - window, lastBucket);
        const double optimizer = shardElements * (2 * e + stateBytes) / hbm;
        double tail = exposed + optimizer + gather;
        if (p > 1 && profile.tiedEmbeddingBytes > 0)
            tail +=
                coll(CollectiveType::AllReduce, GroupKind::Embedding, profile.tiedEmbeddingBytes);
        if (tau > tauMax) {
            tauMax = tau;
            computeOfMax = s.computeSeconds;
            commOfMax = tau - s.computeSeconds;
        }
        tailMax = std::max(tailMax, tail);
    }
    // A boundary message each way per micro-batch sits on the cycle between neighbouring stages
    // (a stage's backward waits for the next stage's, whose forward waited for this one's).
    // Interleaved: each of the v chunks of a micro-batch crosses a boundary each way.
    const double p2p = p > 1 ? 2.0 * v * net.messageSeconds(profile.boundaryBytes, strides.pp) : 0;
    Estimate est;
    est.compute = m * computeOfMax;
    est.communication = m * (commOfMax + p2p);
    est.bubble = double(p - 1) / v * (tauMax + p2p);
    est.tail = tailMax;
    return est;
}

} // namespace astrolabe::plan
