#include "calibrate/CostFit.h"

#include "calibrate/RegimeSplit.h"
#include "core/Error.h"
#include "core/Units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlopt.h>
#include <set>

namespace astrolabe {
namespace {

/// Distinct message sizes a fit takes (docs/limits.md): 256 fit and check in about 0.3 s.
constexpr size_t kMaxSizes = 256;
/// The share of the largest message's time the fitted bandwidth term must explain.
constexpr double kMinBandwidthShare = 0.1;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kParams = kRegimeParams;
constexpr size_t kMaxFolds = 16; ///< of the cross-validation that picks the regime count

/// The measurements of one (collective, ranks, size): count, mean of ln t and the sum of squared
/// deviations from it, so that sum((ln m - ln t)^2) = count (ln m - mean)^2 + deviations costs
/// one model evaluation per group, however many files repeat the size (and cancels nothing).
struct LogGroup {
    NcclCollective collective;
    int ranks;
    uint64_t sizeBytes;
    double count = 0, meanLog = 0, deviations = 0;
};

std::vector<LogGroup> logGroups(const std::vector<CalibrationPoint>& points) {
    std::vector<LogGroup> groups;
    std::vector<size_t> groupOf;
    for (const CalibrationPoint& p : points) {
        auto it = std::find_if(groups.begin(), groups.end(), [&p](const LogGroup& g) {
            return g.collective == p.collective && g.ranks == p.ranks && g.sizeBytes == p.sizeBytes;
        });
        if (it == groups.end())
            it = groups.insert(groups.end(), {p.collective, p.ranks, p.sizeBytes});
        it->count += 1;
        it->meanLog += std::log(p.timeUs);
        groupOf.push_back(static_cast<size_t>(it - groups.begin()));
    }
    for (LogGroup& g : groups)
        g.meanLog /= g.count;
    for (size_t i = 0; i < points.size(); ++i) {
        LogGroup& g = groups[groupOf[i]];
        const double d = std::log(points[i].timeUs) - g.meanLog;
        g.deviations += d * d;
    }
    return groups;
}

double squaredLogError(const CostModel& model, const std::vector<LogGroup>& groups) {
    double sum = 0;
    for (const LogGroup& g : groups) {
        const double t = model.timeUs(g.collective, g.ranks, g.sizeBytes);
        if (!(t > 0))
            return kInf;
        const double d = std::log(t) - g.meanLog;
        sum += g.count * d * d + g.deviations;
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
    return squaredLogError(r->model, *r->groups);
}

/// NLopt polish of the least-squares start in log space, one regime at a time (with the
/// thresholds fixed every measurement belongs to one regime, so the sum of squared log errors
/// splits into independent sums of at most four unknowns each); a regime keeps its start when
/// NLopt does not improve on it.
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
        const double before = squaredLogError(start, mine);
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

/// The model of a split of `sizes` (ascending; `perSize` their sums); thresholds at the
/// geometric mean of the sizes on either side of a cut. `separates` gets, per regime, whether
/// its data tells alpha from delta.
CostModel modelOf(const RegimeSplit& split, const std::vector<uint64_t>& sizes,
                  const std::vector<RegimeSums>& perSize, double reduceUsPerByte,
                  std::vector<bool>* separates = nullptr,
                  std::vector<std::pair<uint64_t, uint64_t>>* gaps = nullptr) {
    CostModel model;
    model.reduceUsPerByte = reduceUsPerByte;
    model.regimes.clear();
    size_t from = 0;
    for (size_t k = 0; k < split.regimes.size(); ++k) {
        const size_t to = k < split.cuts.size() ? split.cuts[k] : sizes.size();
        if (separates) {
            RegimeSums range;
            for (size_t i = from; i < to; ++i)
                range.add(perSize[i]);
            separates->push_back(range.separates());
        }
        model.regimes.push_back(split.regimes[k].cost);
        if (k < split.cuts.size()) {
            if (gaps)
                gaps->emplace_back(sizes[to - 1], sizes[to]);
            const double mid =
                std::sqrt(static_cast<double>(sizes[to - 1]) * static_cast<double>(sizes[to]));
            model.thresholdBytes.push_back(
                std::clamp(static_cast<uint64_t>(std::ceil(mid)), sizes[to - 1] + 1, sizes[to]));
        }
        from = to;
    }
    return model;
}

using Kinds = std::vector<std::pair<NcclCollective, int>>; ///< (collective, ranks) in the data

Kinds kindsOf(const std::vector<CalibrationPoint>& points) {
    Kinds kinds;
    for (const CalibrationPoint& p : points)
        if (std::find(kinds.begin(), kinds.end(), std::pair{p.collective, p.ranks}) == kinds.end())
            kinds.emplace_back(p.collective, p.ranks);
    return kinds;
}

/// Each threshold where the two regimes' times meet inside the gap between their data (summed
/// log ratio of their times over the data's collectives changes sign), found by bisection in
/// log size, so the predicted time is continuous there: where NCCL's tuner would switch to the
/// protocol that became faster, or where a latency floor gives way to a rising time. The
/// geometric mean of the gap's ends when they do not meet inside it. Only sizes inside gaps
/// move.
void placeThresholds(CostModel& model, const std::vector<std::pair<uint64_t, uint64_t>>& gaps,
                     const Kinds& kinds) {
    for (size_t k = 0; k < gaps.size(); ++k) {
        CostModel lower, upper;
        lower.regimes = {model.regimes[k]};
        upper.regimes = {model.regimes[k + 1]};
        lower.reduceUsPerByte = upper.reduceUsPerByte = model.reduceUsPerByte;
        const auto slower = [&](double logSize) { // > 0 where the lower regime is slower
            const auto size = static_cast<uint64_t>(std::exp(logSize));
            double sum = 0;
            for (const auto& [c, n] : kinds)
                sum += std::log(lower.timeUs(c, n, size) / upper.timeUs(c, n, size));
            return sum;
        };
        const auto [from, to] = gaps[k];
        double a = std::log(static_cast<double>(from)), b = std::log(static_cast<double>(to));
        double cut = 0.5 * (a + b);
        const bool rising = slower(a) < 0; // the lower regime is faster at the gap's start
        if (rising == (slower(b) > 0)) {
            for (int i = 0; i < 60; ++i) {
                const double mid = 0.5 * (a + b);
                ((slower(mid) < 0) == rising ? a : b) = mid;
            }
            cut = b;
        }
        model.thresholdBytes[k] =
            std::clamp(static_cast<uint64_t>(std::ceil(std::exp(cut))), from + 1, to);
    }
}

/// The number of regimes by cross-validation on the data given (docs/calibration.md): the sizes
/// are cut into folds of `crossValidationSizes` adjacent sizes; for each fold and each regime
/// count K the least-squares split of the other sizes predicts the fold, and the K with the
/// smallest mean |ln(predicted / measured)| over every point wins, the smallest K on a tie
/// (within 1e-9). A K that some fold cannot form (fewer than 3 sizes a regime) is not a
/// candidate. Cost: one O(sizes^2) splitter per fold.
int chooseRegimeCount(const std::vector<CalibrationPoint>& points,
                      const std::vector<uint64_t>& sizes, const std::vector<size_t>& sizeOf,
                      const std::vector<RegimeSums>& perSize, const FitOptions& options) {
    // At most kMaxFolds folds: wider ones when there are many sizes, so the cost stays
    // O(sizes^2) solves per fold.
    const size_t width = std::max({static_cast<size_t>(std::max(1, options.crossValidationSizes)),
                                   (sizes.size() + kMaxFolds - 1) / kMaxFolds});
    const size_t kept = sizes.size() - std::min(width, sizes.size());
    const int most =
        kept < static_cast<size_t>(kMinSizesPerRegime)
            ? 1
            : std::min(options.maxRegimes,
                       1 + static_cast<int>((kept - kMinSizesPerRegime) / kMinSizesPerFloor));
    if (most <= 1)
        return 1;
    const Kinds kinds = kindsOf(points);
    std::vector<double> errorSum(static_cast<size_t>(most) + 1, 0.0);
    std::vector<bool> possible(static_cast<size_t>(most) + 1, true);
    for (size_t first = 0; first < sizes.size(); first += width) {
        const size_t last = std::min(first + width, sizes.size());
        std::vector<RegimeSums> kept;
        std::vector<uint64_t> keptSizes;
        for (size_t i = 0; i < sizes.size(); ++i)
            if (i < first || i >= last) {
                kept.push_back(perSize[i]);
                keptSizes.push_back(sizes[i]);
            }
        const RegimeSplitter splitter(kept);
        for (int k = 1; k <= most; ++k) {
            const RegimeSplit split = splitter.best(k);
            if (!std::isfinite(split.sse)) {
                possible[static_cast<size_t>(k)] = false;
                continue;
            }
            std::vector<std::pair<uint64_t, uint64_t>> gaps;
            CostModel model =
                modelOf(split, keptSizes, kept, options.reduceUsPerByte, nullptr, &gaps);
            placeThresholds(model, gaps, kinds);
            for (size_t i = 0; i < points.size(); ++i)
                if (sizeOf[i] >= first && sizeOf[i] < last) {
                    const CalibrationPoint& p = points[i];
                    const double t = model.timeUs(p.collective, p.ranks, p.sizeBytes);
                    errorSum[static_cast<size_t>(k)] +=
                        t > 0 ? std::abs(std::log(t / p.timeUs)) : kInf;
                }
        }
    }
    int best = 1;
    for (int k = 2; k <= most; ++k)
        if (possible[static_cast<size_t>(k)] &&
            errorSum[static_cast<size_t>(k)] <
                errorSum[static_cast<size_t>(best)] - 1e-9 * static_cast<double>(points.size()))
            best = k;
    return best;
}

/// "1e-300", "25.5": a number as written, however small or large.
std::string general(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

std::string sizesText(const std::vector<uint64_t>& sizes) {
    std::string out;
    for (size_t i = 0; i < sizes.size() && i < 4; ++i)
        out += (i ? ", " : "") + units::formatSize(sizes[i]);
    return out + (sizes.size() > 4 ? ", ..." : "");
}

} // namespace

FitResult fitCostModel(const std::vector<CalibrationPoint>& points, const FitOptions& options) {
    if (points.empty())
        throw Error(ErrorKind::Validation,
                    "no measurement to fit: every row has size 0 or no time > 0");
    std::vector<uint64_t> sizes;
    for (const CalibrationPoint& p : points) {
        // 1 ps to 1e12 us (11.6 days): what a measurement can be, and what keeps the sums finite.
        if (!(p.timeUs >= 1e-6 && p.timeUs <= 1e12))
            throw Error(ErrorKind::Validation,
                        "line " + std::to_string(p.line) + ": a time of " + general(p.timeUs) +
                            " us is outside what a measurement can be (1 ps to 1e12 us)");
        sizes.push_back(p.sizeBytes);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    if (sizes.size() > kMaxSizes)
        throw Error(ErrorKind::Validation,
                    "the data has " + std::to_string(sizes.size()) +
                        " message sizes; a fit takes at most " + std::to_string(kMaxSizes) +
                        " (docs/limits.md)",
                    {}, "a sweep from 8 B to 16 GiB by doubling has 32; thin out the sizes");
    if (sizes.size() < static_cast<size_t>(kMinSizesPerRegime))
        throw Error(ErrorKind::Validation,
                    "the data has " + units::countOf(sizes.size(), "message size") + " (" +
                        sizesText(sizes) + "); a fit needs at least " +
                        std::to_string(kMinSizesPerRegime) +
                        ": two to separate latency from bandwidth and one to check them",
                    {}, "run the test over a range of sizes, e.g. -b 8 -e 8G -f 2");
    for (const CalibrationPoint& p : points) {
        const double knownUs = reducedFraction(p.collective, p.ranks) *
                               static_cast<double>(p.sizeBytes) * options.reduceUsPerByte;
        if (knownUs > 0.9 * p.timeUs)
            throw Error(ErrorKind::Validation,
                        "line " + std::to_string(p.line) + ": the known reduction cost alone (" +
                            units::formatPlain(knownUs, 4) + " us) is " +
                            units::formatPlain(100 * knownUs / p.timeUs, 3) +
                            " % of the measured " + units::formatPlain(p.timeUs, 6) + " us for " +
                            units::formatSize(p.sizeBytes),
                        {},
                        "the project's local memory bandwidth is far below this GPU's; set "
                        "system.local-memory-bandwidth to its memory bandwidth");
    }
    std::vector<size_t> sizeOf(points.size());
    std::vector<RegimeSums> perSize(sizes.size());
    for (size_t i = 0; i < points.size(); ++i) {
        sizeOf[i] = static_cast<size_t>(
            std::lower_bound(sizes.begin(), sizes.end(), points[i].sizeBytes) - sizes.begin());
        perSize[sizeOf[i]].add(points[i], options.reduceUsPerByte);
    }
    const int regimes = chooseRegimeCount(points, sizes, sizeOf, perSize, options);
    const RegimeSplit chosen = RegimeSplitter(perSize).best(regimes);
    if (!std::isfinite(chosen.sse))
        throw Error(ErrorKind::Validation, "no fit with latency and bandwidth >= 0 exists");
    std::vector<bool> separates;
    std::vector<std::pair<uint64_t, uint64_t>> gaps;
    CostModel model = modelOf(chosen, sizes, perSize, options.reduceUsPerByte, &separates, &gaps);
    model = refine(model, points, separates);
    placeThresholds(model, gaps, kindsOf(points));
    // The bandwidth is only told when the largest messages spend a fair share on it.
    const CalibrationPoint& largest = *std::max_element(
        points.begin(), points.end(), [](const CalibrationPoint& a, const CalibrationPoint& b) {
            return a.sizeBytes < b.sizeBytes;
        });
    const double bandwidthUs = ncclBusFactor(largest.collective, largest.ranks) *
                               static_cast<double>(largest.sizeBytes) *
                               model.regimes.back().usPerBusByte;
    if (!(bandwidthUs >=
          kMinBandwidthShare * model.timeUs(largest.collective, largest.ranks, largest.sizeBytes)))
        throw Error(ErrorKind::Validation,
                    "the largest messages (up to " + units::formatSize(sizes.back()) +
                        ") spend under " +
                        std::to_string(static_cast<int>(kMinBandwidthShare * 100)) +
                        " % of their time moving bytes: no bandwidth can be fitted",
                    {}, "include sizes large enough for the time to grow with the size");

    FitResult out;
    out.points = static_cast<int>(points.size());
    out.sizes = static_cast<int>(sizes.size());
    out.stepsSeparated = separates.back();
    double sum = 0;
    for (const CalibrationPoint& p : points) {
        const double e = model.timeUs(p.collective, p.ranks, p.sizeBytes) / p.timeUs - 1;
        sum += e * e;
    }
    out.rmsRelativeError = std::sqrt(sum / static_cast<double>(points.size()));
    out.model = std::move(model);
    return out;
}

} // namespace astrolabe
