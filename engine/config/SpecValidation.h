#pragma once
// Checks that need several files at once (a system list against the network's dimensions,
// communicator groups against the NPU count, trace files against the NPU count). Each file is
// already valid on its own when these run. The limits on sizes are checked here too, first.

#include "config/SimulationSpec.h"
#include "core/Error.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace astrolabe {

/// Limits far above any real use; docs/limits.md says why each is where it is.
inline constexpr size_t kMaxDimensions = 16;
inline constexpr uint64_t kMaxNpus = uint64_t{1} << 20;
inline constexpr int kMaxChunksPerCollective = 16384;
inline constexpr int kMaxQueuesPerDimension = 1024;
/// Endpoint delay after the injection scale: one second, in ns.
inline constexpr double kMaxEndpointDelayNs = 1e9;

/// How the keys of a spec were spelled, so messages name the key the user wrote.
enum class SpecKeyStyle : uint8_t { AstraFiles, Project };

/// The problems found (empty when consistent). Does not throw.
std::vector<Error> crossCheckSpec(const SimulationSpec& spec, SpecKeyStyle style);

} // namespace astrolabe
