#pragma once
// astrolabe-cli calibrate nccl-tests FILES... --project P [--out P2]: fits the network of one
// platform dimension to nccl-tests output, reports how well the fit predicts held-out points
// and writes the fitted settings into the project (docs/calibration.md).

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser calibrateParser();
int calibrateCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
