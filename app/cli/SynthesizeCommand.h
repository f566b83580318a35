#pragma once
// astrolabe-cli synthesize PROJECT: TACOS collective synthesis on the project's platform
// (docs/tacos.md): the schedule, its exports, and a run beside the built-in algorithms.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser synthesizeParser();
int synthesizeCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
