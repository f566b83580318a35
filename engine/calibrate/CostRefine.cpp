#include "calibrate/CostRefine.h"

#include "calibrate/RegimeSplit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlopt.h>

namespace astrolabe {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kParams = kRegimeParams;

/// The measurements of one (collective, ranks, size): the logs of their times, so that the loss
/// costs one model evaluation per group, however many files repeat the size.
struct LogGroup {
    NcclCollective collective;
    int ranks;
    uint64_t sizeBytes;
    std::vector<double> logs;
};

std::vector<LogGroup> logGroups(const std::vector<CalibrationPoint>& points) {
    std::vector<LogGroup> groups;
    for (const CalibrationPoint& p : points) {
        auto it = std::find_if(groups.begin(), groups.end(), [&p](const LogGroup& g) {
            return g.collective == p.collective && g.ranks == p.ranks && g.sizeBytes == p.sizeBytes;
        });
        if (it == groups.end())
            it = groups.insert(groups.end(), {p.collective, p.ranks, p.sizeBytes, {}});
        it->logs.push_back(std::log(p.timeUs));
    }
    return groups;
}

/// sum of rho(ln model - ln measured) over the measurements (CostRefine.h).
double robustLogLoss(const CostModel& model, const std::vector<LogGroup>& groups) {
    constexpr double c2 = kRobustLogScale * kRobustLogScale;
    double sum = 0;
    for (const LogGroup& g : groups) {
        const double t = model.timeUs(g.collective, g.ranks, g.sizeBytes);
        if (!(t > 0))
            return kInf;
        const double logT = std::log(t);
        for (const double logMeasured : g.logs) {
            const double d = logT - logMeasured;
            sum += c2 * (std::sqrt(1 + d * d / c2) - 1);
        }
    }
    return sum;
}

struct Refinement {
    const std::vector<LogGroup>* groups;
    CostModel model;
    std::vector<std::pair<size_t, int>> free; ///< (regime, parameter) per variable
    std::vector<double> scale;
};

double refineObjective(unsigned n, const double* x, double*, void* data) {
    auto* r = static_cast<Refinement*>(data);
    for (unsigned i = 0; i < n; ++i) {
        RegimeCost& c = r->model.regimes[r->free[i].first];
        double* params[kParams] = {&c.alphaUs, &c.stepUs, &c.usPerBusByte, &c.usPerRootBusByte};
        *params[r->free[i].second] = x[i] * r->scale[i];
    }
    return robustLogLoss(r->model, *r->groups);
}

} // namespace

CostModel refine(const CostModel& start, const std::vector<CalibrationPoint>& points,
                 const std::vector<bool>& separates) {
    const std::vector<LogGroup> all = logGroups(points);
    CostModel out = start;
    const double typical[kParams] = {1.0, 0.1, 1e-6, 1e-3};
    for (size_t k = 0; k < start.regimes.size(); ++k) {
        std::vector<LogGroup> mine;
        for (const LogGroup& g : all)
            if (start.regimeOf(g.sizeBytes) == k)
                mine.push_back(g);
        std::vector<uint64_t> mineSizes;
        for (const LogGroup& g : mine)
            mineSizes.push_back(g.sizeBytes);
        std::sort(mineSizes.begin(), mineSizes.end());
        // A latency floor (fewer sizes than a line needs) stays a constant.
        const bool floor = std::unique(mineSizes.begin(), mineSizes.end()) - mineSizes.begin() <
                           kMinSizesPerRegime;
        Refinement r{&mine, start, {}, {}};
        std::vector<double> x, lower, upper;
        const RegimeCost& c = start.regimes[k];
        const double values[kParams] = {c.alphaUs, c.stepUs, c.usPerBusByte, c.usPerRootBusByte};
        for (int p = 0; p < kParams; ++p) {
            if ((p == 0 && !separates[k]) || (p == 3 && k + 1 == start.regimes.size()) ||
                (p >= 2 && floor))
                continue;
            r.free.emplace_back(k, p);
            r.scale.push_back(values[p] > 0 ? values[p] : typical[p]);
            x.push_back(values[p] / r.scale.back());
            lower.push_back(0);
            upper.push_back(std::max(1e3, 100 * x.back()));
        }
        if (mine.empty() || x.empty())
            continue;
        const double before = robustLogLoss(start, mine);
        nlopt_opt opt = nlopt_create(NLOPT_LN_BOBYQA, static_cast<unsigned>(x.size()));
        nlopt_set_lower_bounds(opt, lower.data());
        nlopt_set_upper_bounds(opt, upper.data());
        nlopt_set_min_objective(opt, refineObjective, &r);
        nlopt_set_initial_step1(opt, 0.05);
        nlopt_set_xtol_rel(opt, 1e-10);
        nlopt_set_maxeval(opt, 20000);
        double value = kInf;
        const nlopt_result status = nlopt_optimize(opt, x.data(), &value);
        nlopt_destroy(opt);
        // Roundoff-limited ends still return the best point found.
        if ((status < 0 && status != NLOPT_ROUNDOFF_LIMITED) || !(value < before))
            continue;
        refineObjective(static_cast<unsigned>(x.size()), x.data(), nullptr, &r);
        out.regimes[k] = r.model.regimes[k];
    }
    return out;
}

} // namespace astrolabe
