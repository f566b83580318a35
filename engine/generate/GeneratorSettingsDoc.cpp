// docs/generator.md's settings table, derived from the generator's settings table.
#include "core/Units.h"
#include "generate/GeneratorSettings.h"
#include "generate/ModelPresets.h"

#include <cstdio>

namespace astrolabe::generate {
namespace {

std::string code(const std::string& text) {
    std::string out = "`";
    out += text;
    out += '`';
    return out;
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) {
        if (!out.empty())
            out += ", ";
        out += code(item);
    }
    return out;
}

std::string typeText(const GeneratorSetting& s) {
    switch (s.type) {
    case settings::Type::Int:
        return s.choices.empty() ? std::string("integer") : "one of " + join(s.choices);
    case settings::Type::Double:
        return std::string("number") + (s.unit == settings::Unit::None ? "" : ",") +
               settings::unitSuffix(s.unit);
    case settings::Type::Bool:
        return "true/false";
    case settings::Type::Enum:
        return "one of " + join(s.choices);
    case settings::Type::Quantity:
        return "size (\"25 MiB\")";
    case settings::Type::String:
    case settings::Type::Custom:
        break;
    }
    return {};
}

std::string rangeText(const GeneratorSetting& s) {
    if ((s.type == settings::Type::Int && s.choices.empty()) || s.type == settings::Type::Double) {
        std::string out = number(s.minimum);
        out += " .. ";
        out += number(s.maximum);
        return out;
    }
    if (s.type == settings::Type::Quantity)
        return units::formatSize(static_cast<uint64_t>(s.minimum)) + " .. " +
               units::formatSize(static_cast<uint64_t>(s.maximum)) + " (GUI)";
    return {};
}

std::string cell(std::string text) {
    for (size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
        text.replace(at, 1, "\\|");
    return text;
}

} // namespace

std::string generatorMarkdownTable() {
    const GeneratorSpec preset = presetSpec("gpt3-175b");
    std::string out = "| key | CLI flag | label | type / unit | default (gpt3-175b) | range "
                      "| meaning |\n|---|---|---|---|---|---|---|\n";
    for (const GeneratorSetting& s : generatorSettings()) {
        const std::string flag = s.flag.empty() ? std::string("-") : code("--" + s.flag);
        out += "| " + code(s.path) + " | " + flag + " | " + cell(s.label) + " | " +
               cell(typeText(s)) + " | " + cell(generatorValueText(s, s.get(preset))) + " | " +
               rangeText(s) + " | " + cell(s.help) + " |\n";
    }
    return out;
}

std::string updateGeneratorDocTable(const std::string& doc) {
    return settings::replaceDocTable(doc, "generator", generatorMarkdownTable());
}

} // namespace astrolabe::generate
