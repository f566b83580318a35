// The project file's side of the schema: one reader and one writer for every plain setting.
#include "schema/SchemaProject.h"

#include <ostream>

namespace astrolabe::settings {
namespace {

using config::Diagnostics;

bool readValue(Diagnostics& d, const YAML::Node& node, const Setting& s, const std::string& key,
               Value& out) {
    switch (s.type) {
    case Type::Int:
        return take<int64_t>(out, [&](int64_t& n) { return config::readInt(d, node, key, n); });
    case Type::Bool:
        return take<bool>(out, [&](bool& b) { return config::readBool(d, node, key, b); });
    case Type::Enum:
    case Type::String:
        return take<std::string>(
            out, [&](std::string& t) { return config::readString(d, node, key, t); });
    case Type::Double:
    case Type::Quantity: {
        double v = 0;
        bool ok = false;
        switch (s.unit) {
        case Unit::Nanoseconds: {
            SimTime t;
            ok = config::readTime(d, node, key, t);
            v = static_cast<double>(t.ps()) / 1e3;
            break;
        }
        case Unit::BytesPerSecond:
            ok = config::readBandwidth(d, node, key, v);
            break;
        case Unit::DecimalGBps:
            ok = config::readBandwidth(d, node, key, v);
            v /= 1e9;
            break;
        case Unit::Bytes: {
            uint64_t bytes = 0;
            ok = config::readSize(d, node, key, bytes);
            v = static_cast<double>(bytes);
            break;
        }
        case Unit::TeraFlops:
            ok = config::readFlopRate(d, node, key, v);
            break;
        case Unit::None:
            ok = config::readDouble(d, node, key, v);
            break;
        }
        out = v;
        return ok;
    }
    case Type::Custom:
        break;
    }
    return false;
}

} // namespace

std::vector<std::string> projectKeys(const Group& group) {
    std::vector<std::string> keys;
    for (const Setting& s : group.settings)
        if (!s.path.empty())
            keys.push_back(s.projectKey());
    return keys;
}

void readProjectGroup(config::ProjectContext& c, const YAML::Node& node, const Group& group,
                      SimulationSpec& spec, const std::function<bool(const Setting&)>& only,
                      const std::string& at) {
    Diagnostics& d = c.diagnostics;
    for (const Setting& s : group.settings) {
        if (s.path.empty() || (only && !only(s)))
            continue;
        const std::string key = at.empty() ? s.path : config::joinKey(at, s.projectKey());
        const YAML::Node value = node[s.projectKey()];
        if (!value.IsDefined()) {
            if (s.missing.level == Missing::Level::Error)
                d.error(config::locate(d, node, key), s.missing.message, s.missing.projectHint);
            continue;
        }
        if (s.hooks.readProject) {
            s.hooks.readProject(c, value, spec);
            continue;
        }
        Value v;
        if (!readValue(d, value, s, key, v))
            continue;
        if (const std::string problem = rangeError(s, v, false); !problem.empty()) {
            d.error(config::locate(d, value, key), problem);
            continue;
        }
        try {
            s.set(spec, v);
        } catch (const Error& e) {
            d.relocate(e, config::locate(d, value, key));
        }
    }
    for (const Setting& s : group.settings)
        if (s.hooks.afterProjectRead && !s.path.empty() && (!only || only(s)))
            s.hooks.afterProjectRead(c, node, spec);
}

std::string projectFlowMap(const Group& group, const SimulationSpec& spec) {
    std::string out = "{";
    for (const Setting& s : group.settings) {
        if (out.size() > 1)
            out += ", ";
        out.append(s.projectKey()).append(": ").append(projectText(s, s.get(spec)));
    }
    return out + "}";
}

void writeProjectGroup(std::ostream& out, const Group& group, const SimulationSpec& spec,
                       const std::function<std::string(const std::string&)>& relative) {
    for (const Setting& s : group.settings) {
        if (s.path.empty())
            continue;
        if (s.writeProjectWhen && !s.writeProjectWhen(spec))
            continue;
        if (s.hooks.writeProject) {
            s.hooks.writeProject(out, spec, relative);
            continue;
        }
        out << "  " << s.projectKey() << ": " << projectText(s, s.get(spec)) << "\n";
    }
}

} // namespace astrolabe::settings
