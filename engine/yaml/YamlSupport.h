#pragma once
// yaml-cpp helpers shared by the YAML readers (project/, astra/, graph/, schema/).
// Every reader reports through a Diagnostics with the node's line and column and its key path.

#include "spec/Diagnostics.h"

#include <cstdint>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace astrolabe::config {

/// Reads and parses a YAML file; throws Error (Input) with file:line:col on I/O or syntax errors.
YAML::Node loadYamlFile(const std::string& path);
/// Parses YAML text; `fileName` is only used in messages.
YAML::Node parseYamlText(const std::string& text, const std::string& fileName);

SourceLocation locate(const Diagnostics& diagnostics, const YAML::Node& node,
                      const std::string& keyPath);
/// "\"tbd\"", "a list", "a map" or "nothing": what was found, for messages.
std::string describe(const YAML::Node& node);
std::string joinKey(const std::string& prefix, const std::string& key);
/// The node at "a.b[2].c" under `root`, or the deepest node on that path that exists (so a
/// message about a missing or derived value still points near the right line).
YAML::Node nodeAtKeyPath(const YAML::Node& root, const std::string& keyPath);

/// Reports every key of `map` that is not in `known`, with a "did you mean"; as errors, or as
/// warnings when `warnOnly` (formats whose reference implementation ignores unknown keys).
void checkKeys(Diagnostics& diagnostics, const YAML::Node& map, const std::string& prefix,
               const std::vector<std::string>& known, bool warnOnly = false);

// Typed readers: on a wrong type they report an error naming the key and return false.
bool readDouble(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
                double& out);
bool readInt(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
             int64_t& out);
bool readBool(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
              bool& out);
bool readString(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
                std::string& out);

} // namespace astrolabe::config
