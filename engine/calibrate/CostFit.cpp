#include "calibrate/CostFit.h"

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

constexpr int kMinSizesPerRegime = 3;
/// Distinct message sizes a fit takes: splits cost O(sizes^2) solves and the held-out check
/// one fit per two sizes (256 sizes in three regimes: about 2 s of CPU in all).
constexpr size_t kMaxSizes = 256;
/// The share of the largest message's time the fitted bandwidth term must explain.
constexpr double kMinBandwidthShare = 0.1;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kParams = 4; ///< alpha, delta, u, w

/// The least-squares sums of the rows a = (1, steps, bus * S, sqrt(bus * S)) / t and
/// y = (t - g * reduced * S) / t.
struct Sums {
    double ata[kParams][kParams] = {};
    double aty[kParams] = {};
    double yy = 0;
    double minSteps = kInf, maxSteps = -kInf;
    int n = 0;

    void add(const CalibrationPoint& p, double reduceUsPerByte) {
        const double s = static_cast<double>(p.sizeBytes);
        const double steps = ringSteps(p.collective, p.ranks);
        const double bus = ncclBusFactor(p.collective, p.ranks) * s;
        const double a[kParams] = {1 / p.timeUs, steps / p.timeUs, bus / p.timeUs,
                                   std::sqrt(bus) / p.timeUs};
        const double y =
            (p.timeUs - reducedFraction(p.collective, p.ranks) * s * reduceUsPerByte) / p.timeUs;
        for (int i = 0; i < kParams; ++i) {
            for (int j = 0; j < kParams; ++j)
                ata[i][j] += a[i] * a[j];
            aty[i] += a[i] * y;
        }
        yy += y * y;
        minSteps = std::min(minSteps, steps);
        maxSteps = std::max(maxSteps, steps);
        ++n;
    }
    void add(const Sums& o) {
        for (int i = 0; i < kParams; ++i) {
            for (int j = 0; j < kParams; ++j)
                ata[i][j] += o.ata[i][j];
            aty[i] += o.aty[i];
        }
        yy += o.yy;
        minSteps = std::min(minSteps, o.minSteps);
        maxSteps = std::max(maxSteps, o.maxSteps);
        n += o.n;
    }
    bool separates() const { return maxSteps > minSteps; }
};

struct Solved {
    RegimeCost cost;
    double sse = kInf;
};

/// Non-negative least squares over (alpha, delta, u, w): the best feasible unconstrained
/// solution over the subsets of free parameters (exact for so few unknowns).
Solved solve(const Sums& s, bool last) {
    Solved best;
    for (int mask = 1; mask < (1 << kParams); ++mask) {
        if (((mask & 1) && !s.separates()) || ((mask & 8) && last))
            continue;
        int idx[kParams], k = 0;
        for (int v = 0; v < kParams; ++v)
            if (mask & (1 << v))
                idx[k++] = v;
        double m[kParams][kParams + 1], scale[kParams];
        bool usable = true;
        for (int i = 0; i < k; ++i) {
            scale[i] = std::sqrt(s.ata[idx[i]][idx[i]]);
            usable = usable && scale[i] > 0;
        }
        if (!usable)
            continue;
        for (int i = 0; i < k; ++i) {
            for (int j = 0; j < k; ++j)
                m[i][j] = s.ata[idx[i]][idx[j]] / (scale[i] * scale[j]);
            m[i][k] = s.aty[idx[i]] / scale[i];
        }
        for (int c = 0; c < k && usable; ++c) {
            int pivot = c;
            for (int r = c + 1; r < k; ++r)
                if (std::abs(m[r][c]) > std::abs(m[pivot][c]))
                    pivot = r;
            if (std::abs(m[pivot][c]) < 1e-11) {
                usable = false;
                break;
            }
            std::swap(m[c], m[pivot]);
            for (int r = 0; r < k; ++r)
                if (r != c) {
                    const double f = m[r][c] / m[c][c];
                    for (int j = c; j <= k; ++j)
                        m[r][j] -= f * m[c][j];
                }
        }
        if (!usable)
            continue;
        double x[kParams] = {};
        for (int i = 0; i < k; ++i)
            x[idx[i]] = m[i][k] / m[i][i] / scale[i];
        if (std::any_of(std::begin(x), std::end(x), [](double v) { return v < 0; }))
            continue;
        double sse = s.yy;
        for (int i = 0; i < kParams; ++i) {
            sse -= 2 * x[i] * s.aty[i];
            for (int j = 0; j < kParams; ++j)
                sse += x[i] * x[j] * s.ata[i][j];
        }
        sse = std::max(sse, 0.0);
        if (sse < best.sse)
            best = {{x[0], x[1], x[2], x[3]}, sse};
    }
    return best;
}

struct Split {
    std::vector<size_t> cuts; ///< index of the first size of regimes 1..K-1
    std::vector<Solved> regimes;
    double sse = kInf;
};

/// The best placement of `regimes` - 1 cuts over the per-size sums.
Split bestSplit(const std::vector<Sums>& perSize, int regimes) {
    Split best, current;
    const size_t n = perSize.size();
    // The last regime from each size on, solved once: sums accumulated from the end.
    std::vector<Solved> tails(n);
    Sums tail;
    for (size_t i = n; i-- > 0;) {
        tail.add(perSize[i]);
        tails[i] = solve(tail, true);
    }
    auto recurse = [&](auto&& self, size_t from, int left) -> void {
        if (left == 1) {
            const Solved& last = tails[from];
            double sse = last.sse;
            for (const Solved& r : current.regimes)
                sse += r.sse;
            if (sse < best.sse) {
                best = current;
                best.regimes.push_back(last);
                best.sse = sse;
            }
            return;
        }
        Sums head;
        for (size_t cut = from + 1; cut < n; ++cut) {
            head.add(perSize[cut - 1]);
            if (cut - from < kMinSizesPerRegime)
                continue;
            if (n - cut < static_cast<size_t>(kMinSizesPerRegime * (left - 1)))
                break;
            const Solved piece = solve(head, false);
            if (!std::isfinite(piece.sse))
                continue;
            current.cuts.push_back(cut);
            current.regimes.push_back(piece);
            self(self, cut, left - 1);
            current.cuts.pop_back();
            current.regimes.pop_back();
        }
    };
    recurse(recurse, 0, regimes);
    return best;
}

double squaredLogError(const CostModel& model, const std::vector<CalibrationPoint>& points) {
    double sum = 0;
    for (const CalibrationPoint& p : points) {
        const double t = model.timeUs(p.collective, p.ranks, p.sizeBytes);
        if (!(t > 0))
            return kInf;
        const double e = std::log(t / p.timeUs);
        sum += e * e;
    }
    return sum;
}

struct Refinement {
    const std::vector<CalibrationPoint>* points;
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
    return squaredLogError(r->model, *r->points);
}

/// NLopt polish of the least-squares start in log space; keeps the start when it is no worse.
CostModel refine(const CostModel& start, const std::vector<CalibrationPoint>& points,
                 const std::vector<bool>& separates) {
    Refinement r{&points, start, {}, {}};
    std::vector<double> x, lower, upper;
    const double typical[kParams] = {1.0, 0.1, 1e-6, 1e-3};
    for (size_t k = 0; k < start.regimes.size(); ++k) {
        const RegimeCost& c = start.regimes[k];
        const double values[kParams] = {c.alphaUs, c.stepUs, c.usPerBusByte, c.usPerRootBusByte};
        for (int p = 0; p < kParams; ++p) {
            if ((p == 0 && !separates[k]) || (p == 3 && k + 1 == start.regimes.size()))
                continue;
            r.free.emplace_back(k, p);
            r.scale.push_back(values[p] > 0 ? values[p] : typical[p]);
            x.push_back(values[p] / r.scale.back());
            lower.push_back(0);
            upper.push_back(std::max(1e3, 100 * x.back()));
        }
    }
    const double before = squaredLogError(start, points);
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
    if (status < 0 || !(value < before))
        return start;
    refineObjective(static_cast<unsigned>(x.size()), x.data(), nullptr, &r);
    return r.model;
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
    std::vector<Sums> perSize(sizes.size());
    for (const CalibrationPoint& p : points)
        perSize[static_cast<size_t>(std::lower_bound(sizes.begin(), sizes.end(), p.sizeBytes) -
                                    sizes.begin())]
            .add(p, options.reduceUsPerByte);

    const double n = static_cast<double>(points.size());
    auto bic = [&](const Split& s, int regimes) {
        return n * std::log(std::max(s.sse, 1e-300) / n) +
               ((kParams + 1.0) * regimes - 1) * std::log(n);
    };
    Split chosen = bestSplit(perSize, 1);
    int regimes = 1;
    for (int k = 2; k <= options.maxRegimes; ++k) {
        if (std::sqrt(chosen.sse / n) <= options.regimeNeededAbove)
            break;
        Split more = bestSplit(perSize, k);
        if (!std::isfinite(more.sse) || bic(more, k) >= bic(chosen, regimes))
            break;
        chosen = std::move(more);
        regimes = k;
    }
    if (!std::isfinite(chosen.sse))
        throw Error(ErrorKind::Validation, "no fit with latency and bandwidth >= 0 exists");

    CostModel model;
    model.reduceUsPerByte = options.reduceUsPerByte;
    model.regimes.clear();
    std::vector<bool> separates;
    size_t from = 0;
    for (size_t k = 0; k < chosen.regimes.size(); ++k) {
        const size_t to = k < chosen.cuts.size() ? chosen.cuts[k] : sizes.size();
        Sums range;
        for (size_t i = from; i < to; ++i)
            range.add(perSize[i]);
        separates.push_back(range.separates());
        model.regimes.push_back(chosen.regimes[k].cost);
        if (k < chosen.cuts.size()) {
            const double mid =
                std::sqrt(static_cast<double>(sizes[to - 1]) * static_cast<double>(sizes[to]));
            model.thresholdBytes.push_back(
                std::clamp(static_cast<uint64_t>(std::ceil(mid)), sizes[to - 1] + 1, sizes[to]));
        }
        from = to;
    }
    model = refine(model, points, separates);
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
    out.rmsRelativeError = std::sqrt(sum / n);
    out.model = std::move(model);
    return out;
}

} // namespace astrolabe
