#include "cli/ArgParser.h"

#include "core/Error.h"

namespace astrolabe::cli {

std::string ParsedArgs::value(const std::string& name, const std::string& fallback) const {
    const auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

std::vector<std::string> ParsedArgs::values(const std::string& name) const {
    if (const auto it = m_repeated.find(name); it != m_repeated.end())
        return it->second;
    if (const auto it = m_values.find(name); it != m_values.end())
        return {it->second};
    return {};
}

ArgParser::ArgParser(std::string command, std::string summary, std::vector<FlagSpec> flags,
                     std::vector<std::string> positionalNames)
    : m_command(std::move(command))
    , m_summary(std::move(summary))
    , m_flags(std::move(flags))
    , m_positionalNames(std::move(positionalNames)) {}

const FlagSpec* ArgParser::find(const std::string& name) const {
    for (const FlagSpec& f : m_flags)
        if (f.name == name)
            return &f;
    return nullptr;
}

ParsedArgs ArgParser::parse(const std::vector<std::string>& args) const {
    ParsedArgs out;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.rfind("--", 0) != 0 || arg == "--") {
            out.m_positional.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2);
        std::optional<std::string> value;
        if (const size_t eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const FlagSpec* spec = find(name);
        if (!spec) {
            std::vector<std::string> names;
            for (const FlagSpec& f : m_flags)
                names.push_back(f.name);
            const std::string guess = closestMatch(name, names);
            throw UsageError(m_command + ": unknown option --" + name +
                             (guess.empty() ? "" : " (did you mean --" + guess + "?)"));
        }
        if (spec->valueName.empty()) {
            out.m_values[name] = value.value_or("true");
            continue;
        }
        if (!value) {
            if (i + 1 >= args.size())
                throw UsageError(m_command + ": option --" + name + " needs a value <" +
                                 spec->valueName + ">");
            value = args[++i];
        }
        // "--backend=" must not quietly mean the default: only free text and lists (notes,
        // tags) may be emptied.
        if (value->empty() && spec->valueName != "TEXT" && spec->valueName != "LIST")
            throw UsageError(m_command + ": option --" + name + " needs a value <" +
                             spec->valueName + ">, found an empty one");
        out.m_values[name] = *value;
        if (spec->repeatable)
            out.m_repeated[name].push_back(*value);
    }
    // "[NAME]" is optional; a last name ending in "..." takes any number of further arguments.
    size_t required = 0;
    for (const std::string& p : m_positionalNames)
        required += p.empty() || p[0] != '[';
    const bool variadic = !m_positionalNames.empty() && m_positionalNames.back().size() > 3 &&
                          m_positionalNames.back().ends_with("...");
    if (!variadic && out.m_positional.size() > m_positionalNames.size())
        throw UsageError(m_command + ": unexpected argument \"" +
                         out.m_positional[m_positionalNames.size()] + "\"");
    if (out.m_positional.size() < required)
        throw UsageError(m_command + ": missing argument <" +
                         m_positionalNames[out.m_positional.size()] + ">");
    return out;
}

std::string ArgParser::help() const {
    std::string out = "usage: astrolabe-cli " + m_command;
    for (const std::string& p : m_positionalNames)
        out += !p.empty() && p[0] == '[' ? " " + p : " <" + p + ">";
    if (!m_flags.empty())
        out += " [options]";
    out += "\n\n" + m_summary + "\n";
    if (!m_flags.empty())
        out += "\noptions:\n";
    for (const FlagSpec& f : m_flags) {
        std::string left = "  --" + f.name + (f.valueName.empty() ? "" : "=<" + f.valueName + ">");
        if (left.size() < 34)
            left.resize(34, ' ');
        else
            left += "\n" + std::string(34, ' ');
        out += left + f.help;
        if (f.repeatable)
            out += " (may be repeated)";
        if (!f.defaultValue.empty())
            out += " (default: " + f.defaultValue + ")";
        out += "\n";
    }
    return out;
}

} // namespace astrolabe::cli
