#include "optimize/LibraModel.h"

#include "core/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlopt.h>
#include <numeric>

namespace astrolabe::optimize {

double LibraModel::predictSeconds(const std::vector<double>& gbps) const {
    double t = fixedSeconds;
    for (size_t d = 0; d < coefficients.size() && d < gbps.size(); ++d)
        t += coefficients[d] / gbps[d];
    return t;
}

double modelObjective(const LibraModel& model, const AllocationProblem& problem,
                      const std::vector<double>& gbps) {
    const double t = model.predictSeconds(gbps);
    return problem.objective == Objective::Time ? t : t * problem.costDollars(gbps);
}

namespace {

double finiteMax(const AllocationProblem& p, size_t d) {
    return std::min(p.maxGBps[d], p.totalGBps);
}

std::vector<double> clampedSqrt(const LibraModel& m, const AllocationProblem& p, double scale) {
    std::vector<double> b(p.dimensions());
    for (size_t d = 0; d < b.size(); ++d)
        b[d] = std::clamp(scale * std::sqrt(std::max(0.0, m.coefficients[d])), p.minGBps[d],
                          finiteMax(p, d));
    return b;
}

double sum(const std::vector<double>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0);
}

/// Pulls a point into the bounds and under the total (scaling the part above the minimums).
std::vector<double> project(const AllocationProblem& p, std::vector<double> b) {
    for (size_t d = 0; d < b.size(); ++d)
        b[d] = std::clamp(b[d], p.minGBps[d], finiteMax(p, d));
    const double floor = sum(p.minGBps);
    const double total = sum(b);
    if (total > p.totalGBps && total > floor) {
        const double keep = (p.totalGBps - floor) / (total - floor);
        for (size_t d = 0; d < b.size(); ++d)
            b[d] = p.minGBps[d] + (b[d] - p.minGBps[d]) * keep;
    }
    return b;
}

struct NloptData {
    const LibraModel* model;
    const AllocationProblem* problem;
};

double objectiveCallback(unsigned n, const double* x, double* grad, void* data) {
    const auto* d = static_cast<const NloptData*>(data);
    const LibraModel& m = *d->model;
    const AllocationProblem& p = *d->problem;
    double t = m.fixedSeconds;
    for (unsigned i = 0; i < n; ++i)
        t += m.coefficients[i] / x[i];
    if (p.objective == Objective::Time) {
        if (grad)
            for (unsigned i = 0; i < n; ++i)
                grad[i] = -m.coefficients[i] / (x[i] * x[i]);
        return t;
    }
    // log T + log cost: the same minimizer as T x cost, better scaled.
    double cost = p.fixedDollars;
    for (unsigned i = 0; i < n; ++i)
        cost += p.dollarsPerGBps[i] * x[i];
    t = std::max(t, 1e-300);
    cost = std::max(cost, 1e-300);
    if (grad)
        for (unsigned i = 0; i < n; ++i)
            grad[i] = -m.coefficients[i] / (x[i] * x[i]) / t + p.dollarsPerGBps[i] / cost;
    return std::log(t) + std::log(cost);
}

double totalCallback(unsigned n, const double* x, double* grad, void* data) {
    const auto* p = static_cast<const AllocationProblem*>(data);
    double s = 0;
    for (unsigned i = 0; i < n; ++i) {
        s += x[i];
        if (grad)
            grad[i] = 1.0 / p->totalGBps;
    }
    return s / p->totalGBps - 1.0; // scaled to be O(1)
}

double budgetCallback(unsigned n, const double* x, double* grad, void* data) {
    const auto* p = static_cast<const AllocationProblem*>(data);
    const double budget = *p->budgetDollars;
    double cost = p->fixedDollars;
    for (unsigned i = 0; i < n; ++i) {
        cost += p->dollarsPerGBps[i] * x[i];
        if (grad)
            grad[i] = p->dollarsPerGBps[i] / budget;
    }
    return cost / budget - 1.0;
}

} // namespace

std::vector<double> closedFormAllocation(const LibraModel& model,
                                         const AllocationProblem& problem) {
    const size_t n = problem.dimensions();
    if (sum(model.coefficients) <= 0) // no dimension matters: share the total out evenly
        return project(problem, std::vector<double>(n, problem.totalGBps / static_cast<double>(n)));
    // sum_d clamp(s sqrt(c_d)) grows with s: bisect s so that the sum meets the total.
    double lo = 0, hi = 1;
    while (sum(clampedSqrt(model, problem, hi)) < problem.totalGBps && hi < 1e300) {
        const double before = sum(clampedSqrt(model, problem, hi));
        hi *= 2;
        if (sum(clampedSqrt(model, problem, hi)) == before && hi > 1e30)
            break; // every dimension at its maximum: the total cannot be spent
    }
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (sum(clampedSqrt(model, problem, mid)) < problem.totalGBps ? lo : hi) = mid;
    }
    return project(problem, clampedSqrt(model, problem, lo));
}

std::vector<double> nloptAllocation(const LibraModel& model, const AllocationProblem& problem,
                                    const std::vector<double>& start) {
    const unsigned n = static_cast<unsigned>(problem.dimensions());
    nlopt_opt opt = nlopt_create(NLOPT_LD_SLSQP, n);
    if (!opt)
        throw Error(ErrorKind::Internal, "NLopt could not create an SLSQP solver");
    std::vector<double> lower(problem.minGBps), upper(n);
    for (unsigned d = 0; d < n; ++d)
        upper[d] = finiteMax(problem, d);
    NloptData data{&model, &problem};
    nlopt_set_lower_bounds(opt, lower.data());
    nlopt_set_upper_bounds(opt, upper.data());
    nlopt_set_min_objective(opt, objectiveCallback, &data);
    nlopt_add_inequality_constraint(opt, totalCallback, const_cast<AllocationProblem*>(&problem),
                                    1e-12);
    if (problem.budgetDollars)
        nlopt_add_inequality_constraint(opt, budgetCallback,
                                        const_cast<AllocationProblem*>(&problem), 1e-12);
    nlopt_set_xtol_rel(opt, 1e-12);
    nlopt_set_ftol_rel(opt, 1e-15);
    nlopt_set_maxeval(opt, 5000);
    std::vector<double> x = project(problem, start);
    double value = 0;
    const nlopt_result status = nlopt_optimize(opt, x.data(), &value);
    nlopt_destroy(opt);
    if (status < 0 && status != NLOPT_ROUNDOFF_LIMITED) {
        std::string message = "NLopt SLSQP failed (code ";
        message += std::to_string(static_cast<int>(status));
        message += ")";
        throw Error(ErrorKind::Internal, message);
    }
    return x;
}

std::vector<double> solveAllocation(const LibraModel& model, const AllocationProblem& problem) {
    const std::vector<double> closed = closedFormAllocation(model, problem);
    if (problem.objective == Objective::Time && !problem.budgetDollars)
        return closed;
    const size_t n = problem.dimensions();
    std::vector<double> middle(n);
    for (size_t d = 0; d < n; ++d)
        middle[d] = 0.5 * (problem.minGBps[d] + finiteMax(problem, d));
    std::vector<double> best;
    double bestValue = std::numeric_limits<double>::infinity();
    for (const std::vector<double>& start :
         {closed, std::vector<double>(n, problem.totalGBps / static_cast<double>(n)), middle,
          cheapestAllocation(problem)}) {
        std::vector<double> x;
        try {
            x = nloptAllocation(model, problem, start);
        } catch (const Error&) {
            continue;
        }
        const double value = modelObjective(model, problem, x);
        if (problem.feasible(x, 1e-6) && value < bestValue) {
            bestValue = value;
            best = std::move(x);
        }
    }
    if (best.empty())
        throw Error(ErrorKind::Internal, "NLopt found no allocation that meets the constraints");
    return best;
}

std::vector<double> cheapestAllocation(const AllocationProblem& problem) {
    const size_t n = problem.dimensions();
    std::vector<double> b(problem.minGBps);
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t c) {
        return problem.dollarsPerGBps[a] < problem.dollarsPerGBps[c];
    });
    double left = problem.totalGBps - sum(b);
    double money = problem.budgetDollars ? *problem.budgetDollars - problem.costDollars(b)
                                         : std::numeric_limits<double>::infinity();
    for (size_t d : order) {
        double add = std::min(left, finiteMax(problem, d) - b[d]);
        if (problem.dollarsPerGBps[d] > 0)
            add = std::min(add, money / problem.dollarsPerGBps[d]);
        add = std::max(0.0, add);
        b[d] += add;
        left -= add;
        money -= add * problem.dollarsPerGBps[d];
    }
    return b;
}

} // namespace astrolabe::optimize
