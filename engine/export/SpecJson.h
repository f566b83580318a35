#pragma once
// The normalized configuration of a run as JSON: every field of SimulationSpec, enums as their
// registry names. Stored with each run (provenance) and embedded in the JSON export, so two runs
// can be diffed field by field. Source file paths are kept; contents are hashed by the store.

#include "spec/SimulationSpec.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace astrolabe {

nlohmann::json toJson(const SimulationSpec& spec);
/// toJson(spec) dumped with sorted keys and no whitespace: a stable text to hash and store.
std::string specToJsonText(const SimulationSpec& spec);

/// The inverse, for a run read back from the project database: the settings, platform
/// dimensions, communicator groups and workload source of toJson(). Keys of another version that
/// it does not know, or cannot read, keep SimulationSpec's defaults (never throws).
SimulationSpec specFromJson(const nlohmann::json& json);
SimulationSpec specFromJsonText(const std::string& text);

} // namespace astrolabe
