// The system group's settings whose meaning needs code: the per-dimension algorithm lists, the
// custom collective ET prefixes and the per-node custom collectives. Each is one Custom entry of
// the schema with the code of every place (project file, ASTRA-sim JSON, spec JSON, comparison)
// next to it; the window's text fields for the lists are in widgets/config/SettingPresentation.cpp.
#include "schema/PerNodeCustomYaml.h"
#include "schema/SystemSchema.h"
#include "spec/SystemNames.h"
#include "yaml/AstraJsonObject.h"
#include "yaml/ProjectContext.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>

namespace astrolabe::settings {
namespace {

namespace fs = std::filesystem;
using config::Diagnostics;
using nlohmann::json;
using nlohmann::ordered_json;

/// One collective's keys (names from core/Collectives.h) and the spec fields they fill.
struct Collective {
    const char* name; ///< "all-reduce": project key, comparison key, ASTRA-sim key prefix
    const char* label;
    const char* specJsonList;   ///< "allReduce"
    std::string specJsonCustom; ///< "customAllReduce"
    std::vector<AlgorithmSpec> SystemConfig::*list;
    std::string SystemConfig::*custom;
};

Collective collective(CollectiveKind kind, std::vector<AlgorithmSpec> SystemConfig::*list,
                      std::string SystemConfig::*custom) {
    const CollectiveNames& names = namesOf(kind);
    std::string customKey = names.camel;
    customKey.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(customKey[0])));
    return {names.name, names.label, names.camel, "custom" + customKey, list, custom};
}

const std::vector<Collective>& collectives() {
    static const std::vector<Collective> all{
        collective(CollectiveKind::AllReduce, &SystemConfig::allReduce,
                   &SystemConfig::customAllReduce),
        collective(CollectiveKind::ReduceScatter, &SystemConfig::reduceScatter,
                   &SystemConfig::customReduceScatter),
        collective(CollectiveKind::AllGather, &SystemConfig::allGather,
                   &SystemConfig::customAllGather),
        collective(CollectiveKind::AllToAll, &SystemConfig::allToAll,
                   &SystemConfig::customAllToAll),
    };
    return all;
}

void readAlgorithmList(Diagnostics& d, const YAML::Node& node, const std::string& path,
                       std::vector<AlgorithmSpec>& out) {
    if (!node.IsSequence()) {
        d.error(config::locate(d, node, path),
                "expected a list of algorithm names (one per dimension), found " +
                    config::describe(node),
                "e.g. [ring, direct]");
        return;
    }
    out.clear();
    for (size_t i = 0; i < node.size(); ++i) {
        AlgorithmSpec spec;
        if (config::readName(d, node[i], path + "[" + std::to_string(i) + "]", spec,
                             parseAlgorithm))
            out.push_back(spec);
    }
}

// `algorithms:` is a map per collective, or one list used for all four.
void readProjectAlgorithms(config::ProjectContext& c, const YAML::Node& node,
                           SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    SystemConfig& system = spec.system;
    const std::string path = "system.algorithms";
    if (node.IsSequence()) {
        readAlgorithmList(d, node, path, system.allReduce);
        system.reduceScatter = system.allGather = system.allToAll = system.allReduce;
        return;
    }
    if (!node.IsMap()) {
        d.error(config::locate(d, node, path),
                "expected a map {all-reduce: [...], ...} or one list for every collective, found " +
                    config::describe(node));
        return;
    }
    config::checkKeys(d, node, path, config::projectCollectiveNames());
    for (const Collective& k : collectives())
        if (node[k.name].IsDefined())
            readAlgorithmList(d, node[k.name], config::joinKey(path, k.name), system.*k.list);
    // An all-to-all has nothing for a switch to combine: inSwitch there is refused when the
    // project is read, not when (and only if) an all-to-all runs. (One list for every
    // collective is ASTRA-sim's shorthand and keeps its run-time check.)
    if (const YAML::Node list = node["all-to-all"]; list.IsDefined() && list.IsSequence())
        for (size_t i = 0; i < list.size() && i < system.allToAll.size(); ++i)
            if (system.allToAll[i].kind == AlgorithmKind::InSwitch)
                d.error(config::locate(d, list[i], path + ".all-to-all[" + std::to_string(i) + "]"),
                        "inSwitch cannot run an all-to-all: a switch has nothing to combine in "
                        "one (every NPU sends different data to every other)",
                        "use direct or ring for all-to-all");
}

void readAstraAlgorithms(AstraReadContext& c, SystemConfig& system) {
    config::AstraJsonObject& r = c.json;
    for (const Collective& k : collectives()) {
        const std::string key = std::string(k.name) + "-implementation";
        if (!r.has(key))
            continue;
        const json& v = r.value(key);
        if (v.is_string()) {
            // ASTRA-sim 1.0 wrote "ring_doubleBinaryTree"; 2.x wants a list.
            std::string list;
            const std::string old = v.get<std::string>();
            for (size_t from = 0; from <= old.size();) {
                const size_t to = std::min(old.find('_', from), old.size());
                list += (list.empty() ? "\"" : ", \"") + old.substr(from, to - from) + "\"";
                from = to + 1;
            }
            r.error(key,
                    "expected a list of algorithm names (one per dimension), found " +
                        config::describeJson(v),
                    "write [" + list + "]");
            continue;
        }
        if (!v.is_array()) {
            r.error(key, "expected a list of algorithm names (one per dimension), found " +
                             config::describeJson(v));
            continue;
        }
        for (size_t i = 0; i < v.size(); ++i) {
            const std::string path = key + "[" + std::to_string(i) + "]";
            if (!v[i].is_string()) {
                r.diagnostics().error(r.where(key, path), "expected an algorithm name, found " +
                                                              config::describeJson(v[i]));
                continue;
            }
            try {
                (system.*k.list).push_back(parseAlgorithm(v[i].get<std::string>()));
            } catch (const Error& e) {
                r.diagnostics().relocate(e, r.where(key, path));
            }
        }
    }
}

Setting algorithms() {
    Setting s;
    s.path = "system.algorithms";
    s.type = Type::Custom;
    s.astraKey = "<collective>-implementation";
    s.astraOrder = 10;
    for (const Collective& k : collectives())
        s.astraKeys.push_back(std::string(k.name) + "-implementation");
    s.label = "Collective algorithms";
    s.help =
        "The algorithm used on each network dimension, first dimension first, separated by "
        "commas (e.g. \"ring, direct\"). ring sends around a ring, direct talks to every "
        "peer at once (directN limits it to N peers at a time), halvingDoubling pairs NPUs "
        "at doubling distances, doubleBinaryTree uses two trees (all-reduce only), inSwitch lets a "
        "Switch dimension's switch reduce in the network (each NPU sends its data up once "
        "and gets the result once; not for all-to-all; an Astrolabe extension ASTRA-sim "
        "cannot read). A one* "
        "name (oneRing, oneDirect, oneHalvingDoubling) runs one flat collective over all "
        "NPUs from that dimension on. A shorter list than the number of dimensions leaves "
        "the remaining dimensions out (a run's summary names a dimension left idle). A "
        "dimension added in the topology editor gets its block's algorithm: ring on a Ring, "
        "direct on a FullyConnected, halvingDoubling on a Switch of a power-of-two size "
        "(direct otherwise, and for all-to-all). In the project file: a map {all-reduce: "
        "[ring, direct], ...} or one list for all four collectives.";
    Hooks& h = s.hooks;
    h.readProject = readProjectAlgorithms;
    h.writeProject = [](std::ostream& out, const SimulationSpec& spec, const auto&) {
        out << "  algorithms:\n";
        for (const Collective& k : collectives())
            out << "    " << k.name << ": [" << algorithmNames(spec.system.*k.list, ", ") << "]\n";
    };
    h.readAstra = readAstraAlgorithms;
    h.writeAstra = [](const SystemConfig& system, ordered_json& j, const std::string&) {
        for (const Collective& k : collectives()) {
            if ((system.*k.list).empty())
                continue;
            ordered_json names = ordered_json::array();
            for (const AlgorithmSpec& a : system.*k.list)
                names.push_back(algorithmName(a));
            j[std::string(k.name) + "-implementation"] = names;
        }
    };
    h.specJson = [](const SimulationSpec& spec, json& group) {
        for (const Collective& k : collectives()) {
            json names = json::array();
            for (const AlgorithmSpec& a : spec.system.*k.list)
                names.push_back(algorithmName(a));
            group[k.specJsonList] = names;
        }
    };
    h.fromSpecJson = [](const json& group, SimulationSpec& spec) {
        for (const Collective& k : collectives())
            if (const auto it = group.find(k.specJsonList); it != group.end() && it->is_array()) {
                std::vector<AlgorithmSpec> list;
                for (const json& name : *it)
                    list.push_back(parseAlgorithm(name.get<std::string>()));
                spec.system.*k.list = std::move(list);
            }
    };
    h.compare = [](const SimulationSpec& spec, std::vector<CompareRow>& rows) {
        for (const Collective& k : collectives()) {
            const std::string text = algorithmNames(spec.system.*k.list, ", ");
            rows.push_back({std::string("system.") + k.name, std::string(k.name) + " algorithms",
                            text.empty() ? "-" : text, std::nullopt});
        }
    };
    return s;
}

Setting customAlgorithms() {
    Setting s;
    s.path = "system.custom-algorithms";
    s.type = Type::Custom;
    s.astraKey = "<collective>-implementation-custom";
    s.astraOrder = 11;
    for (const Collective& k : collectives())
        s.astraKeys.push_back(std::string(k.name) + "-implementation-custom");
    s.label = "Custom collectives";
    s.help = "A Chakra ET prefix per collective ({all-reduce: <prefix>, ...}) whose traces "
             "replace the built-in algorithm for every collective of that type.";
    Hooks& h = s.hooks;
    h.readProject = [](config::ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
        const std::string path = "system.custom-algorithms";
        if (!node.IsMap()) {
            c.diagnostics.error(config::locate(c.diagnostics, node, path),
                                "expected a map {all-reduce: <ET prefix>, ...}, found " +
                                    config::describe(node));
            return;
        }
        config::checkKeys(c.diagnostics, node, path, config::projectCollectiveNames());
        for (const Collective& k : collectives()) {
            std::string prefix;
            if (node[k.name].IsDefined() &&
                config::readString(c.diagnostics, node[k.name], config::joinKey(path, k.name),
                                   prefix))
                spec.system.*k.custom = c.resolve(prefix);
        }
    };
    h.writeProject = [](std::ostream& out, const SimulationSpec& spec, const auto& relative) {
        bool any = false;
        for (const Collective& k : collectives())
            any = any || !(spec.system.*k.custom).empty();
        if (!any)
            return;
        out << "  custom-algorithms:\n";
        for (const Collective& k : collectives())
            if (!(spec.system.*k.custom).empty())
                out << "    " << k.name << ": " << relative(spec.system.*k.custom) << "\n";
    };
    h.readAstra = [](AstraReadContext& c, SystemConfig& system) {
        config::AstraJsonObject& r = c.json;
        for (const Collective& k : collectives()) {
            const std::string key = std::string(k.name) + "-implementation-custom";
            if (!r.has(key))
                continue;
            const json& v = r.value(key);
            if (!v.is_array() || v.size() != 1 || !v[0].is_string()) {
                r.error(key,
                        "expected a list with exactly one custom collective ET prefix, found " +
                            (v.is_array() ? std::to_string(v.size()) + " entries"
                                          : config::describeJson(v)),
                        "one prefix applies to every collective of this type; use "
                        "per-node-custom-implementation to vary it per node");
                continue;
            }
            system.*k.custom = v[0].get<std::string>();
            if ((system.*k.custom).empty())
                r.error(key, "expected a custom collective ET prefix, found an empty text");
        }
    };
    h.writeAstra = [](const SystemConfig& system, ordered_json& j, const std::string&) {
        for (const Collective& k : collectives())
            if (!(system.*k.custom).empty())
                j[std::string(k.name) + "-implementation-custom"] =
                    ordered_json::array({system.*k.custom});
    };
    h.specJson = [](const SimulationSpec& spec, json& group) {
        for (const Collective& k : collectives())
            group[k.specJsonCustom] = spec.system.*k.custom;
    };
    h.fromSpecJson = [](const json& group, SimulationSpec& spec) {
        for (const Collective& k : collectives())
            if (const auto it = group.find(k.specJsonCustom); it != group.end() && it->is_string())
                spec.system.*k.custom = it->get<std::string>();
    };
    return s;
}

std::string resolveNextTo(const std::string& path, const std::string& referrer) {
    if (fs::path(path).is_absolute() || fs::exists(path))
        return path;
    const fs::path sibling = fs::path(referrer).parent_path() / path;
    return fs::exists(sibling) ? sibling.lexically_normal().string() : path;
}

void readProjectPerNode(config::ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    const std::string path = "system.per-node-custom";
    Diagnostics& d = c.diagnostics;
    auto& entries = spec.system.perNodeCustom;
    if (node.IsScalar()) { // a per-node YAML file, as ASTRA-sim's JSON references
        c.absorb([&] { entries = loadPerNodeCustomYaml(c.resolve(node.Scalar())); });
        return;
    }
    if (!node.IsMap()) {
        d.error(config::locate(d, node, path),
                "expected a map {<workload node id>: <ET prefix>} or a YAML file, found " +
                    config::describe(node));
        return;
    }
    entries.clear();
    for (auto it = node.begin(); it != node.end(); ++it) {
        const std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
        uint64_t id = 0;
        try {
            id = it->first.as<uint64_t>();
        } catch (const YAML::BadConversion&) {
            d.error(config::locate(d, it->first, config::joinKey(path, key)),
                    "expected a workload node id (a whole number), found " +
                        config::describe(it->first));
            continue;
        }
        std::string prefix;
        if (config::readString(d, it->second, config::joinKey(path, key), prefix))
            entries.emplace_back(id, c.resolve(prefix));
    }
    std::sort(entries.begin(), entries.end());
}

void readAstraPerNode(AstraReadContext& c, SystemConfig& system) {
    config::AstraJsonObject& r = c.json;
    const std::string key = "per-node-custom-implementation";
    std::string path;
    if (!r.text(key, path))
        return;
    const std::string resolved = resolveNextTo(path, c.fileName);
    if (!fs::is_regular_file(resolved)) {
        r.error(key, "file not found: " + path,
                "the path is taken relative to the working directory (as ASTRA-sim does) or "
                "to this JSON's folder");
        return;
    }
    try {
        system.perNodeCustom = loadPerNodeCustomYaml(resolved);
    } catch (const ErrorList& list) {
        for (const Error& e : list.errors())
            r.diagnostics().relocate(e, e.where());
    } catch (const Error& e) {
        r.diagnostics().relocate(e, e.where());
    }
}

Setting perNodeCustom() {
    Setting s;
    s.path = "system.per-node-custom";
    s.type = Type::Custom;
    s.astraKey = "per-node-custom-implementation";
    s.astraOrder = 12;
    s.label = "Per-node custom collectives";
    s.help = "Custom collective ET prefixes per workload node id ({<node id>: <prefix>}), or a "
             "YAML file of them as ASTRA-sim's JSON references.";
    Hooks& h = s.hooks;
    h.readProject = readProjectPerNode;
    h.writeProject = [](std::ostream& out, const SimulationSpec& spec, const auto& relative) {
        if (spec.system.perNodeCustom.empty())
            return;
        out << "  per-node-custom:\n";
        for (const auto& [id, prefix] : spec.system.perNodeCustom)
            out << "    " << id << ": " << relative(prefix) << "\n";
    };
    h.readAstra = readAstraPerNode;
    h.writeAstra = [](const SystemConfig&, ordered_json& j, const std::string& perNodeFile) {
        if (!perNodeFile.empty())
            j["per-node-custom-implementation"] = perNodeFile;
    };
    h.specJson = [](const SimulationSpec& spec, json& group) {
        json perNode = json::array();
        for (const auto& [node, prefix] : spec.system.perNodeCustom)
            perNode.push_back({{"node", node}, {"prefix", prefix}});
        group["perNodeCustom"] = perNode;
    };
    h.fromSpecJson = [](const json& group, SimulationSpec& spec) {
        if (const auto it = group.find("perNodeCustom"); it != group.end() && it->is_array()) {
            spec.system.perNodeCustom.clear();
            for (const json& entry : *it)
                spec.system.perNodeCustom.emplace_back(entry.at("node").get<uint64_t>(),
                                                       entry.at("prefix").get<std::string>());
        }
    };
    return s;
}

} // namespace

std::vector<Setting> collectiveSettings() {
    return {algorithms(), customAlgorithms(), perNodeCustom()};
}

} // namespace astrolabe::settings
