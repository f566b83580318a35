#pragma once
// `astrolabe-cli serve PROJECT [--rate R | --trace F] [--duration S]`: simulate LLM inference
// as the project's serving: section describes it, print the metrics and store the run.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser serveParser();
int serveCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
