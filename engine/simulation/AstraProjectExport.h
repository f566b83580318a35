#pragma once
// A whole project as ASTRA-sim 2.x inputs (astrolabe-cli export-astra): the network YAML, the
// system JSON, the remote-memory JSON, communicator groups and the workload's traces, plus the
// command line that runs them, and what ASTRA-sim would do differently.

#include "spec/SimulationSpec.h"

#include <string>
#include <vector>

namespace astrolabe {

/// What ASTRA-sim 2.x cannot run, or runs differently, in `spec`, one sentence each naming the
/// project key: in-switch algorithms, pooled memory, and every Astrolabe-only setting that differs
/// from its default (derived from the settings schema's compatibility column). Empty: the same run.
std::vector<std::string> astraExportDifferences(const SimulationSpec& spec);

struct AstraExportFiles {
    std::string network, system, memory, commGroups; ///< paths written (commGroups may be "")
    std::string workloadPrefix;                      ///< the traces' prefix
    std::vector<std::string> arguments;              ///< ASTRA-sim's flags, in its order
};

/// Writes the inputs into `folder` (created): network.yml, system.json, remote_memory.json,
/// comm_groups.json (when there are groups), per_node_custom.yml (when used) and, for a
/// microbenchmark, its traces under workload/. A Chakra workload is referenced where it is.
/// Throws astrolabe::Error for a graph platform (ASTRA-sim takes dimension stacks only).
AstraExportFiles exportAstraInputs(const SimulationSpec& spec, const std::string& folder);

} // namespace astrolabe
