#pragma once
// astrolabe-cli generate microbenchmark: Chakra traces for one collective, as ASTRA-sim ships.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser generateParser();
int generateCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
