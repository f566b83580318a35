#pragma once
// `astrolabe-cli fidelity PROJECT.yaml`: one project through the congestion-unaware, the
// congestion-aware and the packet-level (ns-3) network models, side by side: end times,
// per-collective differences, the busiest links of each and the wall time of each
// (docs/network-models.md, "The fidelity gap").

#include "cli/ArgParser.h"

#include <iosfwd>

namespace astrolabe::cli {

ArgParser fidelityParser();
int fidelityCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err);

} // namespace astrolabe::cli
