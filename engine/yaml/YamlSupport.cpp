#include "yaml/YamlSupport.h"

#include "core/InputFile.h"

#include <cstdlib>
#include <map>
#include <utility>
#include <vector>
#include <yaml-cpp/depthguard.h>

namespace astrolabe::config {

namespace {

/// YAML requires the keys of a map to differ, but yaml-cpp keeps both of a repeated key and
/// reads the first: `npus: 2` then `npus: 3` would silently be 2. Every map of the tree is
/// checked (a walk with an explicit stack, so a deep document cannot overflow the call stack);
/// each repeat is an error naming both lines. A tree has fewer nodes than its text has bytes;
/// past that many visits the walk stops, as aliases (*a) would otherwise make it revisit shared
/// nodes exponentially often, or forever in a cycle.
void checkRepeatedKeys(const YAML::Node& root, const std::string& fileName, size_t textBytes) {
    Diagnostics d(fileName);
    std::vector<std::pair<YAML::Node, std::string>> pending{{root, ""}};
    for (size_t visits = 0; !pending.empty() && visits <= textBytes + 1 &&
                            d.errors().size() < Diagnostics::kErrorsListed;
         ++visits) {
        const auto [node, path] = std::move(pending.back());
        pending.pop_back();
        if (node.IsSequence()) {
            for (size_t i = 0; i < node.size(); ++i)
                pending.emplace_back(node[i], path + "[" + std::to_string(i) + "]");
            continue;
        }
        if (!node.IsMap())
            continue;
        std::map<std::string, YAML::Mark> seen;
        for (const auto& entry : node) {
            if (!entry.first.IsScalar())
                continue;
            const std::string key = joinKey(path, entry.first.Scalar());
            const auto [it, fresh] = seen.emplace(entry.first.Scalar(), entry.first.Mark());
            if (!fresh)
                d.error(locate(d, entry.first, key),
                        "the key " + quotedExcerpt(entry.first.Scalar()) + " is given twice, " +
                            (it->second.line == entry.first.Mark().line
                                 ? "both on line " + std::to_string(it->second.line + 1)
                                 : "on lines " + std::to_string(it->second.line + 1) + " and " +
                                       std::to_string(entry.first.Mark().line + 1)),
                        "keep one of them: only the first would be read");
            pending.emplace_back(entry.second, key);
        }
    }
    d.throwIfErrors();
}

} // namespace

YAML::Node parseYamlText(const std::string& text, const std::string& fileName) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& e) {
        // yaml-cpp's own message for this is "bad file".
        throw Error(ErrorKind::Input,
                    "YAML nested too deeply: the reader stops at " + std::to_string(e.depth()) +
                        " levels of lists and maps",
                    SourceLocation{fileName, e.mark.line + 1, e.mark.column + 1, {}},
                    "these files nest a few levels; is a bracket left open?");
    } catch (const YAML::ParserException& e) {
        throw Error(ErrorKind::Input, "YAML syntax error: " + e.msg,
                    SourceLocation{fileName, e.mark.line + 1, e.mark.column + 1, {}},
                    "check indentation, colons and brackets around this point");
    }
    checkRepeatedKeys(root, fileName, text.size());
    return root;
}

YAML::Node loadYamlFile(const std::string& path) {
    return parseYamlText(readInputFile(path, "the file"), path);
}

SourceLocation locate(const Diagnostics& diagnostics, const YAML::Node& node,
                      const std::string& keyPath) {
    if (!node.IsDefined())
        return diagnostics.at(0, 0, keyPath);
    const YAML::Mark mark = node.Mark();
    if (mark.is_null())
        return diagnostics.at(0, 0, keyPath);
    return diagnostics.at(mark.line + 1, mark.column + 1, keyPath);
}

std::string describe(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull())
        return "nothing";
    if (node.IsScalar())
        return quotedExcerpt(node.Scalar());
    if (node.IsSequence())
        return node.size() == 0 ? "an empty list" : "a list";
    return node.size() == 0 ? "an empty map" : "a map";
}

std::string joinKey(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
}

YAML::Node nodeAtKeyPath(const YAML::Node& root, const std::string& keyPath) {
    YAML::Node current = root;
    size_t at = 0;
    while (at < keyPath.size()) {
        YAML::Node next;
        if (keyPath[at] == '[') {
            const size_t close = keyPath.find(']', at);
            if (close == std::string::npos || !current.IsSequence())
                break;
            const std::string digits = keyPath.substr(at + 1, close - at - 1);
            const size_t index = std::strtoul(digits.c_str(), nullptr, 10);
            if (index >= current.size())
                break;
            const YAML::Node& sequence = current;
            next = sequence[index];
            at = close + 1;
        } else {
            if (keyPath[at] == '.')
                ++at;
            const size_t end = keyPath.find_first_of(".[", at);
            const std::string key = keyPath.substr(at, end == std::string::npos ? end : end - at);
            if (!current.IsMap())
                break;
            const YAML::Node& map = current;
            // Copy-constructed: yaml-cpp throws InvalidNode when the missing key's "zombie" node
            // is assigned to an existing Node, but not when it is copied into a new one.
            const YAML::Node found = map[key];
            if (!found.IsDefined())
                break;
            next.reset(found);
            at = end == std::string::npos ? keyPath.size() : end;
        }
        current.reset(next);
    }
    return current;
}

void checkKeys(Diagnostics& diagnostics, const YAML::Node& map, const std::string& prefix,
               const std::vector<std::string>& known, bool warnOnly) {
    if (!map.IsMap())
        return;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string("?");
        bool found = false;
        for (const std::string& k : known)
            found = found || k == key;
        if (found)
            continue;
        const SourceLocation where = locate(diagnostics, it->first, joinKey(prefix, key));
        std::string hint = didYouMean(key, known);
        if (hint.empty())
            hint = "valid keys here: " + joinAlternatives(known);
        if (warnOnly)
            diagnostics.warning(where, "unknown key, ignored", hint);
        else
            diagnostics.error(where, "unknown key", hint);
    }
}

bool readDouble(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
                double& out) {
    if (node.IsScalar()) {
        try {
            out = node.as<double>();
            return true;
        } catch (const YAML::BadConversion&) {
        }
    }
    diagnostics.error(locate(diagnostics, node, keyPath),
                      "expected a number, found " + describe(node));
    return false;
}

bool readInt(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
             int64_t& out) {
    if (node.IsScalar()) {
        try {
            out = node.as<int64_t>();
            return true;
        } catch (const YAML::BadConversion&) {
        }
    }
    diagnostics.error(locate(diagnostics, node, keyPath),
                      "expected a whole number, found " + describe(node));
    return false;
}

bool readBool(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
              bool& out) {
    if (node.IsScalar()) {
        try {
            out = node.as<bool>();
            return true;
        } catch (const YAML::BadConversion&) {
        }
    }
    diagnostics.error(locate(diagnostics, node, keyPath),
                      "expected true or false, found " + describe(node));
    return false;
}

bool readString(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
                std::string& out) {
    if (node.IsScalar()) {
        out = node.Scalar();
        return true;
    }
    diagnostics.error(locate(diagnostics, node, keyPath),
                      "expected a text value, found " + describe(node));
    return false;
}

} // namespace astrolabe::config
