#pragma once
// The per-dimension algorithm lists of a SystemConfig kept in step with the platform they run
// on. A list names one algorithm per network dimension, first dimension first; a platform edit
// (a dimension dragged in, removed, moved) would otherwise leave a new dimension without an
// algorithm, so no collective would run on it, or make a list longer than the platform.

#include "spec/PlatformSpec.h"
#include "spec/SystemConfig.h"

namespace astrolabe {

/// The algorithm a block runs by itself: ring on a Ring, direct on a FullyConnected, and on a
/// Switch halvingDoubling (ASTRA-sim's Switch examples) when its size is a power of two, direct
/// otherwise and for all-to-all (halving-doubling has no all-to-all).
AlgorithmSpec naturalAlgorithm(const DimensionSpec& dimension, CollectiveKind kind);

/// Whether the list holds a "one*" algorithm, which spans every dimension from its own on.
bool spansRemainingDimensions(const std::vector<AlgorithmSpec>& list);

/// Rewrites the four algorithm lists of `system` for a platform edited from `before` to `after`.
/// The dimensions of `after` are matched to equal ones of `before` (first unused match), so an
/// inserted dimension is one without a match, a removed one is left unmatched in `before`, and a
/// moved one keeps its algorithm. Then, for each list:
///   - a list that named every dimension of `before` names every dimension of `after`: the
///     algorithm of a matched dimension stays, an inserted one gets naturalAlgorithm();
///   - a shorter list (dimensions left out on purpose) keeps its matched entries up to the first
///     dimension it left out, and gets naturalAlgorithm() only for dimensions inserted before
///     that point;
///   - with the same number of dimensions but not all matched (a dimension's size, kind,
///     bandwidth or latency edited), and for lists with a one* algorithm, the entries stay where
///     they are, cut to the new dimension count.
/// O(d^2) for d dimensions (a handful).
void followPlatformEdit(SystemConfig& system, const PlatformSpec& before,
                        const PlatformSpec& after);

} // namespace astrolabe
