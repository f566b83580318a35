#pragma once
// How the command line shows a result: ASTRA-sim's log lines, and a human summary that says
// where the time went.

#include "config/SimulationSpec.h"
#include "record/RunResult.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace astrolabe::cli {

/// "YYYY-MM-DD HH:MM:SS.mmm", local time, as ASTRA-sim's log prefix.
std::string logTimestamp();
/// RunResult::reportLines ("[logger] message") with ASTRA-sim's "[time] [logger] [info]" prefix.
std::vector<std::string> astraLogLines(const RunResult& result);
/// The headline, per-NPU spread, per-collective times, per-dimension traffic and utilization.
void printRunSummary(std::ostream& out, const SimulationSpec& spec, const RunResult& result);
/// The result as JSON (docs/result-format.md).
void writeResultJson(const RunResult& result, const SimulationSpec& spec, const std::string& path);

} // namespace astrolabe::cli
