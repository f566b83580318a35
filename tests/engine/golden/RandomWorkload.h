#pragma once
// Small random workloads for differential tests of symmetry and rank folding: a platform of one
// to three dimensions, and traces built from one template of compute, whole-machine and
// sub-group collectives and shifted send/recv pairs, so that every NPU does the same work up to
// a coordinate shift. Most workloads then get one deliberate small asymmetry.

#include "spec/SimulationSpec.h"
#include "trace/WorkloadNode.h"

#include <cstdint>
#include <string>
#include <vector>

namespace golden {

enum class Asymmetry {
    None,     ///< every NPU does the same work up to a shift
    NodeSize, ///< one NPU's compute node runs longer
    Peer,     ///< two NPUs exchange the destinations of one send (and their receivers the sources)
    Group,    ///< two NPUs change places between, or within, communicator groups
};
const char* asymmetryName(Asymmetry a);

struct RandomWorkload {
    astrolabe::SimulationSpec spec;
    std::vector<astrolabe::WorkloadTrace> traces;
    Asymmetry asymmetry = Asymmetry::None;
    std::string description; ///< platform, template and asymmetry, to reproduce a failure
};

/// The workload of `seed` (the same seed gives the same workload) under `backend`.
RandomWorkload randomWorkload(uint64_t seed, astrolabe::NetworkBackend backend);

} // namespace golden
