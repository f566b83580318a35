#pragma once
// Collective microbenchmarks written exactly like ASTRA-sim's examples/workload/microbenchmarks:
// one file per NPU, GlobalMetadata version "0.0.4", and on rank r one COMM_COLL_NODE with id r,
// name "<collective>_<N>npus_<size>", attributes is_cpu_op (bool_val false), comm_type and
// comm_size (int64_val), in that order. The size label uses upstream's MB = 2^20 B.

#include "trace/WorkloadNode.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

/// A communicator group (spec §2.8): id > 0 and the member ranks.
struct CommGroup {
    int id = 0;
    std::vector<int> ranks;
};

/// "all_reduce" -> AllReduce; also all_gather, reduce_scatter, all_to_all. Throws Error
/// (Validation) listing the valid names.
CollectiveType parseMicrobenchmarkCollective(const std::string& name);
/// The collectives a microbenchmark runs, by the names parseMicrobenchmarkCollective reads.
std::vector<std::string> microbenchmarkCollectiveNames();
/// AllReduce -> "all_reduce".
std::string microbenchmarkCollectiveName(CollectiveType type);
/// "all_reduce_4npus_1MB"; sizes not a whole number of MB use KB, then B.
std::string microbenchmarkLabel(CollectiveType type, int npus, uint64_t sizeBytes);

/// The traces, rank i at index i. Without groups: one node per rank as described above. With
/// groups: on each rank one node per group containing it, in the order given, pg_name = group
/// id, each depending (data_deps) on the rank's previous one; node ids r, r + N, r + 2N, ...
/// Throws Error (Validation) for npus < 1, a bad group (id <= 0, rank out of range) or a rank
/// that belongs to no group.
std::vector<WorkloadTrace> makeMicrobenchmark(CollectiveType collective, int npus,
                                              uint64_t sizeBytes,
                                              const std::vector<CommGroup>& commGroups = {});

/// Writes PREFIX.i.et for every rank; returns the file names.
std::vector<std::string> generateMicrobenchmark(CollectiveType collective, int npus,
                                                uint64_t sizeBytes,
                                                const std::vector<CommGroup>& commGroups,
                                                const std::string& prefix);

} // namespace astrolabe
