#pragma once
// astrolabe-cli export-astra PROJECT --out DIR: the project as ASTRA-sim 2.x inputs, the command
// line that runs them, and what ASTRA-sim would do differently (engine/simulation/
// AstraProjectExport.h).

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser exportAstraParser();
int exportAstraCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
