#pragma once
// nlohmann::json helpers shared by the JSON readers (astra/, schema/).
// nlohmann reports byte offsets for syntax errors and nothing for keys, so the raw text is kept
// to turn offsets and key names into line:column.

#include "spec/Diagnostics.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace astrolabe::config {

struct JsonDocument {
    nlohmann::json value;
    std::string text;
    std::string file;
};

/// Parses; throws Error (Input) with file:line:col on syntax errors.
JsonDocument parseJsonText(std::string text, const std::string& fileName);

/// 1-based line and column of a 0-based byte offset.
std::pair<int, int> lineColumnAt(const std::string& text, size_t offset);

/// Where "key": first appears in the text (line:col of the opening quote); 0:0 when absent.
/// Good enough for the flat objects ASTRA-sim uses; the key path stays exact either way.
SourceLocation locateJsonKey(const Diagnostics& diagnostics, const std::string& text,
                             const std::string& key, const std::string& keyPath);

/// "\"abc\"", "the number 4", "a list", "an object", "true", "null": what was found.
std::string describeJson(const nlohmann::json& value);

} // namespace astrolabe::config
