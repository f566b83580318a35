// docs/generator.md's settings table, derived from the generator's settings table.
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
    case GenType::Int:
        return "integer";
    case GenType::Double:
        return s.unit.empty() ? std::string("number") : "number," + s.unit;
    case GenType::Bool:
        return "true/false";
    case GenType::Choice:
    case GenType::Name: {
        std::string out = "one of ";
        out += join(s.choices);
        return out;
    }
    case GenType::Size:
        return "size (\"25 MiB\")";
    }
    return {};
}

std::string rangeText(const GeneratorSetting& s) {
    if (s.type == GenType::Int || s.type == GenType::Double) {
        std::string out = number(s.minimum);
        out += " .. ";
        out += number(s.maximum);
        return out;
    }
    if (s.type == GenType::Size)
        return "1 MiB .. 1 TiB (GUI)";
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
    std::string out = "| key | CLI flag | GUI field | type / unit | default (gpt3-175b) | range "
                      "| meaning |\n|---|---|---|---|---|---|---|\n";
    for (const GeneratorSetting& s : generatorSettings()) {
        const std::string flag = s.flag.empty() ? std::string("-") : code("--" + s.flag);
        const std::string field = s.inBuilder ? s.group + ": " + s.label : std::string("-");
        out += "| " + code(s.key) + " | " + flag + " | " + cell(field) + " | " + cell(typeText(s)) +
               " | " + cell(generatorValueText(s, s.get(preset))) + " | " + rangeText(s) + " | " +
               cell(s.help) + " |\n";
    }
    return out;
}

std::string updateGeneratorDocTable(const std::string& doc) {
    const std::string begin = "<!-- settings-table: generator -->\n";
    const std::string end = "<!-- end settings-table -->";
    const size_t from = doc.find(begin);
    const size_t to = from == std::string::npos ? from : doc.find(end, from);
    if (to == std::string::npos)
        return doc;
    std::string out = doc;
    out.replace(from + begin.size(), to - from - begin.size(), generatorMarkdownTable());
    return out;
}

} // namespace astrolabe::generate
