#pragma once
// A graph from a plain edge list (docs/graph-platforms.md, "Files"):
//
//   from,to,bandwidth,latency[,bidirectional]
//   npu0,sw0,50 GB/s,500 ns,true
//
// Units as in project files; bidirectional defaults to true. Errors name file, line and column
// (field), what was expected and what was found; they are collected and thrown together as an
// ErrorList. The file is bounded like every text input (kMaxTextInputBytes).

#include "spec/GraphSpec.h"

#include <string>
#include <vector>

namespace astrolabe {

/// npus/switches < 0: the highest npuK / swK named, plus one.
GraphSpec parseGraphEdgeCsv(const std::string& text, const std::string& fileName, int npus = -1,
                            int switches = -1);
GraphSpec loadGraphEdgeCsv(const std::string& path, int npus = -1, int switches = -1);
/// The graph's links as such a file (header included), read back by parseGraphEdgeCsv to the
/// same links.
std::string graphEdgeCsvText(const GraphSpec& graph);

/// Links of a graph as a user wrote it that join two devices a link already joins in the same
/// direction: the routes take one link per direction between two devices, so the second one's
/// bandwidth would go unused. Each names the link (index) and the first one (by its line when
/// known). Graphs made from a dimension stack are not checked with this: their parallel links
/// are the stack's.
std::vector<GraphProblem> repeatedLinks(const GraphSpec& graph);

} // namespace astrolabe
