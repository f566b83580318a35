#include "config/AstraSystemConfig.h"

#include "config/AstraJsonObject.h"
#include "config/JsonSupport.h"
#include "config/SpecValidation.h"
#include "config/YamlSupport.h"
#include "config/schema/SchemaAstra.h"
#include "core/InputFile.h"

#include <algorithm>

namespace astrolabe {
namespace {

using config::Diagnostics;

} // namespace

SystemConfig parseAstraSystemJson(const std::string& text, const std::string& fileName,
                                  double injectionScale, std::vector<std::string>* warnings) {
    Diagnostics diagnostics(fileName);
    const config::JsonDocument doc = config::parseJsonText(text, fileName);
    if (!doc.value.is_object()) {
        diagnostics.error(diagnostics.at(1, 1, {}),
                          "expected a JSON object of system settings, found " +
                              config::describeJson(doc.value));
        diagnostics.throwIfErrors();
    }
    config::AstraJsonObject r(diagnostics, doc);
    const settings::Group& group = settings::systemGroup();
    const std::vector<std::string> keys = settings::astraJsonKeys(group);
    for (const auto& [key, unused] : doc.value.items()) {
        (void)unused;
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            std::string hint = config::didYouMean(key, keys);
            diagnostics.warning(r.where(key), "unknown key, ignored (as ASTRA-sim 2.x does)", hint);
        }
    }

    SystemConfig system;
    system.sourceFile = fileName;
    settings::AstraReadContext context{r, injectionScale, fileName};
    settings::readAstraGroup(context, group, system);

    diagnostics.throwIfErrors();
    diagnostics.moveWarningsTo(warnings);
    return system;
}

SystemConfig loadAstraSystemJson(const std::string& path, double injectionScale,
                                 std::vector<std::string>* warnings) {
    return parseAstraSystemJson(readInputFile(path, "the system configuration"), path,
                                injectionScale, warnings);
}

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
