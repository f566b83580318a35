#include "optimize/BandwidthOptimizer.h"

#include "core/Error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace astrolabe::optimize {

double EvaluatedAllocation::perfPerCost() const {
    return simulatedSeconds > 0 && costDollars > 0 ? 1.0 / (simulatedSeconds * costDollars) : 0;
}

LibraModel fitModel(const IterationTime& time, const std::vector<double>& gbps, double step,
                    int* simulations) {
    LibraModel model;
    const double t = time(gbps);
    int calls = 1;
    model.coefficients.assign(gbps.size(), 0.0);
    for (size_t d = 0; d < gbps.size(); ++d) {
        std::vector<double> lower = gbps, upper = gbps;
        lower[d] *= 1 - step;
        upper[d] *= 1 + step;
        const double slower = time(lower);
        const double faster = time(upper);
        calls += 2;
        // T = ... + c_d / B_d: the slope of T against 1 / B_d.
        const double c = (slower - faster) / (1 / lower[d] - 1 / upper[d]);
        model.coefficients[d] = std::max(0.0, c);
    }
    model.fixedSeconds = t;
    for (size_t d = 0; d < gbps.size(); ++d)
        model.fixedSeconds -= model.coefficients[d] / gbps[d];
    if (simulations)
        *simulations += calls;
    return model;
}

std::vector<double> equalAllocation(const AllocationProblem& problem) {
    const size_t n = problem.dimensions();
    std::vector<double> b(n, problem.totalGBps / static_cast<double>(n));
    for (size_t d = 0; d < n; ++d)
        b[d] = std::clamp(b[d], problem.minGBps[d], problem.maxGBps[d]);
    return b;
}

namespace {

/// The objective by simulation: seconds, or seconds x dollars.
double simulatedObjective(const AllocationProblem& p, const EvaluatedAllocation& a) {
    return p.objective == Objective::Time ? a.simulatedSeconds : a.simulatedSeconds * a.costDollars;
}

} // namespace

OptimizationReport optimizeBandwidth(const AllocationProblem& problem,
                                     const std::vector<double>& start, const IterationTime& time,
                                     const OptimizerSettings& settings) {
    problem.validate();
    if (start.size() != problem.dimensions())
        throw Error(ErrorKind::Validation, "the start allocation has the wrong dimension count");
    OptimizationReport report;
    auto evaluate = [&](const std::vector<double>& b, double predicted) {
        EvaluatedAllocation a;
        a.gbps = b;
        a.predictedSeconds = predicted;
        a.simulatedSeconds = time(b);
        a.costDollars = problem.costDollars(b);
        ++report.simulations;
        return a;
    };
    auto solve = [&](const LibraModel& model) {
        const auto began = std::chrono::steady_clock::now();
        std::vector<double> b = solveAllocation(model, problem);
        report.solverSeconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        return b;
    };

    // The start, pulled into the constraints if needed: the model's first candidate otherwise.
    std::vector<double> first = start;
    if (!problem.feasible(first)) {
        report.model = fitModel(time, start, settings.step, &report.simulations);
        first = solve(report.model);
    }
    report.start = evaluate(first, 0);
    report.best = report.start;
    for (int round = 0; round < settings.maxRounds; ++round) {
        report.model = fitModel(time, report.best.gbps, settings.step, &report.simulations);
        std::vector<double> candidate = solve(report.model);
        if (round == 0)
            report.solved = candidate;
        const double before = simulatedObjective(problem, report.best);
        bool improved = false;
        for (int halving = 0; halving < 3 && !improved; ++halving) {
            EvaluatedAllocation a = evaluate(candidate, report.model.predictSeconds(candidate));
            report.confirmed.push_back(a);
            if (simulatedObjective(problem, a) < before) {
                report.best = a;
                improved = true;
            } else {
                for (size_t d = 0; d < candidate.size(); ++d)
                    candidate[d] = 0.5 * (candidate[d] + report.best.gbps[d]);
            }
        }
        if (!improved ||
            simulatedObjective(problem, report.best) > before * (1 - settings.tolerance))
            break;
    }
    return report;
}

std::vector<EvaluatedAllocation> paretoFront(const AllocationProblem& problem,
                                             const std::vector<double>& start,
                                             const IterationTime& time, int points,
                                             const OptimizerSettings& settings) {
    // The fastest point under the problem's own budget (if it has one) closes the front; the
    // other points take budgets between the cost of the minimums and that point's cost.
    AllocationProblem timeProblem = problem;
    timeProblem.objective = Objective::Time;
    const std::vector<double> first = problem.budgetDollars && !timeProblem.feasible(start)
                                          ? cheapestAllocation(timeProblem)
                                          : start;
    const OptimizationReport fastest = optimizeBandwidth(timeProblem, first, time, settings);
    std::vector<EvaluatedAllocation> all{fastest.best};
    const double low = problem.costDollars(problem.minGBps);
    const double high = fastest.best.costDollars;
    for (int i = 1; i < points && high > low; ++i) {
        AllocationProblem budgeted = timeProblem;
        budgeted.budgetDollars = low + (high - low) * static_cast<double>(i) / points;
        // Start from the cheapest split the budget allows: feasible, so simulated as is.
        const OptimizationReport r =
            optimizeBandwidth(budgeted, cheapestAllocation(budgeted), time, settings);
        all.push_back(r.best);
    }
    std::sort(all.begin(), all.end(),
              [](const EvaluatedAllocation& a, const EvaluatedAllocation& b) {
                  return a.costDollars != b.costDollars ? a.costDollars < b.costDollars
                                                        : a.simulatedSeconds < b.simulatedSeconds;
              });
    std::vector<EvaluatedAllocation> front;
    double fastestSoFar = std::numeric_limits<double>::infinity();
    for (EvaluatedAllocation& a : all)
        if (a.simulatedSeconds < fastestSoFar) {
            fastestSoFar = a.simulatedSeconds;
            front.push_back(std::move(a));
        }
    return front;
}

} // namespace astrolabe::optimize
