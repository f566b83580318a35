#pragma once
// How the command line shows a result: a human summary that says where the time went.

#include "config/SimulationSpec.h"
#include "record/RunResult.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace astrolabe::cli {

/// The headline, per-NPU spread, per-collective times, per-dimension traffic and utilization.
void printRunSummary(std::ostream& out, const SimulationSpec& spec, const RunResult& result);
/// The full result as JSON (docs/result-format.md) into a file.
void writeResultJsonFile(const RunResult& result, const SimulationSpec& spec,
                         const std::string& path);

} // namespace astrolabe::cli
