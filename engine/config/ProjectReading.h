#pragma once
// Internal to config/: the pieces of the project reader, split by section.

#include "config/ProjectValues.h"

#include <string>
#include <vector>

namespace astrolabe::config {

struct ProjectContext {
    Diagnostics& diagnostics;
    std::string directory; ///< the project file's folder, absolute
    std::vector<std::string>* warnings;

    /// Absolute and normalised; relative paths are taken from the project's folder.
    std::string resolve(const std::string& path) const;
    /// Runs a loader of another file, moving its errors (already located) into diagnostics.
    template <typename Load> bool absorb(Load load) {
        try {
            load();
            return true;
        } catch (const ErrorList& list) {
            for (const Error& e : list.errors())
                diagnostics.relocate(e, e.where());
        } catch (const Error& e) {
            diagnostics.relocate(e, e.where());
        }
        return false;
    }
};

/// The `system:` section (or its `astra-system:` reference) into spec.system and the system-level
/// run options (num-queues-per-dim, injection-scale, rendezvous).
void readProjectSystem(ProjectContext& context, const YAML::Node& node, SimulationSpec& spec);

/// The `platform.graph` section (docs/graph-platforms.md) into platform.graph and its logical
/// dimensions; errors name the link's line and key.
void readGraphPlatform(ProjectContext& context, const YAML::Node& node, PlatformSpec& platform);

} // namespace astrolabe::config
