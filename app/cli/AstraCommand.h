#pragma once
// `astrolabe-cli astra`: ASTRA-sim 2.x's analytical front end, flag for flag.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser astraParser();
int astraCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
