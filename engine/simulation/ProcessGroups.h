#pragma once
// PyTorch process groups carried by METADATA nodes (spec §1.4, §2.8). A METADATA node's
// inputs.values is a Python repr wrapping JSON; ASTRA-sim strips the first two and last two
// characters and reads a JSON array of {"pg_name": "<k>", "ranks": [...]} (empty ranks = all
// NPUs). Collectives then select the group by pg_name, so it is registered under key k and
// overrides a group of the same id from the comm-group file.

#include "spec/SimulationSpec.h"
#include "trace/WorkloadNode.h"

#include <vector>

namespace astrolabe {

/// The communicator groups of `base` plus every group METADATA nodes declare. Throws
/// astrolabe::Error naming the file and node when a METADATA payload cannot be read.
CommGroups withProcessGroups(const CommGroups& base, const std::vector<WorkloadTrace>& traces,
                             int npuCount);

/// Throws astrolabe::Error naming the trace file, the node and the group when a collective names
/// a communicator group (pg_name) that `groups` does not define, before anything runs.
void checkGroupsDefined(const CommGroups& groups, const std::vector<WorkloadTrace>& traces);

} // namespace astrolabe
