// The `system:` section of a project file: inline settings read from the settings schema, or an
// ASTRA-sim system JSON (astra-system) with the command-line flags next to it.
#include "astra/AstraSystemConfig.h"
#include "project/ProjectReading.h"
#include "schema/SchemaProject.h"

#include <algorithm>

namespace astrolabe::config {
namespace {

bool isFlag(const settings::Setting& s) {
    return s.compat == settings::Compat::CommandLine;
}

} // namespace

void readProjectSystem(ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    if (!node.IsMap()) {
        d.error(locate(d, node, "system"),
                "expected a map of system settings (or astra-system: <file.json>), found " +
                    describe(node));
        return;
    }
    const settings::Group& group = settings::systemGroup();
    std::vector<std::string> keys{"astra-system"};
    for (const std::string& key : settings::projectKeys(group))
        keys.push_back(key);
    checkKeys(d, node, "system", keys);
    spec.system.sourceFile = d.file();
    if (!node["astra-system"].IsDefined()) {
        settings::readProjectGroup(c, node, group, spec);
        return;
    }
    for (const settings::Setting& s : group.settings) {
        if (s.path.empty() || isFlag(s) || !node[s.projectKey()].IsDefined())
            continue;
        const YAML::Node key = [&] {
            for (auto it = node.begin(); it != node.end(); ++it)
                if (it->first.Scalar() == s.projectKey())
                    return it->first;
            return node[s.projectKey()];
        }();
        d.error(locate(d, key, s.path),
                "cannot be combined with astra-system (the JSON file sets it)",
                "remove it, or replace astra-system by inline settings");
    }
    settings::readProjectGroup(c, node, group, spec, isFlag);
    std::string file;
    if (readString(d, node["astra-system"], "system.astra-system", file))
        c.absorb([&] {
            spec.system =
                loadAstraSystemJson(c.resolve(file), spec.options.injectionScale, c.warnings);
        });
}

} // namespace astrolabe::config
