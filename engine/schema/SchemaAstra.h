#pragma once
// For astra/ and the schema: ASTRA-sim's system JSON read and written from the schema.

#include "schema/Setting.h"

namespace astrolabe::settings {

/// Every key ASTRA-sim's system JSON may hold (for the unknown-key warning).
std::vector<std::string> astraJsonKeys(const Group& group);
/// Reads the group's JSON settings (not the command-line flags) into `system`.
void readAstraGroup(AstraReadContext& context, const Group& group, SystemConfig& system);
/// The group's JSON settings in astraOrder.
void writeAstraGroup(const Group& group, const SystemConfig& system, nlohmann::ordered_json& out,
                     const std::string& perNodeCustomFile);
/// A group kept in a JSON file of its own (the remote memory): its settings in astraOrder, all
/// plain (no writeAstra hooks).
void writeAstraFile(const Group& group, const SimulationSpec& spec, nlohmann::ordered_json& out);

} // namespace astrolabe::settings
