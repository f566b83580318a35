#pragma once
// When every NPU provably does the same thing at the same time, simulate one.
//
// The rule: the platform (a product of rings, fully connected blocks and switches) looks the
// same from every NPU under translation of coordinates, routing commutes with translation, and
// if every NPU runs the same trace with collectives whose algorithm commutes with translation
// (ring and direct per dimension; not the double binary tree, whose ranks play different roles,
// nor halving-doubling or whole-machine rings), every NPU's timeline is identical. NPU 0 is
// simulated; each of its sends also stands for the mirror-image message its peer sends to it, which
// has the same delay. Under the congestion-aware model each class of translated links is one FIFO
// server that sees all translated copies of NPU 0's messages. Results are identical to a full run
// (a test compares them on every reference case); the cost drops by a factor N.

#include "record/RunResult.h"
#include "spec/SimulationSpec.h"
#include "topology/Topology.h"
#include "trace/WorkloadNode.h"

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace astrolabe {

/// Why no run of this spec may skip NPUs, whatever its traces (symmetry off, transfers recorded,
/// rendezvous, custom collectives); empty when symmetric and folded runs may (RankFolding.h).
std::string runSymmetryObstacle(const SimulationSpec& spec);
/// Whether any collective's algorithm list names one of `kinds`.
bool usesAlgorithm(const SystemConfig& system, std::initializer_list<AlgorithmKind> kinds);

/// Empty when the run is symmetric; otherwise why not (for logs and tests).
std::string symmetryObstacle(const SimulationSpec& spec, const std::vector<WorkloadTrace>& traces);

/// Appends copies - 1 copies of every per-NPU record (activities, phase and collective spans,
/// tensor lifetimes): copy k (1 .. copies - 1) of a record of NPU n belongs to npuOf(k, n).
void replicateRecords(RunResult& result, int copies, const std::function<int(int, int)>& npuOf);
/// A representative's report line as NPU `to` prints it: "sys[from]" renamed "sys[to]".
std::string renameNpuTag(std::string line, int from, int to);

/// Copies NPU 0's summary, activities, spans and memory usage to every NPU, in NPU order.
void replicateRepresentative(RunResult& result, const std::vector<std::string>& npu0Lines);

} // namespace astrolabe
