#include "plan/PlanSpace.h"

#include "core/Limits.h"

#include <algorithm>
#include <numeric>

namespace astrolabe::plan {
namespace {

using generate::ModelSpec;

std::vector<int> divisorsOf(int n) {
    std::vector<int> out;
    for (int d = 1; d <= n; ++d)
        if (n % d == 0)
            out.push_back(d);
    return out;
}

bool tensorSplits(const ModelSpec& m, int tp) {
    const int kv = m.kvHeadCount();
    return m.heads % tp == 0 && m.ffn % tp == 0 && m.hidden % tp == 0 &&
           (kv % tp == 0 || tp % kv == 0) && (!m.isMoe() || m.sequence % tp == 0);
}

} // namespace

const std::vector<std::string>& placementNames() {
    static const std::vector<std::string> names{"tp,dp,pp", "tp,pp,dp", "dp,tp,pp",
                                                "dp,pp,tp", "pp,tp,dp", "pp,dp,tp"};
    return names;
}

int offloadChoicesOf(const PlanRequest& request) {
    return request.offloadTier == generate::OffloadTier::None ? 1 : 2;
}

Candidate candidateOf(const Shape& s, int zero, uint8_t placement, bool offloadOptimizer) {
    Candidate c;
    c.tp = s.tp;
    c.cp = s.cp;
    c.pp = s.pp;
    c.dp = s.dp;
    c.ep = s.ep;
    c.virtualStages = s.virtualStages;
    c.microBatch = s.microBatch;
    c.microBatches = s.microBatches;
    c.zero = static_cast<int8_t>(zero);
    c.sequenceParallel = s.sequenceParallel;
    c.recompute = s.recompute;
    c.selectiveRecompute = s.selectiveRecompute;
    c.placement = placement;
    c.offloadOptimizer = offloadOptimizer;
    return c;
}

int zeroStagesOf(const Shape& s) {
    return s.dp * s.cp > 1 ? 4 : 1; // the gradients are reduced over dp x cp
}

std::vector<uint8_t> placementsOf(const Shape& s, const std::vector<uint8_t>& allowed) {
    // Of the orders that list the axes of size > 1 the same way, keep the first: the axes of
    // size 1 do not move any rank.
    const int sizes[3] = {s.tp * s.cp, s.dp, s.pp}; // cp sits right after tp
    auto key = [&](size_t index) {
        std::string out;
        const std::string& name = placementNames()[index];
        for (size_t at = 0; at < name.size(); at += 3) {
            const std::string axis = name.substr(at, 2);
            const int size = axis == "tp" ? sizes[0] : axis == "dp" ? sizes[1] : sizes[2];
            if (size > 1)
                out += axis;
        }
        return out;
    };
    std::vector<std::string> permitted;
    for (uint8_t a : allowed)
        permitted.push_back(key(a));
    std::vector<uint8_t> out;
    std::vector<std::string> seen;
    for (size_t i = 0; i < placementNames().size(); ++i) {
        const std::string k = key(i);
        if (std::find(seen.begin(), seen.end(), k) != seen.end())
            continue;
        seen.push_back(k);
        if (allowed.empty() || std::find(permitted.begin(), permitted.end(), k) != permitted.end())
            out.push_back(static_cast<uint8_t>(i));
    }
    return out;
}

generate::GeneratorSpec candidateSpec(const PlanRequest& request, const Candidate& c) {
    generate::GeneratorSpec spec = request.base;
    generate::ParallelSpec& p = spec.parallel;
    p.tp = c.tp;
    p.cp = c.cp;
    p.pp = c.pp;
    p.dp = c.dp;
    p.ep = c.ep;
    p.virtualStages = c.virtualStages;
    p.schedule = c.virtualStages > 1 ? generate::PipelineSchedule::Interleaved
                                     : generate::PipelineSchedule::OneFOneB;
    p.zeroStage = c.zero;
    p.sequenceParallel = c.sequenceParallel;
    p.recompute = c.recompute;
    p.selectiveRecompute = c.selectiveRecompute;
    p.placement = placementNames()[c.placement];
    spec.offload.optimizer = c.offloadOptimizer ? request.offloadTier : generate::OffloadTier::None;
    spec.training.microBatch = c.microBatch;
    return spec;
}

std::string candidateLabel(const Candidate& c) {
    // Appended piece by piece: "x" + std::to_string(...) trips a GCC 12 -Wrestrict false positive.
    std::string out;
    auto part = [&out](const char* prefix, int value) {
        if (!out.empty())
            out += ' ';
        out += prefix;
        out += std::to_string(value);
    };
    part("t", c.tp);
    if (c.cp > 1)
        part("c", c.cp);
    part("p", c.pp);
    part("d", c.dp);
    if (c.ep > 1)
        part("e", c.ep);
    if (c.virtualStages > 1)
        part("v", c.virtualStages);
    part("b", c.microBatch);
    part("z", c.zero);
    if (c.sequenceParallel)
        out += " sp";
    if (c.recompute)
        out += " rc";
    if (c.selectiveRecompute)
        out += " sel";
    if (c.offloadOptimizer)
        out += " oo";
    out += " [";
    out += placementNames()[c.placement];
    out += ']';
    return out;
}

Space enumerateSpace(const PlanRequest& request) {
    Space space;
    const ModelSpec& m = request.base.model;
    const int n = request.npus;
    const int batch = request.base.training.globalBatch;
    if (n <= 0 || static_cast<uint64_t>(n) > kMaxNpus) {
        space.unsatisfiable =
            "expected 1 to " + std::to_string(kMaxNpus) + " GPUs, found " + std::to_string(n);
        return space;
    }
    if (m.kind != generate::ModelKind::Transformer) {
        space.unsatisfiable = "the planner splits transformers; " + m.name +
                              " is data parallel only (use generate-llm --npus)";
        return space;
    }
    if (batch <= 0) {
        space.unsatisfiable = "the global batch must be positive, found " + std::to_string(batch);
        return space;
    }
    int splits = 0, batchSplits = 0;
    int smallestDp = n;
    // Recomputation: none, full, and selective where it saves memory (unfused attention).
    const int recomputes = request.base.training.flashAttention ? 2 : 3;
    for (int tp : divisorsOf(n)) {
        if (!tensorSplits(m, tp))
            continue;
        for (int cp : divisorsOf(n / tp)) {
            if (!generate::contextParallelProblems(request.base, cp).empty())
                continue;
            for (int pp : divisorsOf(n / (tp * cp))) {
                if (m.layers % pp != 0)
                    continue;
                ++splits;
                const int dp = n / (tp * cp * pp);
                smallestDp = std::min(smallestDp, dp);
                if (batch % dp != 0)
                    continue;
                ++batchSplits;
                const int perReplica = batch / dp;
                if (pp > 1 && perReplica < pp)
                    continue; // fewer micro-batches than stages for every micro-batch size
                const int experts = m.isMoe() ? std::gcd(dp, m.experts) : 1;
                for (int ep : divisorsOf(experts))
                    for (int b : divisorsOf(perReplica)) {
                        const int micro = perReplica / b;
                        if (pp > 1 && micro < pp)
                            continue;
                        const int64_t passes = int64_t{m.layers / pp} * micro;
                        if (passes > generate::kMaxLayerPassesPerRank)
                            continue;
                        std::vector<int> chunks{1};
                        if (pp > 1 && micro % pp == 0)
                            for (int v = 2; pp * v <= m.layers; ++v)
                                if (m.layers % (pp * v) == 0)
                                    chunks.push_back(v);
                        const bool spPossible = tp > 1 && m.sequence % tp == 0;
                        for (int v : chunks)
                            for (int sp = 0; sp <= (spPossible ? 1 : 0); ++sp)
                                for (int rc = 0; rc < recomputes; ++rc) {
                                    Shape s{tp,    pp,      dp,      ep, v,      b,
                                            micro, sp == 1, rc == 1, cp, rc == 2};
                                    space.candidates += uint64_t(zeroStagesOf(s)) *
                                                        placementsOf(s, request.placements).size() *
                                                        uint64_t(offloadChoicesOf(request));
                                    space.shapes.push_back(s);
                                }
                    }
            }
        }
    }
    if (!space.shapes.empty())
        return space;
    const std::string gpus = std::to_string(n) + " GPUs";
    if (splits == 0)
        space.unsatisfiable = "no tp x pp divides " + gpus + " with tp dividing the " +
                              std::to_string(m.heads) + " heads and pp the " +
                              std::to_string(m.layers) + " layers";
    else if (batchSplits == 0)
        space.unsatisfiable = "the global batch " + std::to_string(batch) +
                              " is not a multiple of any data-parallel size dp = " + gpus +
                              " / (tp x cp x pp) (the smallest is " + std::to_string(smallestDp) +
                              "); GPUs not divisible: choose a GPU count or a global batch that "
                              "share a factor";
    else
        space.unsatisfiable = "the global batch " + std::to_string(batch) +
                              " is too small for the pipeline: every split leaves fewer "
                              "micro-batches per pipeline (B / dp) than stages (pp); raise the "
                              "global batch";
    return space;
}

} // namespace astrolabe::plan
