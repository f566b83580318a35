#pragma once
// ASTRA-sim 2.x system configuration JSON (spec §3), plus the scheduling keys 2.x ignores but
// Astrolabe honours (intra-/inter-dimension-scheduling, spec §5.10).

#include "spec/SystemConfig.h"
#include "spec/SystemNames.h"

#include <string>
#include <vector>

namespace astrolabe {

/// Reads a system JSON. `injectionScale` is the --injection-scale flag: when "endpoint-delay" is
/// in the file, endpointDelayNs = trunc(value * injectionScale) (the built-in 10 is not scaled).
/// Throws ErrorList with every problem of the file. Keys ASTRA-sim 2.x ignores (unknown keys,
/// a nonzero "boost-mode") are accepted with a warning appended to `warnings` when not null.
/// "per-node-custom-implementation" is loaded here (its path is taken as written, i.e. relative
/// to the working directory as upstream does, falling back to the JSON's folder).
SystemConfig loadAstraSystemJson(const std::string& path, double injectionScale = 1.0,
                                 std::vector<std::string>* warnings = nullptr);
/// Same, from text; `fileName` is used in messages, as sourceFile and to resolve relative paths.
SystemConfig parseAstraSystemJson(const std::string& text, const std::string& fileName,
                                  double injectionScale = 1.0,
                                  std::vector<std::string>* warnings = nullptr);

} // namespace astrolabe
