#include "generate/ParallelismFit.h"

#include "core/Error.h"
#include "generate/ModelFigures.h"
#include "spec/SpecValidation.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace astrolabe::generate {

namespace {

constexpr int kMaxTensorParallel = 8; // NPUs of one node on NVLink-class machines

std::string gib(double bytes) {
    return formatBytes(bytes);
}

std::string tensorProblem(const ModelSpec& m, const ParallelSpec& p, int tp) {
    if (m.kind != ModelKind::Transformer)
        return tp == 1 ? "" : "DLRM and ResNet are data parallel only";
    auto notSplit = [tp](int count, const std::string& what) {
        return std::to_string(count) + " " + what + " do not split over tp " + std::to_string(tp);
    };
    if (m.heads % tp != 0)
        return notSplit(m.heads, "heads");
    const int kv = m.kvHeadCount();
    if (kv > 0 && kv % tp != 0 && tp % kv != 0)
        return notSplit(kv, "KV heads");
    if (m.hidden % tp != 0)
        return notSplit(m.hidden, "hidden units");
    if (m.ffn % tp != 0)
        return notSplit(m.ffn, "FFN units");
    if ((m.isMoe() || p.sequenceParallel) && m.sequence % tp != 0)
        return notSplit(m.sequence, "sequence positions");
    return {};
}

std::string pipelineProblem(const ModelSpec& m, const ParallelSpec& p, int pp) {
    if (m.kind != ModelKind::Transformer)
        return pp == 1 ? "" : "DLRM and ResNet are data parallel only";
    if (m.layers % pp != 0)
        return std::to_string(m.layers) + " layers do not split into " + std::to_string(pp) +
               " equal stages";
    if (pp * p.virtualStages > m.layers)
        return "fewer layers than pipeline chunks";
    return {};
}

int chooseExpertParallel(const ModelSpec& m, int currentEp, int dp) {
    if (!m.isMoe())
        return 1;
    if (currentEp > 0 && dp % currentEp == 0 && m.experts % currentEp == 0)
        return currentEp;
    return std::gcd(dp, m.experts);
}

struct Candidate {
    GeneratorSpec spec;
    std::string problem; ///< empty when the split is valid
    double memoryBytes = 0;
    bool fitsMemory = false;
};

Candidate evaluate(const GeneratorSpec& base, int tp, int pp, int npuCount, BatchRule batch) {
    Candidate c{base, {}, 0, false};
    ParallelSpec& p = c.spec.parallel;
    TrainingSpec& t = c.spec.training;
    const int dp = npuCount / (tp * pp);
    p.tp = tp;
    p.pp = pp;
    p.dp = dp;
    p.ep = chooseExpertParallel(base.model, base.parallel.ep, dp);
    if (batch == BatchRule::MicroBatchesFixed) {
        t.globalBatch = std::max(1, base.microBatches()) * t.microBatch * dp;
    } else if (t.microBatch <= 0 || t.globalBatch % (t.microBatch * dp) != 0) {
        c.problem = "the global batch " + std::to_string(t.globalBatch) +
                    " is not a multiple of micro-batch " + std::to_string(t.microBatch) + " x dp " +
                    std::to_string(dp);
        return c;
    }
    try {
        const ModelFigures f = computeFigures(c.spec);
        c.memoryBytes = f.memory.total();
        c.fitsMemory = !f.outOfMemory;
    } catch (const ErrorList& e) {
        const Error& first = e.errors().front();
        c.problem = first.where().keyPath + ": " + first.message();
    } catch (const Error& e) {
        c.problem = e.where().keyPath + ": " + e.message();
    }
    return c;
}

std::string splitText(int tp, int pp, int dp) {
    return "tp " + std::to_string(tp) + " x pp " + std::to_string(pp) + " x dp " +
           std::to_string(dp);
}

std::string npusText(int n) {
    return std::to_string(n) + (n == 1 ? " NPU" : " NPUs");
}

} // namespace

std::string splitLabel(const ParallelSpec& p) {
    std::string out = splitText(p.tp, p.pp, p.dp);
    if (p.cp > 1)
        out += " x cp " + std::to_string(p.cp);
    if (p.ep > 1)
        out += " (ep " + std::to_string(p.ep) + ")";
    return out;
}

namespace {
ParallelFit fitSlots(const GeneratorSpec& spec, int npuCount, BatchRule batch);
} // namespace

ParallelFit fitParallelism(const GeneratorSpec& spec, int npuCount, BatchRule batch) {
    // Context parallelism is kept as given: tp x pp x dp fill the NPUs over cp.
    const int cp = std::max(1, spec.parallel.cp);
    if (cp > 1 && npuCount > 0 && npuCount % cp != 0) {
        ParallelFit fit;
        fit.spec = spec;
        fit.reason = "cp " + std::to_string(cp) + " does not divide the " + npusText(npuCount);
        return fit;
    }
    return fitSlots(spec, npuCount > 0 ? npuCount / cp : npuCount, batch);
}

namespace {

ParallelFit fitSlots(const GeneratorSpec& spec, int npuCount, BatchRule batch) {
    ParallelFit fit;
    fit.spec = spec;
    if (npuCount <= 0) {
        fit.reason = "the platform has no NPUs";
        return fit;
    }
    if (static_cast<uint64_t>(npuCount) > kMaxNpus) { // before trying every split of the count
        fit.reason = "expected at most " + std::to_string(kMaxNpus) + " NPUs, found " +
                     std::to_string(npuCount) + " (limits and their reasons: docs/limits.md)";
        return fit;
    }
    const ModelSpec& m = spec.model;
    const ParallelSpec& current = spec.parallel;

    // 1. The current tp and pp, when they still divide the count and the spec stays valid. The
    //    stricter rules of step 2 (tp <= 8, equal stages) are for choosing, not for overruling
    //    a choice: Llama-3 405B's published split has 16 stages of 126 layers.
    if (current.tp > 0 && current.pp > 0 && npuCount % (current.tp * current.pp) == 0) {
        Candidate kept = evaluate(spec, current.tp, current.pp, npuCount, batch);
        if (kept.problem.empty()) {
            fit.fits = true;
            fit.kept = true;
            fit.fitsMemory = kept.fitsMemory;
            fit.spec = kept.spec;
            fit.reason = "kept tp " + std::to_string(current.tp) + " x pp " +
                         std::to_string(current.pp) + "; dp " +
                         std::to_string(kept.spec.parallel.dp) + " fills the " + npusText(npuCount);
            return fit;
        }
    }

    // 2. Every split with tp a power of two <= 8, in order of model-parallel degree tp * pp,
    //    tensor before pipeline at equal degree.
    std::vector<std::pair<int, int>> shapes;           // (tp, pp)
    std::vector<std::string> rejected, rejectedShapes; // candidates first, then tp and pp
    for (int tp = 1; tp <= kMaxTensorParallel && npuCount % tp == 0; tp *= 2) {
        if (const std::string why = tensorProblem(m, current, tp); !why.empty()) {
            rejectedShapes.push_back("tp " + std::to_string(tp) + ": " + why);
            continue;
        }
        for (int pp = 1; pp <= npuCount / tp; ++pp) {
            if ((npuCount / tp) % pp != 0)
                continue;
            if (const std::string why = pipelineProblem(m, current, pp); why.empty())
                shapes.emplace_back(tp, pp);
            else if (tp == 1)
                rejectedShapes.push_back("pp " + std::to_string(pp) + ": " + why);
        }
    }
    std::stable_sort(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) {
        const int da = a.first * a.second, db = b.first * b.second;
        return da != db ? da < db : a.first > b.first;
    });
    std::optional<Candidate> leastMemory;
    for (const auto& [tp, pp] : shapes) {
        Candidate c = evaluate(spec, tp, pp, npuCount, batch);
        if (!c.problem.empty()) {
            rejected.push_back(splitText(tp, pp, npuCount / (tp * pp)) + ": " + c.problem);
            continue;
        }
        if (c.fitsMemory) {
            fit.fits = fit.fitsMemory = true;
            fit.spec = c.spec;
            fit.reason = splitText(tp, pp, c.spec.parallel.dp) +
                         ": the least model parallelism that fits in " +
                         gib(spec.compute.hbmCapacityGiB * double(1ull << 30)) + " per NPU";
            return fit;
        }
        if (!leastMemory || c.memoryBytes < leastMemory->memoryBytes)
            leastMemory = std::move(c);
    }
    // 3. Nothing fits in memory: the split that needs the least.
    if (leastMemory) {
        const ParallelSpec& p = leastMemory->spec.parallel;
        fit.fits = true;
        fit.spec = leastMemory->spec;
        fit.reason = "no split of " + npusText(npuCount) + " fits in memory; " +
                     splitText(p.tp, p.pp, p.dp) + " needs the least (" +
                     gib(leastMemory->memoryBytes) + " per NPU)";
        return fit;
    }
    // Nothing at all: say what was tried.
    std::string why = "no split of " + npusText(npuCount) + " fits " +
                      (m.name.empty() ? std::string("the model") : m.name) +
                      " (tp must be a power of two <= 8 dividing the NPUs and the heads, pp must "
                      "divide the layers and the NPUs)";
    rejected.insert(rejected.end(), rejectedShapes.begin(), rejectedShapes.end());
    for (size_t i = 0; i < rejected.size() && i < 4; ++i)
        why += "; " + rejected[i];
    fit.reason = why;
    return fit;
}

} // namespace
} // namespace astrolabe::generate
