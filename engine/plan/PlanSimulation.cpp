#include "plan/PlanSimulation.h"

#include "core/Error.h"
#include "core/WorkerThreads.h"
#include "generate/WorkloadGenerator.h"
#include "record/RunResult.h"
#include "simulation/Simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace astrolabe::plan {

SimulatedCandidate simulateCandidate(const SimulationSpec& project, const PlanRequest& request,
                                     const RankedCandidate& candidate, const CancelToken* cancel) {
    SimulatedCandidate out;
    out.ranked = candidate;
    const auto started = std::chrono::steady_clock::now();
    try {
        const generate::GeneratorSpec spec = candidateSpec(request, candidate.candidate);
        generate::GeneratedWorkload workload = generate::generateWorkload(spec);
        SimulationSpec run = project;
        run.commGroups = std::move(workload.groups);
        run.workload.kind = WorkloadSource::Kind::ChakraTrace;
        run.workload.tracePrefix = "generated:" + spec.model.name;
        run.options.recordTimeline = false;
        run.options.recordLinkIntervals = false;
        const auto result = runSimulation(run, std::move(workload.traces), nullptr, cancel);
        SimTime last;
        for (const NpuSummary& npu : result->npus)
            last = std::max(last, npu.finish);
        out.simulatedSeconds = last.seconds();
        out.ran = out.simulatedSeconds > 0;
        if (!out.ran)
            out.error = "the simulated iteration took no time";
    } catch (const std::bad_alloc&) {
        out.error = "out of memory while simulating this candidate";
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    out.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

std::vector<SimulatedCandidate>
simulateCandidates(const SimulationSpec& project, const PlanRequest& request,
                   const std::vector<RankedCandidate>& candidates, int jobs,
                   const std::function<void(const SimulatedCandidate&)>& done) {
    std::vector<SimulatedCandidate> outcomes(candidates.size());
    runOnWorkerThreads<SimulatedCandidate>(
        candidates.size(), jobs,
        [&](size_t i) { return simulateCandidate(project, request, candidates[i]); },
        [&](size_t i, SimulatedCandidate&& outcome) {
            outcomes[i] = std::move(outcome);
            if (done)
                done(outcomes[i]);
        });
    return outcomes;
}

void resizePlatform(PlatformSpec& platform, int npus) {
    if (platform.npuCount() == npus)
        return;
    if (platform.graph || platform.dimensions.empty())
        throw Error(ErrorKind::Validation,
                    "GPUs: the platform is a graph of " + std::to_string(platform.npuCount()) +
                        " NPUs; plan for that count, or use a dimensional platform");
    const int inner = platform.npuCount() / platform.dimensions.back().size;
    if (npus % inner != 0)
        throw Error(ErrorKind::Validation,
                    "GPUs not divisible: " + std::to_string(npus) + " is not a multiple of the " +
                        std::to_string(inner) +
                        " NPUs of the platform's inner dimensions; the planner grows the "
                        "outermost dimension only");
    if (npus / inner < 2)
        throw Error(ErrorKind::Validation,
                    "GPUs: " + std::to_string(npus) + " would leave the outermost dimension " +
                        std::to_string(npus / inner) +
                        " NPU wide; the planner resizes that dimension and keeps it at 2 or "
                        "more: plan for at least " +
                        std::to_string(2 * inner) +
                        " GPUs, or for one node on a project of that node alone");
    platform.dimensions.back().size = npus / inner;
}

namespace {

std::vector<double> ranks(const std::vector<double>& x) {
    std::vector<size_t> order(x.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return x[a] < x[b]; });
    std::vector<double> r(x.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]])
            ++j;
        const double mean = (double(i) + double(j)) / 2 + 1;
        for (size_t k = i; k <= j; ++k)
            r[order[k]] = mean;
        i = j + 1;
    }
    return r;
}

} // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size() || a.size() < 2)
        return 0;
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double n = double(a.size());
    const double mean = (n + 1) / 2;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < ra.size(); ++i) {
        sab += (ra[i] - mean) * (rb[i] - mean);
        saa += (ra[i] - mean) * (ra[i] - mean);
        sbb += (rb[i] - mean) * (rb[i] - mean);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

Calibration calibrate(const std::vector<SimulatedCandidate>& simulated) {
    // Minimise sum_i (y_i - w . x_i)^2 / y_i^2 + lambda |w - 1|^2: relative errors, so that the
    // slow candidates do not outweigh the fast ones; lambda keeps w near 1 with few points.
    constexpr size_t k = 4;
    double a[k][k] = {}, rhs[k] = {};
    size_t used = 0;
    for (const SimulatedCandidate& s : simulated) {
        if (!s.ran)
            continue;
        const Estimate& e = s.ranked.estimate;
        const double x[k] = {e.compute, e.communication, e.bubble, e.tail};
        const double y = s.simulatedSeconds, w = 1 / (y * y);
        for (size_t i = 0; i < k; ++i) {
            rhs[i] += w * x[i] * y;
            for (size_t j = 0; j < k; ++j)
                a[i][j] += w * x[i] * x[j];
        }
        ++used;
    }
    if (used < 2)
        return {};
    const double lambda = 0.05;
    for (size_t i = 0; i < k; ++i) {
        a[i][i] += lambda;
        rhs[i] += lambda;
    }
    // Gaussian elimination with partial pivoting (4 x 4, positive definite).
    double w[k] = {};
    for (size_t c = 0; c < k; ++c) {
        size_t pivot = c;
        for (size_t r = c + 1; r < k; ++r)
            if (std::abs(a[r][c]) > std::abs(a[pivot][c]))
                pivot = r;
        std::swap(a[c], a[pivot]);
        std::swap(rhs[c], rhs[pivot]);
        for (size_t r = c + 1; r < k; ++r) {
            const double f = a[r][c] / a[c][c];
            for (size_t j = c; j < k; ++j)
                a[r][j] -= f * a[c][j];
            rhs[r] -= f * rhs[c];
        }
    }
    for (size_t c = k; c-- > 0;) {
        double sum = rhs[c];
        for (size_t j = c + 1; j < k; ++j)
            sum -= a[c][j] * w[j];
        w[c] = sum / a[c][c];
    }
    return {w[0], w[1], w[2], w[3]};
}

double meanAbsErrorPercent(const std::vector<SimulatedCandidate>& simulated,
                           const Calibration& calibration) {
    double sum = 0;
    int n = 0;
    for (const SimulatedCandidate& s : simulated)
        if (s.ran) {
            sum += std::abs(calibration.apply(s.ranked.estimate) - s.simulatedSeconds) /
                   s.simulatedSeconds;
            ++n;
        }
    return n > 0 ? 100 * sum / n : 0;
}

} // namespace astrolabe::plan
