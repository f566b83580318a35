#include "astra/AstraExport.h"

#include "astra/AstraMemoryConfig.h"
#include "astra/AstraSystemConfig.h"
#include "schema/SchemaAstra.h"

#include <nlohmann/json.hpp>

namespace astrolabe {
using nlohmann::ordered_json;

std::string writeAstraSystemJson(const SystemConfig& s, const std::string& perNodeCustomFile) {
    ordered_json j = ordered_json::object();
    settings::writeAstraGroup(settings::systemGroup(), s, j, perNodeCustomFile);
    return j.dump(4, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string writePerNodeCustomYaml(const SystemConfig& system) {
    std::string out;
    for (const auto& [id, prefix] : system.perNodeCustom)
        out += std::to_string(id) + ": " +
               ordered_json(prefix).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
               "\n";
    return out.empty() ? "{}\n" : out;
}

std::string writeAstraRemoteMemoryJson(const RemoteMemoryConfig& m) {
    SimulationSpec spec;
    spec.memory = m;
    ordered_json j;
    settings::writeAstraFile(settings::memoryGroup(), spec, j);
    return j.dump(4, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string writeCommGroupsJson(const CommGroups& groups) {
    ordered_json j = ordered_json::object();
    for (const auto& [id, ranks] : groups)
        j[std::to_string(id)] = ranks;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace astrolabe
