#pragma once
// Checks that need several files at once (a system list against the network's dimensions,
// communicator groups against the NPU count, trace files against the NPU count). Each file is
// already valid on its own when these run.

#include "config/SimulationSpec.h"
#include "core/Error.h"

#include <vector>

namespace astrolabe {

/// How the keys of a spec were spelled, so messages name the key the user wrote.
enum class SpecKeyStyle : uint8_t { AstraFiles, Project };

/// The problems found (empty when consistent). Does not throw.
std::vector<Error> crossCheckSpec(const SimulationSpec& spec, SpecKeyStyle style);

} // namespace astrolabe
