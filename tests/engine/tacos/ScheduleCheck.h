#pragma once
// An independent check of a synthesized schedule (tacos/Synthesizer.h), replaying it chunk by
// chunk: which contributions each NPU holds of each chunk, counted, so that a contribution
// reduced twice is caught as surely as one missing.

#include "tacos/Synthesizer.h"

#include <string>

namespace astrolabe {

/// The first rule the schedule breaks, "" when none: a link carries one chunk at a time; a send
/// takes the link's latency plus the chunk over its bandwidth; a chunk leaves an NPU only after
/// it arrived there; an all-gather step carries a chunk reduced exactly once from every NPU and
/// never reaches an NPU that has it; at the end every NPU holds what the collective promises,
/// each contribution exactly once; the finish is not below the bandwidth bound.
std::string scheduleProblem(const Schedule& schedule);

} // namespace astrolabe
