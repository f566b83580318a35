#pragma once
// From a collective to its per-chunk phase list (spec §5.2): which logical ring each phase runs
// on, with which algorithm, on how many bytes, in which queue and direction.

#include "spec/SimulationSpec.h"
#include "spec/SystemConfig.h"
#include "topology/Topology.h"

#include <cstdint>
#include <vector>

namespace astrolabe {

/// The members of one phase's ring, in ring order, and this NPU's place in it.
struct LogicalRing {
    int size = 1;
    int myIndex = 0;
    int base = 0;   ///< npu of index 0 (dimension and whole-machine rings)
    int stride = 1; ///< npu distance between consecutive indices
    const std::vector<int>* members = nullptr; ///< communicator-group ring, else null
    bool local = false; ///< a sub-group ring: fixed 10 ns endpoint hop (spec §2.8, §5.3)

    int npuAt(int index) const {
        const int i = ((index % size) + size) % size;
        return members ? (*members)[static_cast<size_t>(i)] : base + i * stride;
    }
};

struct PhaseSpec {
    CollectiveKind kind = CollectiveKind::AllReduce;
    AlgorithmSpec algorithm;
    int dimension = 0; ///< network dimension, or -1 for a whole-machine / group ring
    LogicalRing ring;
    uint64_t inputBytes = 0;
    int queue = 0;
    bool clockwise = true;
    bool rootMax = true;   ///< doubleBinaryTree: which of the two trees this chunk uses
    int switchDevice = -1; ///< inSwitch: the switch that combines this phase's data
};

/// Output bytes of a phase of `kind` over n members with `input` bytes.
uint64_t phaseOutputBytes(CollectiveKind kind, int n, uint64_t input);

/// Per-NPU counters that make queue assignment round-robin.
struct QueueCursor {
    std::vector<uint32_t> roundRobin; ///< per dimension
};

class DimensionScheduler;

struct PlanInput {
    int npu = 0;
    CollectiveKind kind = CollectiveKind::AllReduce;
    uint64_t chunkBytes = 0;
    const std::vector<bool>* involvedDims = nullptr; ///< empty or null = all
    const std::vector<int>* groupMembers = nullptr;  ///< sub-group (size < N), else null
    DimensionScheduler* scheduler = nullptr;         ///< inter-dimension order, else natural
};

/// Builds one chunk's phases. Throws astrolabe::Error (Unsupported / Validation) for plans
/// that cannot run: a list longer than the platform's dimensions, halving-doubling all-to-all,
/// non-power-of-two halving-doubling or double binary tree.
std::vector<PhaseSpec> planPhases(const PlanInput& input, const Topology& topology,
                                  const SystemConfig& system, int queuesPerDim,
                                  QueueCursor& cursor);

} // namespace astrolabe
