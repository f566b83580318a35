#pragma once
// `astrolabe-cli run PROJECT.yaml`: run a project and explain the result.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser runParser();
int runCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
