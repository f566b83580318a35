#pragma once
// astrolabe-cli runs: list, show, export, rename, tag, annotate and delete the runs stored in a
// project database (engine/store).

#include "cli/ArgParser.h"

#include <iosfwd>
#include <string>

namespace astrolabe::cli {

ArgParser runsParser();
int runsCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

/// --db when given, else the --project file's folder + "/astrolabe.db", else "astrolabe.db".
std::string databasePathFromArgs(const ParsedArgs& args);
/// The database of databasePathFromArgs, which must exist and be an SQLite file: a command
/// that reads runs never makes one (an empty or foreign file given as --db stays as it was).
/// Throws UsageError naming `command` and the path otherwise.
std::string existingDatabaseFromArgs(const std::string& command, const ParsedArgs& args);
/// A run id argument; throws UsageError when it is not a positive integer.
int64_t parseRunId(const std::string& text);

} // namespace astrolabe::cli
