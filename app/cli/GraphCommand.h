#pragma once
// astrolabe-cli graph export PROJECT --format dot|graphml | graph import EDGES.csv --out
// PROJECT.yaml: graph platforms in and out (docs/graph-platforms.md, "Files").

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser graphParser();
int graphCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
