#include "cli/ModelFile.h"

#include "cli/ArgParser.h"
#include "core/Text.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

namespace astrolabe::cli {

std::map<std::string, std::string> readModelFile(const std::string& path,
                                                 std::map<std::string, int>* linesOut) {
    if (std::filesystem::file_size(path) > (1u << 20))
        throw UsageError("--model " + path + ": expected a settings file under 1 MiB");
    std::ifstream in(path);
    std::map<std::string, std::string> values;
    std::map<std::string, int> lines; // where each setting was given
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        line = std::string(trimmed(std::string_view(line).substr(0, line.find('#'))));
        if (line.empty())
            continue;
        const size_t at = std::min(line.find(':'), line.find('='));
        if (at == std::string::npos || at == 0)
            throw UsageError(path + ":" + std::to_string(number) +
                             ": expected \"setting: value\" (generate-llm's flags), found \"" +
                             line + "\"");
        const std::string key(trimmed(std::string_view(line).substr(0, at)));
        if (const auto [first, fresh] = lines.emplace(key, number); !fresh)
            throw UsageError(path + ":" + std::to_string(number) + ": \"" + key +
                             "\" is set again (first on line " + std::to_string(first->second) +
                             "); keep one of them");
        values[key] = trimmed(std::string_view(line).substr(at + 1));
    }
    if (values.empty())
        throw UsageError("--model " + path +
                         ": the file sets nothing (only blank lines and comments); expected "
                         "\"preset: NAME\" and settings such as \"layers: 60\", one per line");
    if (!values.count("preset"))
        throw UsageError("--model " + path +
                         ": expected a line \"preset: NAME\" naming the model the settings "
                         "change (e.g. preset: llama3-70b)");
    if (linesOut)
        *linesOut = std::move(lines);
    return values;
}

void addPairs(std::map<std::string, std::string>& values, const std::string& text,
              const std::string& flag) {
    std::set<std::string> given;
    std::string key; // the pair being read: a part without '=' continues its value
    size_t start = 0;
    while (start < text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string part = text.substr(start, comma - start);
        start = comma + 1;
        const size_t eq = part.find('=');
        if (eq == std::string::npos && !key.empty() && !part.empty()) {
            values[key] += "," + part; // placement=dp,tp,pp
            continue;
        }
        if (eq == std::string::npos || eq == 0)
            throw UsageError("--" + flag +
                             ": expected KEY=VALUE pairs separated by commas, found \"" + part +
                             "\"");
        key = part.substr(0, eq);
        if (given.count(key))
            throw UsageError("--" + flag + ": \"" + key + "\" is given twice; keep one of them");
        given.insert(key);
        values[key] = part.substr(eq + 1);
    }
}

} // namespace astrolabe::cli
