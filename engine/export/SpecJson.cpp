#include "export/SpecJson.h"

#include "config/AstraMemoryConfig.h"
#include "config/AstraSystemConfig.h"
#include "config/schema/Setting.h"

#include <nlohmann/json.hpp>

namespace astrolabe {
using nlohmann::json;

json toJson(const SimulationSpec& spec) {
    json dims = json::array();
    for (const DimensionSpec& d : spec.platform.dimensions) {
        json dimension;
        settings::addSpecJson(settings::dimensionGroup(), settings::dimensionView(d), dimension);
        dims.push_back(std::move(dimension["dimension"]));
    }
    json groups = json::object();
    for (const auto& [id, ranks] : spec.commGroups)
        groups[std::to_string(id)] = ranks;
    const WorkloadSource& w = spec.workload;
    json out = {
        {"name", spec.name},
        {"sourceFile", spec.sourceFile},
        {"platform",
         {{"dimensions", dims},
          {"npuCount", spec.platform.npuCount()},
          {"sourceFile", spec.platform.sourceFile}}},
        {"system", {{"sourceFile", spec.system.sourceFile}}},
        {"memory", {{"sourceFile", spec.memory.sourceFile}}},
        {"commGroups", groups},
        {"workload",
         {{"kind", w.kind == WorkloadSource::Kind::ChakraTrace ? "chakra" : "microbenchmark"},
          {"tracePrefix", w.tracePrefix},
          {"microbenchmark",
           {{"collective", w.microbenchmark.collective},
            {"sizeBytes", w.microbenchmark.sizeBytes},
            {"commGroup", w.microbenchmark.commGroup}}}}},
    };
    if (spec.platform.graph) {
        json graph;
        settings::addSpecJson(settings::graphGroup(), spec, graph);
        out["platform"]["graph"] = std::move(graph["graph"]);
    }
    // The system, run and memory groups' settings (under "system", "options" and "memory") come
    // from the schema; the dimension group's, per dimension above.
    for (const settings::Group* group : settings::allGroups())
        if (!group->perItem)
            settings::addSpecJson(*group, spec, out);
    return out;
}

std::string specToJsonText(const SimulationSpec& spec) {
    // nlohmann::json objects are std::map-backed: keys come out sorted, so the text is stable.
    return toJson(spec).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace astrolabe
