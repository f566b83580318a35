#include "export/SpecJson.h"

#include "astra/AstraMemoryConfig.h"
#include "astra/AstraSystemConfig.h"
#include "schema/Setting.h"

#include <nlohmann/json.hpp>

namespace astrolabe {
using nlohmann::json;

namespace {

// A graph platform whole, so a stored run shows the platform it ran on: devices, every link as
// [from, to, bandwidth B/s, latency ns, bidirectional], the editor's positions as [x, y] and the
// schema's graph settings (routing).
json graphToJson(const SimulationSpec& spec) {
    const GraphSpec& g = *spec.platform.graph;
    json links = json::array();
    for (const GraphLinkSpec& l : g.links)
        links.push_back(
            json::array({l.from, l.to, l.bandwidthBytesPerSecond, l.latencyNs, l.bidirectional}));
    json positions = json::array();
    for (const GraphPoint& p : g.positions)
        positions.push_back(json::array({p.x, p.y}));
    json settings;
    settings::addSpecJson(settings::graphGroup(), spec, settings);
    json out = std::move(settings["graph"]);
    out["npus"] = g.npus;
    out["switches"] = g.switches;
    out["generator"] = g.generator;
    out["links"] = std::move(links);
    out["positions"] = std::move(positions);
    return out;
}

// The graph written by graphToJson. A link or position of another shape throws before the spec
// gets a graph: a part of a graph would mislead every view that draws or routes on it.
void graphFromJson(const json& j, SimulationSpec& spec) {
    GraphSpec g;
    g.npus = j.value("npus", 0);
    g.switches = j.value("switches", 0);
    g.generator = j.value("generator", std::string());
    for (const json& l : j.value("links", json::array()))
        g.links.push_back(GraphLinkSpec{l.at(0).get<int32_t>(), l.at(1).get<int32_t>(),
                                        l.at(2).get<double>(), l.at(3).get<double>(),
                                        l.at(4).get<bool>(), 0});
    for (const json& p : j.value("positions", json::array()))
        g.positions.push_back(GraphPoint{p.at(0).get<double>(), p.at(1).get<double>()});
    // A stored graph may lack its links (an older database kept only the routing) or hold
    // anything (edited by hand): no graph rather than one the views cannot draw or route
    // (graphProblems checks the counts, the limits and every link).
    if (!graphProblems(g).empty())
        return;
    spec.platform.graph = std::move(g);
    settings::readSpecJson(settings::graphGroup(), json{{"graph", j}}, spec);
}

} // namespace

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
    if (spec.platform.graph)
        out["platform"]["graph"] = graphToJson(spec);
    // The system, run and memory groups' settings (under "system", "options" and "memory") come
    // from the schema; the dimension group's, per dimension above.
    for (const settings::Group* group : settings::allGroups())
        if (!group->perItem && (group != &settings::servingGroup() || spec.serving.enabled))
            settings::addSpecJson(*group, spec, out);
    return out;
}

namespace {
template <typename T> void readIf(const json& j, const char* key, T& out) {
    if (const auto it = j.find(key); it != j.end() && !it->is_null())
        out = it->get<T>();
}
} // namespace

SimulationSpec specFromJson(const json& j) {
    SimulationSpec spec;
    if (!j.is_object())
        return spec;
    try {
        readIf(j, "name", spec.name);
        readIf(j, "sourceFile", spec.sourceFile);
        if (const auto p = j.find("platform"); p != j.end() && p->is_object()) {
            readIf(*p, "sourceFile", spec.platform.sourceFile);
            for (const json& d : p->value("dimensions", json::array())) {
                SimulationSpec view = settings::dimensionView(DimensionSpec{});
                settings::readSpecJson(settings::dimensionGroup(), json{{"dimension", d}}, view);
                spec.platform.dimensions.push_back(view.platform.dimensions.front());
            }
            if (const auto g = p->find("graph"); g != p->end() && g->is_object())
                graphFromJson(*g, spec);
        }
        if (const auto s = j.find("system"); s != j.end() && s->is_object())
            readIf(*s, "sourceFile", spec.system.sourceFile);
        if (const auto m = j.find("memory"); m != j.end() && m->is_object())
            readIf(*m, "sourceFile", spec.memory.sourceFile);
        if (const auto g = j.find("commGroups"); g != j.end() && g->is_object())
            for (const auto& [id, ranks] : g->items())
                spec.commGroups[std::stoi(id)] = ranks.get<std::vector<int>>();
        if (const auto w = j.find("workload"); w != j.end() && w->is_object()) {
            spec.workload.kind = w->value("kind", std::string()) == "microbenchmark"
                                     ? WorkloadSource::Kind::Microbenchmark
                                     : WorkloadSource::Kind::ChakraTrace;
            readIf(*w, "tracePrefix", spec.workload.tracePrefix);
            if (const auto m = w->find("microbenchmark"); m != w->end() && m->is_object()) {
                readIf(*m, "collective", spec.workload.microbenchmark.collective);
                readIf(*m, "sizeBytes", spec.workload.microbenchmark.sizeBytes);
                readIf(*m, "commGroup", spec.workload.microbenchmark.commGroup);
            }
        }
    } catch (const std::exception&) {
        // A configuration from another version: what was read before the odd field stays.
    }
    for (const settings::Group* group : settings::allGroups())
        if (!group->perItem)
            settings::readSpecJson(*group, j, spec);
    return spec;
}

SimulationSpec specFromJsonText(const std::string& text) {
    return specFromJson(json::parse(text, nullptr, false));
}

std::string specToJsonText(const SimulationSpec& spec) {
    // nlohmann::json objects are std::map-backed: keys come out sorted, so the text is stable.
    return toJson(spec).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace astrolabe
