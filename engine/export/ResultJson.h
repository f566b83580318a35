#pragma once
// The full RunResult as JSON (schema in docs/result-format.md, "format": "astrolabe-result",
// "version": 1). Times are nanoseconds as JSON numbers (picosecond resolution, so a time may
// carry up to three decimals: 936.25). Sizes are bytes, bandwidths bytes per second.
//
// Cost: O(size of the result); a 10-million-interval run makes a JSON of about 1 GB, so callers
// exporting very large runs should prefer CSV or the Perfetto exporter (which has a size budget).

#include "record/RunResult.h"

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>

namespace astrolabe {

struct SimulationSpec;

nlohmann::json resultToJson(const RunResult& result);
/// resultToJson plus, when spec is given, its normalized configuration under "configuration".
void writeResultJson(std::ostream& out, const RunResult& result,
                     const SimulationSpec* spec = nullptr);

/// SimTime as the JSON number of nanoseconds used throughout the exports.
double jsonNs(SimTime t);

} // namespace astrolabe
