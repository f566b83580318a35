#pragma once
// ASTRA-sim analytical network YAML from a platform (the editor's "Copy as ASTRA-sim YAML").
//
//   topology:   [ Ring, Switch ]
//   npus_count: [ 8, 4 ]
//   bandwidth:  [ 400, 50 ]   # GB/s, ASTRA-sim's GB = 2^30 B: bandwidthBytesPerSecond / 2^30
//   latency:    [ 936.25, 500 ]  # ns
//
// Numbers are written in their shortest exact decimal form, so a platform read from an ASTRA-sim
// file is written back unchanged (engine/astra's writeAstraNetworkYaml does the writing).
#include "spec/PlatformSpec.h"

#include <string>

namespace astrolabe::widgets {

/// Throws astrolabe::Error (Validation) naming every problem when the platform is not valid
/// (no dimension, size < 2, bandwidth <= 0, latency < 0): an invalid file is never written.
std::string astraNetworkYaml(const PlatformSpec& platform);

} // namespace astrolabe::widgets
