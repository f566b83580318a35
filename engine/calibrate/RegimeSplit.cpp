#include "calibrate/RegimeSplit.h"

#include <algorithm>
#include <cmath>

namespace astrolabe {

void RegimeSums::add(const CalibrationPoint& p, double reduceUsPerByte, double bandwidthFactor,
                     double latencyUs) {
    const double s = static_cast<double>(p.sizeBytes);
    const double steps = ringSteps(p.collective, p.ranks);
    const double bus = ncclBusFactor(p.collective, p.ranks) * s;
    const double a[kRegimeParams] = {1 / p.timeUs, steps / p.timeUs,
                                     bus / bandwidthFactor / p.timeUs, std::sqrt(bus) / p.timeUs};
    const double y =
        (p.timeUs - reducedFraction(p.collective, p.ranks) * s * reduceUsPerByte) / p.timeUs;
    const double z = latencyUs / p.timeUs;
    for (int i = 0; i < kRegimeParams; ++i) {
        for (int j = 0; j < kRegimeParams; ++j)
            ata[i][j] += a[i] * a[j];
        aty[i] += a[i] * y;
        atz[i] += a[i] * z;
    }
    yy += y * y;
    yz += y * z;
    zz += z * z;
    minSteps = std::min(minSteps, steps);
    maxSteps = std::max(maxSteps, steps);
    ++n;
}

void RegimeSums::add(const RegimeSums& o) {
    for (int i = 0; i < kRegimeParams; ++i) {
        for (int j = 0; j < kRegimeParams; ++j)
            ata[i][j] += o.ata[i][j];
        aty[i] += o.aty[i];
        atz[i] += o.atz[i];
    }
    yy += o.yy;
    yz += o.yz;
    zz += o.zz;
    minSteps = std::min(minSteps, o.minSteps);
    maxSteps = std::max(maxSteps, o.maxSteps);
    n += o.n;
}

SolvedRegime solveRegime(const RegimeSums& sums, bool last, bool constantOnly) {
    constexpr int P = kRegimeParams;
    SolvedRegime best;
    RegimeSums s = sums; // in the last regime, y less the latencies' z
    if (last) {
        for (int i = 0; i < P; ++i)
            s.aty[i] -= s.atz[i];
        s.yy += s.zz - 2 * s.yz;
    }
    for (int mask = 1; mask < (1 << P); ++mask) {
        if (((mask & 1) && !s.separates()) || ((mask & 8) && last) || (constantOnly && mask > 3))
            continue;
        int idx[P], k = 0;
        for (int v = 0; v < P; ++v)
            if (mask & (1 << v))
                idx[k++] = v;
        double m[P][P + 1], scale[P];
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
        double x[P] = {};
        for (int i = 0; i < k; ++i)
            x[idx[i]] = m[i][k] / m[i][i] / scale[i];
        if (std::any_of(std::begin(x), std::end(x), [](double v) { return v < 0; }))
            continue;
        double sse = s.yy;
        for (int i = 0; i < P; ++i) {
            sse -= 2 * x[i] * s.aty[i];
            for (int j = 0; j < P; ++j)
                sse += x[i] * x[j] * s.ata[i][j];
        }
        sse = std::max(sse, 0.0);
        if (sse < best.sse)
            best = {{x[0], x[1], x[2], x[3]}, sse};
    }
    return best;
}

RegimeSplitter::RegimeSplitter(const std::vector<RegimeSums>& perSize)
    : m_n(perSize.size() + 1)
    , m_step(std::max<size_t>(1, (perSize.size() + kMaxCutPositions - 1) / kMaxCutPositions))
    , m_pieces(m_n * m_n) {
    const size_t n = perSize.size();
    for (size_t from = 0; from < n; from += m_step) {
        RegimeSums range;
        for (size_t to = from + 1; to <= n; ++to) {
            range.add(perSize[to - 1]);
            if (!cutAllowed(to))
                continue;
            if (to - from >= static_cast<size_t>(kMinSizesPerRegime))
                m_pieces[from * m_n + to] = solveRegime(range, to == n, false);
            else if (to - from == kMinSizesPerFloor && to < n)
                m_pieces[from * m_n + to] = solveRegime(range, false, true);
        }
    }
}

RegimeSplit RegimeSplitter::best(int regimes) const {
    const size_t n = m_n - 1;
    constexpr double inf = std::numeric_limits<double>::infinity();
    RegimeSplit out;
    if (regimes < 1 ||
        n < static_cast<size_t>(kMinSizesPerRegime + kMinSizesPerFloor * (regimes - 1)))
        return out;
    // cost[k][j]: the best sse of sizes [0, j) in k + 1 regimes that are not the last; from[k][j]
    // where its last of them starts.
    const size_t heads = static_cast<size_t>(regimes - 1);
    std::vector<std::vector<double>> cost(heads, std::vector<double>(n + 1, inf));
    std::vector<std::vector<size_t>> from(heads, std::vector<size_t>(n + 1, 0));
    for (size_t k = 0; k < heads; ++k)
        for (size_t j = m_step; j < n; j += m_step)
            for (size_t i = 0; i < j; i += m_step) {
                const double before = k == 0 ? (i == 0 ? 0.0 : inf) : cost[k - 1][i];
                const double sse = before + piece(i, j).sse;
                if (sse < cost[k][j]) {
                    cost[k][j] = sse;
                    from[k][j] = i;
                }
            }
    size_t lastFrom = 0;
    for (size_t i = 0; i < n; i += m_step) {
        const double before = heads == 0 ? (i == 0 ? 0.0 : inf) : cost[heads - 1][i];
        const double sse = before + piece(i, n).sse;
        if (sse < out.sse) {
            out.sse = sse;
            lastFrom = i;
        }
    }
    if (!std::isfinite(out.sse))
        return out;
    std::vector<size_t> starts{lastFrom};
    for (size_t k = heads; k-- > 0;)
        starts.push_back(from[k][starts.back()]);
    std::reverse(starts.begin(), starts.end()); // starts[0] = 0
    for (size_t r = 0; r < starts.size(); ++r) {
        const size_t to = r + 1 < starts.size() ? starts[r + 1] : n;
        if (r > 0)
            out.cuts.push_back(starts[r]);
        out.regimes.push_back(piece(starts[r], to));
    }
    return out;
}

} // namespace astrolabe
