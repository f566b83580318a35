#pragma once
// ASTRA-sim 2.x analytical network YAML (spec §4.1): four equal-length lists, one entry per
// dimension.
//
//   topology:   [ Ring, Switch ]   # Ring | FullyConnected | Switch
//   npus_count: [ 4, 2 ]           # > 1 each
//   bandwidth:  [ 100.0, 50.0 ]    # GB/s with GB = 2^30 bytes (ASTRA-sim's convention), > 0
//   latency:    [ 500.0, 1000.0 ]  # ns, >= 0
//
// Bandwidth is converted exactly: bandwidthBytesPerSecond = value * 1073741824.0.

#include "spec/PlatformSpec.h"

#include <string>
#include <vector>

namespace astrolabe {

/// Reads a network YAML. Throws ErrorList with every problem of the file (file:line:col:
/// key[index]: ...). Unknown keys are ignored by ASTRA-sim, so they become warnings appended to
/// `warnings` when it is not null.
PlatformSpec loadAstraNetworkYaml(const std::string& path,
                                  std::vector<std::string>* warnings = nullptr);
/// Same, from text; `fileName` is used in messages and recorded as sourceFile.
PlatformSpec parseAstraNetworkYaml(const std::string& text, const std::string& fileName,
                                   std::vector<std::string>* warnings = nullptr);

/// The platform as ASTRA-sim network YAML (flow lists, bandwidth in 2^30 B/s units, latency
/// in ns), reading back to the same values exactly.
std::string writeAstraNetworkYaml(const PlatformSpec& platform);

} // namespace astrolabe
