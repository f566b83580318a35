#pragma once
// The linear least-squares part of the fit (docs/calibration.md, "How the fit works"): one
// regime's parameters from its measurements, and the best split of the sorted message sizes into
// K regimes.
//
// A regime's (alpha, delta, u, w) minimises sum(((t_model - t) / t)^2): with the rows
// a = (1, steps, bus * S, sqrt(bus * S)) / t and y = (t - g * reduced * S) / t it is the
// least-squares solution of a x = y, solved exactly with every parameter >= 0 (the best
// unconstrained solution over the subsets of free parameters that stays feasible; exact for four
// unknowns). The last regime has w = 0 (the simulator's form); alpha is fitted only when the
// regime holds two or more step counts. Per-size sums make a regime O(1) to solve from sums.
//
// The split is dynamic programming over contiguous ranges of sizes (segmented regression):
// every range [i, j) of sizes is solved once, O(sizes^2) solves, and the best K-regime split is
// found in O(K sizes^2). Beyond kMaxCutPositions sizes, regimes start only at every m-th size
// (m = ceil(sizes / kMaxCutPositions)), which bounds the solves at about kMaxCutPositions^2 / 2
// (a sweep by doubling has about 32 sizes and is split anywhere). Ties go to the earlier cut.

#include "calibrate/CostModel.h"

#include <limits>
#include <vector>

namespace astrolabe {

/// A regime holds one size more than it has parameters to fit along the size: three for a line
/// (a constant and a bandwidth), two for a latency floor (a constant only, no bandwidth), which
/// is allowed below the last regime only (the last one must give a bandwidth).
inline constexpr int kMinSizesPerRegime = 3;
inline constexpr int kMinSizesPerFloor = 2;
inline constexpr int kRegimeParams = 4; ///< alpha, delta, u, w
inline constexpr size_t kMaxCutPositions = 48;

/// The least-squares sums of a set of measurements.
struct RegimeSums {
    double ata[kRegimeParams][kRegimeParams] = {};
    double aty[kRegimeParams] = {};
    double yy = 0;
    /// The same with y less z = l_c / t, the collective's latency (CostModel::latencyUs), which
    /// acts in the last regime only: sum(a z), sum(y z), sum(z^2).
    double atz[kRegimeParams] = {};
    double yz = 0, zz = 0;
    double minSteps = std::numeric_limits<double>::infinity();
    double maxSteps = -std::numeric_limits<double>::infinity();
    int n = 0;

    /// `bandwidthFactor`, `latencyUs`: the point's collective's f_c and l_c (CostModel), known.
    void add(const CalibrationPoint& p, double reduceUsPerByte, double bandwidthFactor = 1,
             double latencyUs = 0);
    void add(const RegimeSums& other);
    bool separates() const { return maxSteps > minSteps; }
};

struct SolvedRegime {
    RegimeCost cost;
    double sse = std::numeric_limits<double>::infinity(); ///< sum of squared relative errors
};

/// Non-negative least squares over the sums; `last` forbids w and takes the collectives'
/// latencies off the times, `constantOnly` allows alpha and delta only (a latency floor).
SolvedRegime solveRegime(const RegimeSums& sums, bool last, bool constantOnly);

struct RegimeSplit {
    std::vector<size_t> cuts; ///< index of the first size of regimes 1..K-1
    std::vector<SolvedRegime> regimes;
    double sse = std::numeric_limits<double>::infinity();
};

/// Every split's pieces, solved once: piece(i, j) fits sizes [i, j).
class RegimeSplitter {
public:
    explicit RegimeSplitter(const std::vector<RegimeSums>& perSize);
    /// The best split into `regimes` regimes of >= kMinSizesPerRegime sizes each; sse infinite
    /// when there are too few sizes.
    RegimeSplit best(int regimes) const;

private:
    const SolvedRegime& piece(size_t from, size_t to) const { return m_pieces[from * m_n + to]; }
    bool cutAllowed(size_t at) const { return at % m_step == 0 || at + 1 == m_n; }
    size_t m_n;
    size_t m_step; ///< regimes start at multiples of it: 1 up to kMaxCutPositions sizes
    std::vector<SolvedRegime> m_pieces; ///< [from * n + to]; the last piece (to = n) has w = 0
};

} // namespace astrolabe
