#pragma once
// optimize parallelism's model: a file of generate-llm settings and --set pairs over it.

#include <map>
#include <string>

namespace astrolabe::cli {

/// A model file: generate-llm's settings, one "name: value" (or name=value) per line, '#'
/// starting a comment; "preset" names the starting point and is required. UsageError naming the
/// line otherwise (a setting given twice: both lines), and for a file that sets nothing.
/// `lines`, when given, receives the line of each setting, so that a later complaint about one
/// (the generator's) can name its line.
std::map<std::string, std::string> readModelFile(const std::string& path,
                                                 std::map<std::string, int>* lines = nullptr);

/// "KEY=VALUE,KEY=VALUE" into `values`, over what they hold (--set over the model file). A part
/// without '=' continues the value before it, so "placement=dp,tp,pp,zero=1" sets two keys.
/// UsageError naming --`flag` for a first part without '=' and for a key given twice in `text`.
void addPairs(std::map<std::string, std::string>& values, const std::string& text,
              const std::string& flag);

} // namespace astrolabe::cli
