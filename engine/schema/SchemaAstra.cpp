// ASTRA-sim's side of the schema. Its system JSON is flat: numbers in the setting's own unit
// (GB/s decimal, cycles = ns, TFLOP/s), on/off switches as 0/1, names as text.
#include "schema/SchemaAstra.h"

#include "yaml/AstraJsonObject.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace astrolabe::settings {
namespace {

bool inJson(const Setting& s) {
    return s.compat != Compat::CommandLine && s.compat != Compat::ProjectOnly &&
           !s.astraKey.empty();
}

bool readValue(config::AstraJsonObject& r, const Setting& s, Value& out) {
    const std::string& key = s.astraKey;
    switch (s.type) {
    case Type::Int:
        return take<int64_t>(out, [&](int64_t& n) { return r.integer(key, n); });
    case Type::Bool:
        return take<bool>(out, [&](bool& b) { return r.flag(key, b); });
    case Type::Enum:
    case Type::String:
        return take<std::string>(out, [&](std::string& t) { return r.text(key, t); });
    case Type::Double:
    case Type::Quantity:
        return take<double>(out, [&](double& v) { return r.number(key, v); });
    case Type::Custom:
        break;
    }
    return false;
}

// Integral values as JSON integers, so ASTRA-sim's integer reads see what they expect.
nlohmann::ordered_json number(double value) {
    if (value == static_cast<double>(static_cast<int64_t>(value)))
        return static_cast<int64_t>(value);
    return value;
}

} // namespace

std::vector<std::string> astraJsonKeys(const Group& group) {
    std::vector<std::string> keys;
    for (const Setting& s : group.settings) {
        if (!inJson(s))
            continue;
        if (s.astraKeys.empty())
            keys.push_back(s.astraKey);
        else
            keys.insert(keys.end(), s.astraKeys.begin(), s.astraKeys.end());
    }
    return keys;
}

void readAstraGroup(AstraReadContext& c, const Group& group, SystemConfig& system) {
    config::AstraJsonObject& r = c.json;
    SimulationSpec spec;
    spec.system = std::move(system);
    for (const Setting& s : group.settings) {
        if (!inJson(s))
            continue;
        if (s.hooks.readAstra) {
            s.hooks.readAstra(c, spec.system);
            continue;
        }
        if (!r.has(s.astraKey)) {
            if (s.missing.level == Missing::Level::Error)
                r.error(s.astraKey, s.missing.message, s.missing.astraHint);
            else if (s.missing.level == Missing::Level::Warning)
                r.diagnostics().warning(r.where(s.astraKey), s.missing.message,
                                        s.missing.astraHint);
            continue;
        }
        Value v;
        if (!readValue(r, s, v))
            continue;
        if (const std::string problem = rangeError(s, v, true); !problem.empty()) {
            r.error(s.astraKey, problem);
            continue;
        }
        try {
            s.set(spec, v);
        } catch (const Error& e) {
            r.diagnostics().relocate(e, r.where(s.astraKey));
        }
    }
    for (const Setting& s : group.settings)
        if (inJson(s) && s.hooks.afterAstraRead)
            s.hooks.afterAstraRead(c, spec.system);
    system = std::move(spec.system);
}

nlohmann::ordered_json astraValue(const Setting& s, const Value& v) {
    if (const auto* b = std::get_if<bool>(&v))
        return *b ? 1 : 0;
    if (const auto* d = std::get_if<double>(&v))
        return s.whole && *d >= 0 ? nlohmann::ordered_json(static_cast<uint64_t>(*d)) : number(*d);
    if (const auto* i = std::get_if<int64_t>(&v))
        return *i;
    const std::string& text = std::get<std::string>(v);
    if (!s.astraChoices.empty()) {
        const auto at = std::find(s.choices.begin(), s.choices.end(), text);
        if (at != s.choices.end())
            return s.astraChoices.at(static_cast<size_t>(at - s.choices.begin()));
    }
    return text;
}

namespace {

// The group's settings ASTRA-sim's JSON holds, in its order.
std::vector<const Setting*> exported(const Group& group) {
    std::vector<const Setting*> ordered;
    for (const Setting& s : group.settings)
        if (inJson(s) && s.compat != Compat::AstraOnly)
            ordered.push_back(&s);
    std::stable_sort(ordered.begin(), ordered.end(), [](const Setting* a, const Setting* b) {
        return a->astraOrder < b->astraOrder;
    });
    return ordered;
}

} // namespace

void writeAstraGroup(const Group& group, const SystemConfig& system, nlohmann::ordered_json& out,
                     const std::string& perNodeCustomFile) {
    SimulationSpec spec;
    spec.system = system;
    for (const Setting* s : exported(group)) {
        if (s->hooks.writeAstra) {
            s->hooks.writeAstra(system, out, perNodeCustomFile);
            continue;
        }
        if (s->writeAstraWhen && !s->writeAstraWhen(spec))
            continue;
        out[s->astraKey] = astraValue(*s, s->get(spec));
    }
}

void writeAstraFile(const Group& group, const SimulationSpec& spec, nlohmann::ordered_json& out) {
    for (const Setting* s : exported(group))
        if (!s->writeAstraWhen || s->writeAstraWhen(spec))
            out[s->astraKey] = astraValue(*s, s->get(spec));
}

} // namespace astrolabe::settings
