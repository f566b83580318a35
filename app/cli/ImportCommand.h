#pragma once
// astrolabe-cli import pytorch TRACE.json --out PREFIX: a PyTorch profiler (Kineto) trace into
// Chakra ET files that Astrolabe and ASTRA-sim read.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser importParser();
int importCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
