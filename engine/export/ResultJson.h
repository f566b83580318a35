#pragma once
// The full RunResult as JSON (schema in docs/result-format.md, "format": "astrolabe-result",
// "version": 1). Times are nanoseconds as JSON numbers (picosecond resolution, so a time may
// carry up to three decimals: 936.25). Sizes are bytes, bandwidths bytes per second.
//
// resultToJson builds the whole tree (for tests and small runs); writeResultJson streams it.
// A 10-million-interval run makes a JSON of about 1.5 GB.

#include "record/RunResult.h"

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>

namespace astrolabe {

struct SimulationSpec;

nlohmann::json resultToJson(const RunResult& result);
/// The same document as resultToJson, streamed (memory independent of the run size), plus
/// "configuration" when spec is given and the members of `extra` (an object) when given.
void writeResultJson(std::ostream& out, const RunResult& result,
                     const SimulationSpec* spec = nullptr, const nlohmann::json* extra = nullptr);

/// SimTime as the JSON number of nanoseconds used throughout the exports.
double jsonNs(SimTime t);

} // namespace astrolabe
