#pragma once
// A graph platform's logical dimensions (docs/graph-platforms.md, "Collectives"): the dimensions
// collectives plan over, sizes multiplying to the graph's NPU count. One set of rules for the
// project reader and the graph editor.
#include "spec/PlatformSpec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe {

/// The most logical dimensions a graph may have (as many as a dimension stack's).
constexpr size_t kMaxLogicalDimensions = 8;
/// Why `size` cannot be one of a graph's logical dimensions (empty when it can): at least 2 and
/// at most the graph's NPUs.
std::string logicalDimensionSizeProblem(int64_t size, int npus);
/// Why `sizes` cannot be the logical dimensions of a graph of `npus` NPUs (empty when they
/// can): 1 to kMaxLogicalDimensions sizes, each fine by logicalDimensionSizeProblem(),
/// multiplying to the NPU count. The project reader and the graph editor say the same.
std::string logicalDimensionsProblem(const std::vector<int64_t>& sizes, int npus);
/// The logical dimensions of these sizes: graphDimension(graph)'s nominal bandwidth and latency.
std::vector<DimensionSpec> logicalDimensions(const GraphSpec& graph,
                                             const std::vector<int64_t>& sizes);

} // namespace astrolabe
