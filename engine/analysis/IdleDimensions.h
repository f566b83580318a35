#pragma once
// Network dimensions a run left idle because its algorithm lists leave them out: a list names
// one algorithm per dimension, first dimension first, and a shorter one runs its collectives on
// the first dimensions only (a "one*" algorithm spans every dimension from its own on).

#include "record/RunResult.h"
#include "spec/PlatformSpec.h"
#include "spec/SystemConfig.h"

#include <string>

namespace astrolabe {

/// One sentence naming each dimension of `platform` that moved no byte in `result` while a
/// collective type the run ran (all-reduce, reduce-scatter, all-gather, all-to-all, without a
/// custom implementation) has an algorithm list in `system` that stops before it, e.g.
///   "Dimension 1 (Switch, 4 NPUs) moved no data: the all-reduce algorithm list [ring] covers
///   dimension 0 only. Name an algorithm for every dimension to use them all."
/// Empty when there is none, and for a graph platform (its dimensions are logical).
/// O(collective spans + dimensions) time.
std::string idleDimensionsNote(const RunResult& result, const PlatformSpec& platform,
                               const SystemConfig& system);

} // namespace astrolabe
