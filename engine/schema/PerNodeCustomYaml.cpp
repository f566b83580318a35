#include "schema/PerNodeCustomYaml.h"

#include "spec/Diagnostics.h"
#include "yaml/YamlSupport.h"

#include <algorithm>

namespace astrolabe {

using config::Diagnostics;

std::vector<std::pair<uint64_t, std::string>> loadPerNodeCustomYaml(const std::string& path) {
    Diagnostics diagnostics(path);
    const YAML::Node root = config::loadYamlFile(path);
    std::vector<std::pair<uint64_t, std::string>> entries;
    if (!root.IsMap()) {
        diagnostics.error(diagnostics.at(1, 1, {}),
                          "expected a map <workload node id>: <custom ET prefix>, found " +
                              config::describe(root));
        diagnostics.throwIfErrors();
    }
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
        uint64_t id = 0;
        try {
            id = it->first.as<uint64_t>();
        } catch (const YAML::BadConversion&) {
            diagnostics.error(config::locate(diagnostics, it->first, key),
                              "expected a workload node id (a whole number), found " +
                                  config::describe(it->first));
            continue;
        }
        std::string prefix;
        if (config::readString(diagnostics, it->second, key, prefix))
            entries.emplace_back(id, prefix);
    }
    diagnostics.throwIfErrors();
    std::sort(entries.begin(), entries.end());
    return entries;
}

} // namespace astrolabe
