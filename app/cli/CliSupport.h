#pragma once
// Small helpers shared by astrolabe-cli's commands: flag values and files.

#include "spec/SimulationSpec.h"

#include <climits>
#include <iosfwd>
#include <string>

namespace astrolabe::cli {

/// Throws UsageError (exit 2) unless `path` names a regular file. `label` is what the user
/// typed: "--flag" for an option, a plain word ("project") for a positional argument.
void requireFile(const std::string& label, const std::string& path);
/// The whole of `text` as an integer from `minimum` to `maximum`; UsageError naming --flag
/// (and the range) otherwise.
int parseCount(const std::string& flag, const std::string& text, int minimum = INT_MIN,
               int maximum = INT_MAX);
double parseReal(const std::string& flag, const std::string& text);
/// True and the value when the whole of `text` is a finite number ("250", "2.5e3").
bool parseWholeNumber(const std::string& text, double& value);
bool parseBool(const std::string& flag, const std::string& text);
/// Sets `backend` from the --backend option when it is given; a name that is not a network
/// model is a UsageError naming the option.
void applyBackendOption(const std::string& text, NetworkBackend& backend);
/// A serving project (a serving: section and no workload) has nothing for `command` to run or
/// write: throws UsageError pointing to 'astrolabe-cli serve PROJECT'.
void refuseServingProject(const SimulationSpec& spec, const std::string& command,
                          const std::string& project);
/// Makes the folder of an --out PREFIX ("runs/gpt3/t" writes into runs/gpt3/) if missing.
/// Throws UsageError for a prefix that names a folder ("runs/", "runs/gpt3" when that is a
/// folder: the files would be "runs/.0.et"), astrolabe::Error when the folder cannot be made.
void makePrefixFolder(const std::string& prefix);

/// `text` with spaces after it (padRight) or before it (padLeft) up to `width` characters; a
/// longer text is kept whole.
std::string padRight(std::string text, size_t width);
std::string padLeft(std::string text, size_t width);

} // namespace astrolabe::cli
