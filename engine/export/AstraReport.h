#pragma once
// ASTRA-sim's console report (spec §8.1). RunResult::reportLines holds each message as
// "[<logger>] <message>" (e.g. "[workload] sys[0] finished, 117780 cycles, ..."), optionally with
// a level: "[<logger>] [<level>] <message>" for non-info lines ("[system] [warning] Exiting").
// This writer adds ASTRA-sim's prefix shape:
//   [YYYY-MM-DD HH:MM:SS.mmm] [<logger>] [<level>] <message>
// A line without a "[logger] " prefix is printed with logger "astra".

#include "record/RunResult.h"

#include <chrono>
#include <iosfwd>
#include <string>

namespace astrolabe {

/// Writes every report line with the timestamp `when` (local time, millisecond precision).
void writeAstraReport(
    std::ostream& out, const RunResult& result,
    std::chrono::system_clock::time_point when = std::chrono::system_clock::now());

/// One report line with its prefix; exposed for tests.
std::string formatAstraLine(const std::string& line, const std::string& timestamp);
/// "YYYY-MM-DD HH:MM:SS.mmm" in local time.
std::string astraTimestamp(std::chrono::system_clock::time_point when);

} // namespace astrolabe
