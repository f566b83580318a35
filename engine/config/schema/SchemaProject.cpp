// The project file's side of the schema: one reader and one writer for every plain setting.
#include "config/schema/SchemaProject.h"

#include <ostream>

namespace astrolabe::settings {
namespace {

using config::Diagnostics;

bool readValue(Diagnostics& d, const YAML::Node& node, const Setting& s, Value& out) {
    switch (s.type) {
    case Type::Int:
        return take<int64_t>(out, [&](int64_t& n) { return config::readInt(d, node, s.path, n); });
    case Type::Bool:
        return take<bool>(out, [&](bool& b) { return config::readBool(d, node, s.path, b); });
    case Type::Enum:
    case Type::String:
        return take<std::string>(
            out, [&](std::string& t) { return config::readString(d, node, s.path, t); });
    case Type::Double:
    case Type::Quantity: {
        double v = 0;
        bool ok = false;
        switch (s.unit) {
        case Unit::Nanoseconds: {
            SimTime t;
            ok = config::readTime(d, node, s.path, t);
            v = static_cast<double>(t.ps()) / 1e3;
            break;
        }
        case Unit::BytesPerSecond:
            ok = config::readBandwidth(d, node, s.path, v);
            break;
        case Unit::DecimalGBps:
            ok = config::readBandwidth(d, node, s.path, v);
            v /= 1e9;
            break;
        case Unit::Bytes: {
            uint64_t bytes = 0;
            ok = config::readSize(d, node, s.path, bytes);
            v = static_cast<double>(bytes);
            break;
        }
        case Unit::TeraFlops:
            ok = config::readFlopRate(d, node, s.path, v);
            break;
        case Unit::None:
            ok = config::readDouble(d, node, s.path, v);
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
                      SimulationSpec& spec, const std::function<bool(const Setting&)>& only) {
    Diagnostics& d = c.diagnostics;
    for (const Setting& s : group.settings) {
        if (s.path.empty() || (only && !only(s)))
            continue;
        const YAML::Node value = node[s.projectKey()];
        if (!value.IsDefined()) {
            if (s.missing.level == Missing::Level::Error)
                d.error(config::locate(d, node, s.path), s.missing.message, s.missing.projectHint);
            continue;
        }
        if (s.hooks.readProject) {
            s.hooks.readProject(c, value, spec);
            continue;
        }
        Value v;
        if (!readValue(d, value, s, v))
            continue;
        if (const std::string problem = rangeError(s, v, false); !problem.empty()) {
            d.error(config::locate(d, value, s.path), problem);
            continue;
        }
        try {
            s.set(spec, v);
        } catch (const Error& e) {
            d.relocate(e, config::locate(d, value, s.path));
        }
    }
    for (const Setting& s : group.settings)
        if (s.hooks.afterProjectRead && !s.path.empty() && (!only || only(s)))
            s.hooks.afterProjectRead(c, node, spec);
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
