#pragma once
// The normalized configuration of a run as JSON: every field of SimulationSpec, enums as their
// registry names. Stored with each run (provenance) and embedded in the JSON export, so two runs
// can be diffed field by field. Source file paths are kept; contents are hashed by the store.

#include "config/SimulationSpec.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace astrolabe {

nlohmann::json toJson(const SimulationSpec& spec);
/// toJson(spec) dumped with sorted keys and no whitespace: a stable text to hash and store.
std::string specToJsonText(const SimulationSpec& spec);

} // namespace astrolabe
