#pragma once
// The lenient reading of a trace as PyTorch's Chakra converter writes it: dependencies on the
// root and process nodes it leaves out, nodes listed as their own parent, operator-tree links
// that close cycles, CPU-side collective calls, collectives known only by their c10d / NCCL name.
// Each rule is one Assumption kind, documented in docs/real-traces.md; a strict load applies
// none of them and refuses such traces instead.

#include "trace/WorkloadNode.h"

#include <string>
#include <vector>

namespace astrolabe {

/// Applies every rule to one NPU's trace in place and adds what it assumed to
/// trace.assumptions. What no rule covers (an unknown collective name, a missing comm_size, a
/// duplicate id) is left as it is, for the validator to refuse. The result passes the strict
/// dependency checks whenever its ids are unique. O(nodes + dependencies) time and memory.
void repairTrace(WorkloadTrace& trace);

/// One line per kind assumed in any of `traces`, in Assumption order, e.g.
/// "absent-parent: 1277 dependencies on nodes absent from the file, counted as met (210 absent
/// ids, counted per trace; first at node 216 of w.0.et; in 1 trace)". Empty when nothing was
/// assumed.
std::vector<std::string> assumptionLines(const std::vector<WorkloadTrace>& traces);

} // namespace astrolabe
