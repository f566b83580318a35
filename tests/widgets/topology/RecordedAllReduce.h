#pragma once
// An all-reduce microbenchmark with every message recorded (RunOptions::recordTransfers), for
// the animation's tests and benchmark. Golden defaults: 50 GB/s, 500 ns links.
#include "engine/golden/GoldenSpec.h"

#include <vector>

namespace astrolabe::test {

inline SimulationSpec recordedAllReduce(std::vector<DimensionSpec> dims, const char* algorithm,
                                        uint64_t bytes) {
    SimulationSpec s = golden::spec(std::move(dims), algorithm);
    s.options.recordTransfers = true;
    s.workload.kind = WorkloadSource::Kind::Microbenchmark;
    s.workload.microbenchmark.sizeBytes = bytes;
    return s;
}

} // namespace astrolabe::test
