#pragma once
// astrolabe-cli trace dump FILE | trace check PREFIX --npus N: look inside Chakra traces.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser traceParser();
int traceCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
