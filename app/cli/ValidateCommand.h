#pragma once
// astrolabe-cli validate [--only NAME]: runs the validation pack (projects/validation/rows.csv,
// one sweep file per published row), prints each row's error and regenerates docs/validation.md.
// Exits 1 when a row misses its tolerance or a table its mean target.

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser validateParser();
int validateCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
