#pragma once
// astrolabe-cli compare ID1 ID2 ...: stored runs side by side, with differences and ratios
// against the first.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser compareParser();
int compareCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
