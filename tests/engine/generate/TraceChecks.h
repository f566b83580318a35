#pragma once
// Structural checks every generated workload must pass, shared by the generator tests.

#include "generate/WorkloadGenerator.h"
#include "spec/SimulationSpec.h"

#include <string>
#include <vector>

namespace astrolabe::generate::test {

/// Empty when the workload is well formed; otherwise one message per problem (first few):
/// ids unique, every dependency names an earlier node of the same trace (so the graph is
/// acyclic), at least one dependency-free node, every SEND matched by exactly one RECV on the
/// destination with the same (tag, src, dst, size) and vice versa, every collective's group
/// exists and contains the rank, and all members of a group issue the same sequence of
/// (type, size) collectives on it.
std::vector<std::string> wellFormednessProblems(const GeneratedWorkload& workload);

struct NodeCounts {
    int comp = 0, send = 0, recv = 0, coll = 0;
    int total() const { return comp + send + recv + coll; }
};
NodeCounts countNodes(const WorkloadTrace& trace);

/// Collectives of one type and size on a trace.
int countCollectives(const WorkloadTrace& trace, CollectiveType type, uint64_t size);

/// A run of `workload` on one Switch of all its ranks whose links are next to free (10^18 B/s,
/// 0 ns), every collective one chunk by ring and local memory next to free (10^9 GB/s): what is
/// left is compute, the pipeline's dependencies and remote memory. Tests add what they measure.
SimulationSpec idealSwitchSpec(const GeneratedWorkload& workload);

/// The trace's node of that name (a test failure and an empty node when there is none).
const WorkloadNode& nodeNamed(const WorkloadTrace& trace, const std::string& name);

} // namespace astrolabe::generate::test
