#pragma once
// Closed forms of the collectives the generated iteration issues, per platform dimension, as the
// congestion-unaware analytical network times them (docs/planner.md):
//
//   a message between two NPUs takes  hops_d x latency_d + bytes / bandwidth_d  on the lowest
//   dimension d whose coordinates differ (network/CongestionUnawareNetwork.h);
//   a communicator group's collective is one ring over its members in rank order
//   (collective/PhasePlan.h), so every step of it runs on the dimension that holds the group's
//   smallest rank distance (its stride), and the step takes one message's time plus the
//   endpoint delay;
//   ring all-reduce over n members: 2(n-1) steps of S/n bytes, the n-1 reducing ones also
//   3 S/n at the local memory bandwidth (two operands read, one written); reduce-scatter: n-1
//   such steps; all-gather of a shard s: n-1 steps of s; all-to-all: n(n-1)/2 steps of S/n
//   (the ring relays every pair's block). Direct algorithms: one step per phase of S/n.
//   A group of every NPU is no ring but one phase per dimension (machineSeconds): dimension i
//   carries S / (n_0 ... n_{i-1}) in n_i - 1 steps, as the simulator's dimension phases do.
//   Halving-doubling: the ring's bytes, log2 n latencies.
//
// Units: seconds, bytes. Pure; O(dimensions) per call.

#include "core/Collectives.h"
#include "spec/SimulationSpec.h"

#include <vector>

namespace astrolabe::plan {

class NetworkCosts {
public:
    /// Throws astrolabe::Error (Unsupported) for a graph platform: its routes have no closed
    /// form here.
    NetworkCosts(const PlatformSpec& platform, const SystemConfig& system);

    /// The dimension that carries a group whose members are `stride` ranks apart: the lowest
    /// whose coordinate the stride changes (the simulator's rule for a message); the last
    /// dimension when the stride is past the platform.
    int dimensionOfStride(long stride) const;

    /// The highest dimension whose coordinate differs between NPUs `distance` ranks apart (a
    /// group's farthest members): the dimension a group of `members` at `stride` reaches when
    /// given (members - 1) x stride.
    int highestDimensionOf(long distance) const;

    /// What of a stride the message times depend on (its dimension and, on a ring, its hops):
    /// two strides of one class time every message and collective alike.
    long strideClass(long stride) const;

    /// One message of `bytes` between NPUs `stride` ranks apart.
    double messageSeconds(double bytes, long stride) const;

    /// A collective of the generator's comm_size convention (all-gather: the per-rank shard;
    /// the others: the full input) over `members` NPUs whose smallest distance is `stride`.
    double collectiveSeconds(CollectiveType type, int members, double commBytes, long stride) const;

    /// The same collective as the NPU's collective queues see it: (queue, seconds) per phase, in
    /// the order they run. A communicator group's ring is one phase on queue 0 (the simulator
    /// queues every group's ring there, whatever dimension carries it); a group of every NPU
    /// is one phase per dimension on that dimension's queue (reduce-scatter innermost first,
    /// all-gather outermost first, all-reduce both).
    struct Phase {
        int queue = 0;
        double seconds = 0;
    };
    std::vector<Phase> collectivePhases(CollectiveType type, int members, double commBytes,
                                        long stride) const;

    int npus() const { return m_npus; }
    int dimensions() const { return static_cast<int>(m_dims.size()); }

private:
    /// A collective over every NPU: the simulator runs it as one phase per dimension
    /// (collective/PhasePlan.h), not as one ring; `bytes` is the whole input (all-gather: its
    /// output).
    double machineSeconds(CollectiveType type, double bytes) const;
    /// Its phases: (dimension, seconds), in the order the simulator runs them.
    std::vector<Phase> machinePhases(CollectiveType type, double bytes) const;
    bool isMachineRing(CollectiveType type, int members) const;

    struct Dimension {
        BlockKind kind = BlockKind::Ring;
        int size = 1;
        long below = 1; ///< NPUs of the dimensions below (the rank distance of a unit step)
        double bytesPerSecond = 1;
        double latencySeconds = 0;
    };
    std::vector<Dimension> m_dims;
    std::vector<AlgorithmKind> m_algorithm; ///< per CollectiveType, the group ring's algorithm
    double m_endpointSeconds = 0;
    double m_localMemoryBytesPerSecond = 0; ///< 0: reductions cost nothing
    int m_npus = 1;
};

} // namespace astrolabe::plan
