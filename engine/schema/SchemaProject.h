#pragma once
// For project/ and the schema: the project file's reader and writer of a settings group, derived
// from the schema.

#include "schema/Setting.h"
#include "yaml/ProjectContext.h"

#include <functional>
#include <iosfwd>

namespace astrolabe::settings {

/// The keys a group's section accepts (its settings' project keys).
std::vector<std::string> projectKeys(const Group& group);
/// Reads the group's settings present in `node` (a map, already key-checked); `only` limits
/// them (e.g. to the command-line flags next to astra-system). Reports a missing required key.
/// Messages name a setting by its path, or by `at`.key when `at` is given (a list item's path,
/// "platform.dimensions[2]").
void readProjectGroup(config::ProjectContext& context, const YAML::Node& node, const Group& group,
                      SimulationSpec& spec,
                      const std::function<bool(const Setting&)>& only = nullptr,
                      const std::string& at = {});
/// A flow map of the group's settings, "{type: Ring, size: 8, ...}" (a list item's line).
std::string projectFlowMap(const Group& group, const SimulationSpec& spec);
/// Writes "  key: value" lines of the group's settings, in table order.
void writeProjectGroup(std::ostream& out, const Group& group, const SimulationSpec& spec,
                       const std::function<std::string(const std::string&)>& relative);

} // namespace astrolabe::settings
