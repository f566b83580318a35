#include "astra/AstraSystemConfig.h"

#include "core/InputFile.h"
#include "schema/SchemaAstra.h"
#include "spec/SpecValidation.h"
#include "yaml/AstraJsonObject.h"
#include "yaml/JsonSupport.h"
#include "yaml/YamlSupport.h"

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

} // namespace astrolabe
