#pragma once
// Writing ASTRA-sim 2.x input files from validated specs ("export to ASTRA-sim"), so a design
// made in Astrolabe can be run by ASTRA-sim itself. Each text reads back, through the matching
// loader, to the same values. The network YAML writer is writeAstraNetworkYaml
// (AstraNetworkConfig.h).

#include "spec/MemoryConfig.h"
#include "spec/SimulationSpec.h"
#include "spec/SystemConfig.h"

#include <string>

namespace astrolabe {

/// System JSON with every key ASTRA-sim reads. "endpoint-delay" is written only when it was
/// configured, as its value before --injection-scale (pass the scale on ASTRA-sim's command
/// line). Per-node custom collectives live in a separate YAML: write it with
/// writePerNodeCustomYaml and pass its path as `perNodeCustomFile` (ignored when empty).
std::string writeAstraSystemJson(const SystemConfig& system,
                                 const std::string& perNodeCustomFile = {});
/// `<workload node id>: <custom ET prefix>` lines.
std::string writePerNodeCustomYaml(const SystemConfig& system);
std::string writeAstraRemoteMemoryJson(const RemoteMemoryConfig& memory);
/// {"1": [0, 1, 2, 3], ...}; an empty map gives "{}".
std::string writeCommGroupsJson(const CommGroups& groups);

} // namespace astrolabe
