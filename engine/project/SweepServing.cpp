#include "project/SweepServing.h"

#include <algorithm>

namespace astrolabe {

const std::vector<std::string>& servingObjectiveNames() {
    static const std::vector<std::string> names{"goodput-per-gpu", "output-tokens-per-gpu"};
    return names;
}

void readSweepServing(config::Diagnostics& d, const YAML::Node& node, SweepFile& sweep) {
    using namespace config;
    if (!node.IsDefined())
        return;
    SweepServing& serving = sweep.serving;
    serving.where = locate(d, node, "serving");
    if (!node.IsMap()) {
        d.error(serving.where, "expected {objective, rate-search}, found " + describe(node),
                "e.g. serving: {objective: goodput-per-gpu, rate-search: 0.9}");
        return;
    }
    checkKeys(d, node, "serving", {"objective", "rate-search"});
    const std::vector<std::string>& names = servingObjectiveNames();
    if (node["objective"].IsDefined() &&
        readString(d, node["objective"], "serving.objective", serving.objective) &&
        std::find(names.begin(), names.end(), serving.objective) == names.end())
        d.error(locate(d, node["objective"], "serving.objective"),
                "unknown objective \"" + serving.objective + "\"",
                "valid: " + joinAlternatives(names));
    if (node["rate-search"].IsDefined() &&
        readDouble(d, node["rate-search"], "serving.rate-search", serving.rateSearch) &&
        !(serving.rateSearch > 0 && serving.rateSearch <= 1))
        d.error(locate(d, node["rate-search"], "serving.rate-search"),
                "expected the share of requests meeting both SLOs, from 0 to 1 (0.9 for 90%), "
                "found " +
                    node["rate-search"].Scalar());
}

} // namespace astrolabe
