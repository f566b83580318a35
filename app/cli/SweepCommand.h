#pragma once
// `astrolabe-cli sweep SWEEP.yaml`: run every point of a sweep (docs/sweeps.md) on every core,
// or across machines with --mpi, storing each point as a run of the project database.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser sweepParser();
int sweepCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
