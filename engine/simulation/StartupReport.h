#pragma once

#include "spec/SimulationSpec.h"
#include "topology/Topology.h"

#include <string>
#include <vector>

namespace astrolabe {

/// ASTRA-sim's start-up lines (spec §8.1 item 1): one "ring of node 0" line per collective type
/// with a native list and per ring-like logical dimension.
std::vector<std::string> startupReportLines(const SimulationSpec& spec, const Topology& topology);

} // namespace astrolabe
