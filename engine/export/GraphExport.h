#pragma once
// A graph platform as Graphviz DOT or GraphML (docs/graph-platforms.md, "Files"). Dimension
// stacks are exported through graphOfStack() by the caller. Every device is a node ("npuK",
// "swK"); every link an edge with its bandwidth (bytes/s) and latency (ns). O(devices + links).

#include "spec/GraphSpec.h"

#include <string>

namespace astrolabe {

std::string graphDot(const GraphSpec& graph, const std::string& name = "platform");
std::string graphGraphMl(const GraphSpec& graph);

} // namespace astrolabe
