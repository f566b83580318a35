#pragma once
// The file `per-node-custom-implementation` names (ASTRA-sim's system JSON and the project's
// collectives section): which workload nodes run which custom collective.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

/// Reads a per-node custom collective YAML: `<workload node id>: <custom ET prefix>`.
/// Sorted by node id. Throws ErrorList on non-integer keys or non-text values.
std::vector<std::pair<uint64_t, std::string>> loadPerNodeCustomYaml(const std::string& path);

} // namespace astrolabe
