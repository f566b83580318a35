#pragma once
// `astrolabe-cli optimize bandwidth PROJECT.yaml --total-bandwidth GB/s ...`: LIBRA's
// bandwidth allocation per dimension (docs/libra.md), confirmed by simulation.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser optimizeParser();
int optimizeCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
