#include "calibrate/CostFit.h"

#include "calibrate/CostRefine.h"
#include "calibrate/RegimeSplit.h"
#include "core/Error.h"
#include "core/Units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace astrolabe {
namespace {

/// Distinct message sizes a fit takes (docs/limits.md): 256 fit and check in about 0.3 s.
constexpr size_t kMaxSizes = 256;
/// The share of the largest message's time the fitted bandwidth term must explain.
constexpr double kMinBandwidthShare = 0.1;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr size_t kMaxFolds = 16; ///< of the cross-validation that picks the regime count
/// At most this many rounds of the per-collective latencies' alternation (each O(points)).
constexpr int kLatencyRounds = 200;

/// The model of a split of `sizes` (ascending; `perSize` their sums); thresholds at the
/// geometric mean of the sizes on either side of a cut. `separates` gets, per regime, whether
/// its data tells alpha from delta.
CostModel modelOf(const RegimeSplit& split, const std::vector<uint64_t>& sizes,
                  const std::vector<RegimeSums>& perSize, const CostModel& blank,
                  std::vector<bool>* separates = nullptr,
                  std::vector<std::pair<uint64_t, uint64_t>>* gaps = nullptr) {
    CostModel model = blank; // g and the bandwidth factors
    model.thresholdBytes.clear();
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
        CostModel lower = model, upper = model;
        lower.thresholdBytes.clear();
        upper.thresholdBytes.clear();
        lower.regimes = {model.regimes[k]};
        upper.regimes = {model.regimes[k + 1]};
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
                      const std::vector<RegimeSums>& perSize, const FitOptions& options,
                      const CostModel& blank) {
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
            CostModel model = modelOf(split, keptSizes, kept, blank, nullptr, &gaps);
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

/// The fit of `points` (whose distinct sizes are `sizes`, ascending) with the bandwidth factors
/// and g of `blank`; `separates` gets, per regime, whether its data tells alpha from delta.
CostModel fitWith(const std::vector<CalibrationPoint>& points, const std::vector<uint64_t>& sizes,
                  const FitOptions& options, const CostModel& blank, std::vector<bool>& separates) {
    std::vector<size_t> sizeOf(points.size());
    std::vector<RegimeSums> perSize(sizes.size());
    for (size_t i = 0; i < points.size(); ++i) {
        sizeOf[i] = static_cast<size_t>(
            std::lower_bound(sizes.begin(), sizes.end(), points[i].sizeBytes) - sizes.begin());
        perSize[sizeOf[i]].add(points[i], options.reduceUsPerByte,
                               blank.factorOf(points[i].collective),
                               blank.latencyOf(points[i].collective));
    }
    const int regimes = chooseRegimeCount(points, sizes, sizeOf, perSize, options, blank);
    const RegimeSplit chosen = RegimeSplitter(perSize).best(regimes);
    if (!std::isfinite(chosen.sse))
        throw Error(ErrorKind::Validation, "no fit with latency and bandwidth >= 0 exists");
    std::vector<std::pair<uint64_t, uint64_t>> gaps;
    CostModel model = modelOf(chosen, sizes, perSize, blank, &separates, &gaps);
    model = refine(model, points, separates);
    placeThresholds(model, gaps, kindsOf(points));
    // The bandwidth is only told when the largest messages spend a fair share on it.
    const CalibrationPoint& largest = *std::max_element(
        points.begin(), points.end(), [](const CalibrationPoint& a, const CalibrationPoint& b) {
            return a.sizeBytes < b.sizeBytes;
        });
    const double bandwidthUs =
        ncclBusFactor(largest.collective, largest.ranks) * static_cast<double>(largest.sizeBytes) *
        model.regimes.back().usPerBusByte / model.factorOf(largest.collective);
    if (!(bandwidthUs >=
          kMinBandwidthShare * model.timeUs(largest.collective, largest.ranks, largest.sizeBytes)))
        throw Error(ErrorKind::Validation,
                    "the largest messages (up to " + units::formatSize(sizes.back()) +
                        ") spend under " +
                        std::to_string(static_cast<int>(kMinBandwidthShare * 100)) +
                        " % of their time moving bytes: no bandwidth can be fitted",
                    {}, "include sizes large enough for the time to grow with the size");

    return model;
}

/// CostModel::bandwidthFactor: each collective of the data is fitted alone (the whole procedure,
/// factors 1), giving its last regime's bandwidth 1/u_c; f_c = u / u_c where u is the geometric
/// mean of the u_c, so that the factors multiply to 1 and the dimension's bandwidth is the
/// collectives' typical one. A collective whose own fit fails (too few sizes, no bandwidth), and
/// any collective absent from the data, keeps 1: the shared bandwidth. One collective: all 1.
/// `own` gets each such collective's own fit (CostModel::own).
std::array<double, kNcclCollectiveCount>
collectiveFactors(const std::vector<CalibrationPoint>& points, const FitOptions& options,
                  std::array<OwnRegimes, kNcclCollectiveCount>& own) {
    std::array<double, kNcclCollectiveCount> factors{1, 1, 1, 1, 1};
    std::array<double, kNcclCollectiveCount> ownU{};
    std::array<OwnRegimes, kNcclCollectiveCount> alone{};
    CostModel blank;
    blank.reduceUsPerByte = options.reduceUsPerByte;
    double logSum = 0;
    int fitted = 0, present = 0;
    for (size_t c = 0; c < kNcclCollectiveCount; ++c) {
        std::vector<CalibrationPoint> mine;
        std::vector<uint64_t> sizes;
        for (const CalibrationPoint& p : points)
            if (static_cast<size_t>(p.collective) == c) {
                mine.push_back(p);
                sizes.push_back(p.sizeBytes);
            }
        present += mine.empty() ? 0 : 1;
        std::sort(sizes.begin(), sizes.end());
        sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
        if (sizes.size() < static_cast<size_t>(kMinSizesPerRegime))
            continue;
        try {
            std::vector<bool> separates;
            const CostModel solo = fitWith(mine, sizes, options, blank, separates);
            ownU[c] = solo.regimes.back().usPerBusByte;
            alone[c] = {true, solo.thresholdBytes, solo.regimes,
                        solo.thresholdBytes.empty() ? 0 : solo.thresholdBytes.back()};
        } catch (const Error&) {
            continue;
        }
        if (ownU[c] > 0) {
            logSum += std::log(ownU[c]);
            ++fitted;
        }
    }
    if (present < 2 || fitted < 2)
        return factors;
    const double typical = std::exp(logSum / fitted);
    for (size_t c = 0; c < kNcclCollectiveCount; ++c)
        if (ownU[c] > 0) {
            factors[c] = typical / ownU[c];
            own[c] = alone[c];
        }
    return factors;
}

/// CostModel::latencyUs (or settingLatencyUs): with two or more collectives of >= 3 sizes each
/// in `points`, each one's own latency is the constant that best corrects the last regime of
/// `shared` on its points, run at every size as the simulator does (least squares of the
/// relative error: sum((t - m) / t^2) / sum(1 / t^2), so the smallest, most latency-bound sizes
/// decide it), less the smallest of them: the fastest collective gets 0 and the shared
/// constants keep what the collectives have in common. Otherwise all 0.
std::array<double, kNcclCollectiveCount>
collectiveLatencies(const std::vector<CalibrationPoint>& points, const CostModel& shared) {
    std::array<double, kNcclCollectiveCount> out{};
    std::array<double, kNcclCollectiveCount> num{}, den{};
    std::array<std::set<uint64_t>, kNcclCollectiveCount> sizes;
    for (const CalibrationPoint& p : points) {
        const auto c = static_cast<size_t>(p.collective);
        const double m = shared.lastRegimeTimeUs(p.collective, p.ranks, p.sizeBytes);
        num[c] += (p.timeUs - m) / (p.timeUs * p.timeUs);
        den[c] += 1 / (p.timeUs * p.timeUs);
        sizes[c].insert(p.sizeBytes);
    }
    double lowest = kInf;
    int eligible = 0;
    for (size_t c = 0; c < kNcclCollectiveCount; ++c)
        if (sizes[c].size() >= static_cast<size_t>(kMinSizesPerRegime) && den[c] > 0) {
            out[c] = shared.latencyUs[c] + num[c] / den[c];
            lowest = std::min(lowest, out[c]);
            ++eligible;
        }
    if (eligible < 2)
        return {};
    for (size_t c = 0; c < kNcclCollectiveCount; ++c)
        if (sizes[c].size() >= static_cast<size_t>(kMinSizesPerRegime) && den[c] > 0)
            out[c] -= lowest;
    for (double& l : out) // under 1 ps: none (what the subtraction leaves of equal latencies)
        l = l < 1e-6 ? 0 : l;
    return out;
}

/// The points the shared last regime is fitted on: each collective's from where its own fit's
/// last regime starts (OwnRegimes::lastFrom), and those of a collective without a fit of its own
/// in the shared fit's last regime.
std::vector<CalibrationPoint> lastRegimePoints(const std::vector<CalibrationPoint>& points,
                                               const CostModel& model) {
    std::vector<CalibrationPoint> out;
    for (const CalibrationPoint& p : points) {
        const OwnRegimes& o = model.own[static_cast<size_t>(p.collective)];
        if (o.fitted ? p.sizeBytes >= o.lastFrom
                     : model.regimeOf(p.sizeBytes) + 1 == model.regimes.size())
            out.push_back(p);
    }
    return out;
}

/// The shared last regime fitted on `last` (the factors fixed) with the latencies taken off,
/// alternating with the collectives' latencies from what it leaves, until they settle (block
/// coordinate descent on one least-squares problem: it converges; each round O(points), at most
/// kLatencyRounds). Then the latencies the simulator gets (CostModel::settingLatencyUs): the
/// same correction over all of each collective's points. Returns whether the points tell alpha
/// from delta.
bool fitSharedLastRegime(CostModel& model, const std::vector<CalibrationPoint>& last,
                         const std::vector<CalibrationPoint>& all, double reduceUsPerByte) {
    RegimeSums sums;
    for (int round = 0; round < kLatencyRounds; ++round) {
        sums = {};
        for (const CalibrationPoint& p : last)
            sums.add(p, reduceUsPerByte, model.factorOf(p.collective),
                     model.latencyOf(p.collective));
        const SolvedRegime solved = solveRegime(sums, true, false);
        if (!std::isfinite(solved.sse))
            break; // keeps the shared fit's last regime
        model.regimes.back() = solved.cost;
        const auto latencies = collectiveLatencies(last, model);
        double change = 0;
        for (size_t c = 0; c < kNcclCollectiveCount; ++c)
            change = std::max(change, std::abs(latencies[c] - model.latencyUs[c]));
        model.latencyUs = latencies;
        if (change < 1e-9)
            break;
    }
    model.settingLatencyUs = collectiveLatencies(all, model);
    return sums.separates();
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
    CostModel blank;
    blank.reduceUsPerByte = options.reduceUsPerByte;
    std::array<OwnRegimes, kNcclCollectiveCount> own{};
    blank.bandwidthFactor = collectiveFactors(points, options, own);
    std::vector<bool> separates;
    CostModel model = fitWith(points, sizes, options, blank, separates);
    bool stepsSeparated = separates.back();
    // With several collectives, each one's regimes below its own last regime are those of its
    // own fit; the last regime, the one the simulator runs, is shared, fitted on every
    // collective's points of its own last regime with the collective's factor and latency
    // (docs/calibration.md, "Per-collective regimes and latency").
    if (std::any_of(own.begin(), own.end(), [](const OwnRegimes& o) { return o.fitted; })) {
        model.own = own;
        stepsSeparated = fitSharedLastRegime(model, lastRegimePoints(points, model), points,
                                             options.reduceUsPerByte);
    }

    FitResult out;
    out.points = static_cast<int>(points.size());
    out.sizes = static_cast<int>(sizes.size());
    out.stepsSeparated = stepsSeparated;
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
