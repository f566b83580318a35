// Texts derived from the schema: values as the project file and the comparison spell them, range
// messages, comparison rows, the spec JSON and the docs table.
#include "core/Units.h"
#include "schema/Setting.h"
#include "yaml/ProjectValues.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace astrolabe::settings {
namespace {

std::string printed(const char* pattern, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, pattern, v);
    return buf;
}

std::string bytesText(double bytes) {
    if (bytes >= 1024.0 * 1024.0 && static_cast<uint64_t>(bytes) % (1024 * 1024) == 0)
        return printed("%g MiB", bytes / (1024.0 * 1024.0));
    if (bytes >= 1024.0 && static_cast<uint64_t>(bytes) % 1024 == 0)
        return printed("%g KiB", bytes / 1024.0);
    return printed("%g B", bytes);
}

double number(const Value& v) {
    if (const auto* i = std::get_if<int64_t>(&v))
        return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    return 0;
}

std::string cell(std::string text) {
    for (size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
        text.replace(at, 1, "\\|");
    return text;
}

std::string compatText(Compat compat, const Group& group) {
    switch (compat) {
    case Compat::Both:
        return group.astraFile;
    case Compat::AstrolabeOnly:
        return "exported; ignored by ASTRA-sim 2.x";
    case Compat::CommandLine:
        return "command-line flag";
    case Compat::AstraOnly:
        return "ASTRA-sim only: checked, not used";
    case Compat::ProjectOnly:
        return "Astrolabe only";
    }
    return "";
}

} // namespace

const char* unitSuffix(Unit unit) {
    switch (unit) {
    case Unit::Nanoseconds:
        return " ns";
    case Unit::BytesPerSecond:
        return " B/s";
    case Unit::DecimalGBps:
        return " GB/s";
    case Unit::Bytes:
        return " B";
    case Unit::TeraFlops:
        return " TFLOP/s";
    case Unit::None:
        break;
    }
    return "";
}

std::string displayQuantity(Unit unit, double value) {
    if (unit == Unit::BytesPerSecond)
        return printed("%g GiB/s", value / (1024.0 * 1024.0 * 1024.0));
    if (unit == Unit::Bytes)
        return bytesText(value);
    return printed("%g", value) + unitSuffix(unit);
}

std::string Setting::projectKey() const {
    const size_t dot = path.find('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::vector<const Group*> allGroups() {
    return {&platformGroup(), &dimensionGroup(), &graphGroup(),  &systemGroup(),
            &runGroup(),      &memoryGroup(),    &servingGroup()};
}

const Setting& find(const Group& group, const std::string& path) {
    for (const Setting& s : group.settings)
        if (s.path == path)
            return s;
    throw std::out_of_range("no setting " + path + " in group " + group.name);
}

std::string projectText(const SettingInfo& s, const Value& value) {
    switch (s.type) {
    case Type::Int:
        return std::to_string(std::get<int64_t>(value));
    case Type::Bool:
        return std::get<bool>(value) ? "true" : "false";
    case Type::Enum:
        return std::get<std::string>(value);
    case Type::String:
        return config::quotedText(std::get<std::string>(value));
    case Type::Double:
    case Type::Quantity:
        switch (s.unit) {
        case Unit::Nanoseconds:
            return config::nanosecondsText(number(value));
        case Unit::BytesPerSecond:
            return config::bandwidthText(number(value));
        case Unit::DecimalGBps:
            return config::decimalGigabytesPerSecondText(number(value));
        case Unit::Bytes:
            return config::sizeText(static_cast<uint64_t>(number(value)));
        case Unit::TeraFlops:
            return config::flopRateText(number(value));
        case Unit::None:
            return units::formatNumber(number(value));
        }
        break;
    case Type::Custom:
        break;
    }
    return {};
}

std::string displayText(const Setting& s, const Value& value) {
    switch (s.type) {
    case Type::Int:
        return std::to_string(std::get<int64_t>(value));
    case Type::Bool:
        return std::get<bool>(value) ? "on" : "off";
    case Type::Enum:
        if (!s.displayChoices.empty()) {
            const auto at =
                std::find(s.choices.begin(), s.choices.end(), std::get<std::string>(value));
            if (at != s.choices.end())
                return s.displayChoices.at(static_cast<size_t>(at - s.choices.begin()));
        }
        return std::get<std::string>(value);
    case Type::String:
        return std::get<std::string>(value);
    case Type::Double:
    case Type::Quantity:
        return displayQuantity(s.unit, number(value));
    case Type::Custom:
        break;
    }
    return {};
}

std::optional<double> numericValue(const Setting& s, const Value& value) {
    if (s.type == Type::Int || s.type == Type::Double || s.type == Type::Quantity)
        return number(value);
    return std::nullopt;
}

std::string rangeError(const Setting& s, const Value& value, bool astraUnits) {
    if (s.type != Type::Int && s.type != Type::Double && s.type != Type::Quantity)
        return {};
    const double v = number(value);
    const std::string found =
        s.type == Type::Int ? std::to_string(std::get<int64_t>(value)) : units::formatNumber(v);
    const std::string unit = s.type == Type::Int ? (s.rangeNoun.empty() ? "" : " " + s.rangeNoun)
                             : astraUnits && !s.astraUnit.empty() ? " " + s.astraUnit
                                                                  : unitSuffix(s.unit);
    if (s.minimumExclusive && !(v > s.minimum))
        return "expected a " + (s.rangeNoun.empty() ? std::string("value") : s.rangeNoun) +
               " greater than " + units::formatNumber(s.minimum) + ", found " + found;
    if (!(v >= s.minimum))
        return "expected " + units::formatNumber(s.minimum) +
               (s.type == Type::Int ? " or more" + unit : unit + " or more") + ", found " + found;
    if (!(v <= s.maximum))
        return "expected at most " + units::formatNumber(s.maximum) + unit + ", found " + found;
    return {};
}

std::vector<CompareRow> compareRows(const Group& group, const SimulationSpec& spec) {
    std::vector<CompareRow> rows;
    for (const Setting& s : group.settings) {
        if (s.hooks.compare)
            s.hooks.compare(spec, rows);
        else if (!s.compareKey.empty()) {
            const Value v = s.shownValue(spec);
            rows.push_back({s.compareKey, s.shortLabel, displayText(s, v), numericValue(s, v)});
        }
    }
    return rows;
}

void addSpecJson(const Group& group, const SimulationSpec& spec, nlohmann::json& root) {
    for (const Setting& s : group.settings) {
        nlohmann::json& out = root[s.specJsonGroup];
        if (s.hooks.specJson) {
            s.hooks.specJson(spec, out);
            continue;
        }
        if (s.specJsonKey.empty())
            continue;
        if (s.whole)
            out[s.specJsonKey] = std::llround(std::get<double>(s.shownValue(spec)));
        else
            std::visit([&](const auto& v) { out[s.specJsonKey] = v; }, s.shownValue(spec));
    }
}

void readSpecJson(const Group& group, const nlohmann::json& root, SimulationSpec& spec) {
    for (const Setting& s : group.settings) {
        const auto in = root.find(s.specJsonGroup);
        if (in == root.end() || !in->is_object())
            continue;
        try {
            if (s.hooks.fromSpecJson) {
                s.hooks.fromSpecJson(*in, spec);
                continue;
            }
            const auto it = in->find(s.specJsonKey);
            if (s.specJsonKey.empty() || s.hooks.specJson || it == in->end() || !s.set)
                continue;
            // The JSON holds the shown value (addSpecJson): set it as the GUI's editor does.
            const auto& set = s.hooks.shown ? s.hooks.edited : s.set;
            if (!set)
                continue;
            Value value = s.defaultValue();
            if (std::holds_alternative<int64_t>(value) && it->is_number_integer())
                value = it->get<int64_t>();
            else if (std::holds_alternative<double>(value) && it->is_number())
                value = it->get<double>();
            else if (std::holds_alternative<bool>(value) && it->is_boolean())
                value = it->get<bool>();
            else if (std::holds_alternative<std::string>(value) && it->is_string())
                value = it->get<std::string>();
            else
                continue;
            set(spec, value);
        } catch (const std::exception&) {
            // Refused (another version's value): the spec keeps its own.
        }
    }
}

namespace {

/// What a setting's value looks like in the project file, for the docs table.
std::string typeText(const Setting& s) {
    if (s.type == Type::Custom)
        return s.path.empty() ? "number or 0/1" : "structured";
    switch (s.type) {
    case Type::Enum: {
        std::string text = "one of ";
        for (size_t i = 0; i < s.choices.size(); ++i)
            text.append(i == 0 ? "" : ", ").append(s.choices[i]);
        return text;
    }
    case Type::Int:
        return "whole number";
    case Type::Bool:
        return "true/false";
    case Type::String:
        return "text";
    default:
        break;
    }
    if (s.unit == Unit::None)
        return "number";
    return std::string("quantity (").append(unitSuffix(s.unit) + 1).append(")");
}

std::string rangeText(const Setting& s) {
    if (s.type == Type::Custom || (s.minimum <= -1e300 && s.upperBound() >= 1e300))
        return {};
    std::string text = s.minimumExclusive ? "> " : ">= ";
    text += units::formatNumber(s.minimum);
    if (s.upperBound() < 1e300)
        text.append(", <= ").append(units::formatNumber(s.upperBound()));
    if (s.limit < s.maximum)
        text.append(" ([limits](limits.md))");
    return text;
}

std::string defaultText(const Setting& s) {
    if (s.missing.level == Missing::Level::Error)
        return "**required**";
    if (s.type != Type::Custom && s.get)
        return projectText(s, s.defaultValue());
    return s.path.empty() ? "-" : "none";
}

/// `text` in backticks, or "-" when empty (GCC 12 warns, wrongly, on "`" + text + "`").
std::string code(const std::string& text) {
    if (text.empty())
        return "-";
    std::string out(1, '`');
    out.append(text).push_back('`');
    return out;
}

} // namespace

std::string markdownTable(const Group& group) {
    std::string out = "| key | type / unit | default | range | ASTRA-sim | meaning |\n"
                      "|---|---|---|---|---|---|\n";
    for (const Setting& s : group.settings) {
        const std::string key = s.path.empty() ? "-" : code(s.projectKey());
        std::string astra = code(s.astraKey);
        if (!s.astraKey.empty())
            astra.append(" (").append(compatText(s.compat, group)).append(")");
        out += "| " + key + " | " + cell(typeText(s)) + " | " + cell(defaultText(s)) + " | " +
               rangeText(s) + " | " + cell(astra) + " | " + cell(s.help) + " |\n";
    }
    return out;
}

std::string replaceDocTable(const std::string& doc, const std::string& name,
                            const std::string& table) {
    const std::string begin = "<!-- settings-table: " + name + " -->\n";
    const std::string end = "<!-- end settings-table -->";
    const size_t from = doc.find(begin);
    const size_t to = from == std::string::npos ? from : doc.find(end, from);
    if (to == std::string::npos)
        return doc;
    std::string out = doc;
    out.replace(from + begin.size(), to - from - begin.size(), table);
    return out;
}

std::string updateDocTables(const std::string& doc) {
    std::string out = doc;
    for (const Group* group : allGroups())
        out = replaceDocTable(out, group->name, markdownTable(*group));
    return out;
}

} // namespace astrolabe::settings
