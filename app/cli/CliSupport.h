#pragma once
// Small helpers shared by astrolabe-cli's commands: flag values and files.

#include <string>

namespace astrolabe::cli {

/// Throws UsageError (exit 2) when the flag is empty or the file does not exist.
void requireFile(const std::string& flag, const std::string& path);
int parseCount(const std::string& flag, const std::string& text);
double parseReal(const std::string& flag, const std::string& text);
bool parseBool(const std::string& flag, const std::string& text);

} // namespace astrolabe::cli
