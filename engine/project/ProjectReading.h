#pragma once
// Internal to project/: the pieces of the project reader, split by section.

#include "yaml/ProjectContext.h"

#include <string>
#include <vector>

namespace astrolabe::config {

/// The `system:` section (or its `astra-system:` reference) into spec.system and the system-level
/// run options (num-queues-per-dim, injection-scale, rendezvous).
void readProjectSystem(ProjectContext& context, const YAML::Node& node, SimulationSpec& spec);

/// The `platform.graph` section (docs/graph-platforms.md) into platform.graph and its logical
/// dimensions; errors name the link's line and key.
void readGraphPlatform(ProjectContext& context, const YAML::Node& node, PlatformSpec& platform);

} // namespace astrolabe::config
