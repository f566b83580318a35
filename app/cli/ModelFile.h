#pragma once
// optimize parallelism's model: a file of generate-llm settings and --set pairs over it.

#include <map>
#include <string>

namespace astrolabe::cli {

/// A model file: generate-llm's settings, one "name: value" (or name=value) per line, '#'
/// starting a comment; "preset" names the starting point. UsageError naming the line otherwise,
/// and for a file that sets nothing.
std::map<std::string, std::string> readModelFile(const std::string& path);

/// "KEY=VALUE,KEY=VALUE" into `values` (later keys win); UsageError for a part without '='.
void addPairs(std::map<std::string, std::string>& values, const std::string& text);

} // namespace astrolabe::cli
