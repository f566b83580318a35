#pragma once
// The graph editor's edits as plain functions on a GraphSpec, so that they can be tested without
// a widget. Device ids follow GraphSpec's convention (NPUs 0..npus-1, then switches), so adding
// an NPU or removing a device renumbers the devices after it; every function that does returns
// the renumbering (old id -> new id, -1 when removed) for the caller's positions and selection.
#include "spec/GraphSpec.h"

#include <set>
#include <string>
#include <vector>

namespace astrolabe::widgets {

/// Adds an NPU (after the last NPU) or a switch (after the last switch). Returns the new id;
/// `renumber` (if given) maps the old ids to the new ones.
int addGraphDevice(GraphSpec& graph, bool isSwitch, std::vector<int>* renumber = nullptr);

/// Removes the given devices, every link that touches them and the given links (indices).
/// Returns old id -> new id (-1 for a removed device).
std::vector<int> removeGraphItems(GraphSpec& graph, const std::set<int>& devices,
                                  const std::set<int>& links);

/// A bidirectional link from -> to with the bandwidth and latency of the graph's first link
/// (100 GB/s and 100 ns in an empty graph), appended. Returns its index.
int addGraphLink(GraphSpec& graph, int from, int to);

/// graphProblems() and what the file format allows but is almost certainly a slip: a second
/// link between the same two devices in the same direction ("duplicate link").
std::vector<GraphProblem> graphEditorProblems(const GraphSpec& graph);

} // namespace astrolabe::widgets
