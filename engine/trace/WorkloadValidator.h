#pragma once
// The checks loadWorkload runs, usable on traces built in memory (generators, tests).

#include "trace/WorkloadLoader.h"
#include "trace/WorkloadNode.h"

#include <vector>

namespace astrolabe {

class ErrorCollector;

/// One NPU's trace on its own: ids, dependencies (unknown parents, cycles, a dependency-free
/// start), required attributes per node type, collective types and dimensions, issuing rank.
void validateTrace(const WorkloadTrace& trace, int rank, int npuCount, const LoadOptions& options,
                   ErrorCollector& errors);

/// Across all ranks: every SEND must meet a RECV with equal (src, dst, tag, size) and vice
/// versa (k-th with k-th). Unmatched ones are listed with the nearest candidate, saying whether
/// the size or the tag differs. traces[i] is rank i.
void validateSendRecvPairs(const std::vector<WorkloadTrace>& traces, ErrorCollector& errors);

/// Both of the above over all ranks; throws ErrorList when anything is wrong.
void validateWorkload(const std::vector<WorkloadTrace>& traces, const LoadOptions& options);

} // namespace astrolabe
