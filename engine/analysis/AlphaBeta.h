#pragma once
// The alpha-beta(-gamma) model of a microbenchmark collective (lesson 2): time = alpha + size x
// (beta' + gamma'), where beta' is the per-byte cost of a bandwidth-optimal algorithm on the
// platform's one dimension of N NPUs with link bandwidth B (over the collective's bandwidth
// factor f, system.*-bandwidth-factor):
//   all-reduce                              2(N-1)/N / (f B)   (reduce-scatter then all-gather)
//   reduce-scatter, all-gather, all-to-all   (N-1)/N / (f B)
// and gamma' that of the reductions in local memory (Rabenseifner's gamma; the simulator's three
// passes over the buffer at the local memory bandwidth L):
//   all-reduce, reduce-scatter               3(N-1)/N / L;  all-gather, all-to-all  0.
// Alpha is the fixed cost, which the model does not predict: it is fitted to a measured run
// (the smallest, where it dominates). Multi-dimensional and graph platforms have no single
// bandwidth term here and give nullopt.

#include "spec/SimulationSpec.h"

#include <optional>
#include <utility>
#include <vector>

namespace astrolabe {

/// The microbenchmark's size and the model's seconds per byte of it (links plus reductions);
/// nullopt when the spec is not a microbenchmark on a one-dimension, non-graph platform.
struct AlphaBetaTerm {
    double sizeBytes = 0;
    double secondsPerByte = 0;          ///< linkSecondsPerByte + reductionSecondsPerByte
    double linkSecondsPerByte = 0;      ///< beta'
    double reductionSecondsPerByte = 0; ///< gamma'; 0 without reductions (or without L)
};
std::optional<AlphaBetaTerm> alphaBetaTerm(const SimulationSpec& spec);

/// The fitted model: the line time = alphaSeconds + bytes x secondsPerByte through the run at
/// (fitBytes, fitSeconds).
struct AlphaBetaModel {
    double alphaSeconds = 0;
    double secondsPerByte = 0;
    double reductionSecondsPerByte = 0; ///< the part of secondsPerByte that is gamma'
    double seconds(double bytes) const { return alphaSeconds + bytes * secondsPerByte; }
    static AlphaBetaModel fittedAt(double fitBytes, double fitSeconds, const AlphaBetaTerm& term) {
        return {fitSeconds - fitBytes * term.secondsPerByte, term.secondsPerByte,
                term.reductionSecondsPerByte};
    }
};

/// `count` sizes from `from` to `to` bytes, evenly spaced on a log scale (both ends included).
std::vector<double> logSpacedSizes(double from, double to, int count);

} // namespace astrolabe
