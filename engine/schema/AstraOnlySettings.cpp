// Keys of ASTRA-sim's system JSON that Astrolabe checks but does not use: the LogGP shared-bus
// model's parameters and 1.0's boost mode. They have no project key and are never exported.
#include "schema/SystemSchema.h"
#include "yaml/AstraJsonObject.h"

namespace astrolabe::settings {
namespace {

Setting astraOnly(const std::string& key, const std::string& help,
                  std::function<void(AstraReadContext&, SystemConfig&)> read) {
    Setting s;
    s.type = Type::Custom;
    s.compat = Compat::AstraOnly;
    s.astraKey = key;
    s.astraOrder = 40;
    s.label = key;
    s.help = help;
    s.hooks.readAstra = std::move(read);
    return s;
}

} // namespace

std::vector<Setting> astraOnlySettings() {
    std::vector<Setting> out;
    out.push_back(astraOnly(
        "model-shared-bus", "ASTRA-sim's LogGP shared-bus model; only 0 is accepted.",
        [](AstraReadContext& c, SystemConfig&) {
            bool on = false;
            if (c.json.flag("model-shared-bus", on) && on)
                c.json.error("model-shared-bus",
                             "the LogGP shared-bus model is not supported by Astrolabe",
                             "set \"model-shared-bus\": 0; the fixed endpoint-delay model is used "
                             "instead",
                             ErrorKind::Unsupported);
        }));
    for (const char* key : {"L", "o", "g", "G", "local-reduction-delay"})
        out.push_back(astraOnly(key, "A LogGP shared-bus parameter: type-checked, not used.",
                                [key = std::string(key)](AstraReadContext& c, SystemConfig&) {
                                    double value = 0;
                                    c.json.number(key, value);
                                }));
    out.push_back(astraOnly(
        "boost-mode", "ASTRA-sim 1.0's boost mode: ignored with a warning.",
        [](AstraReadContext& c, SystemConfig&) {
            bool on = false;
            if (c.json.flag("boost-mode", on) && on)
                c.json.diagnostics().warning(
                    c.json.where("boost-mode"),
                    "ignored: boost mode (simulate only NPU 0's peers) existed only in ASTRA-sim "
                    "1.0; every NPU is simulated");
        }));
    return out;
}

} // namespace astrolabe::settings
