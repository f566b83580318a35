#pragma once
// A small, strict command-line parser: "--name=value", "--name value" and "--flag".
// Unknown flags are errors (with a "did you mean"), never silently ignored.

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace astrolabe::cli {

struct FlagSpec {
    std::string name;      ///< without the leading "--"
    std::string valueName; ///< empty for a boolean switch
    std::string help;
    std::string defaultValue;
    bool repeatable = false; ///< may be given more than once; read with ParsedArgs::values
};

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class ParsedArgs {
public:
    bool has(const std::string& name) const { return m_values.count(name) > 0; }
    std::string value(const std::string& name, const std::string& fallback = {}) const;
    /// Every value of a repeatable flag, in the order given (one element for any other flag).
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positional() const { return m_positional; }

private:
    friend class ArgParser;
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::vector<std::string>> m_repeated;
    std::vector<std::string> m_positional;
};

class ArgParser {
public:
    /// positionalNames: "[NAME]" marks an optional argument (after the required ones); a last
    /// name ending in "..." accepts any number of further arguments.
    ArgParser(std::string command, std::string summary, std::vector<FlagSpec> flags,
              std::vector<std::string> positionalNames = {});
    /// Throws UsageError on an unknown flag, a missing value or a wrong positional count.
    ParsedArgs parse(const std::vector<std::string>& args) const;
    std::string help() const;

private:
    const FlagSpec* find(const std::string& name) const;

    std::string m_command;
    std::string m_summary;
    std::vector<FlagSpec> m_flags;
    std::vector<std::string> m_positionalNames;
};

} // namespace astrolabe::cli
