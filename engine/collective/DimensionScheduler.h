#pragma once
// Inter-dimension scheduling: the order in which a chunk visits the dimensions (spec §5.10).
// ASTRA-sim 2.x has this code but never lets a configuration reach it; we honour
// "inter-dimension-scheduling". docs/themis.md has the model, the measurements and the reasons.
//
//   ascending          natural order (descending for all-gather), ASTRA-sim's behaviour
//   roundRobin         chunk c starts at the c-th dimension (rotation)
//   themisGreedy       Themis' greedy rule as published (Rashidi et al., ISCA'22): a per-dimension
//                      load tracker in time (a phase costs its algorithm's steps x latency plus its
//                      bytes over the dimension's bandwidth, FullyConnected links in parallel,
//                      plus, for a reduce-scatter, the reduction in local memory); each chunk
//                      visits the dimensions least loaded first (so the least loaded takes its
//                      largest reduce-scatter step), all-gather in reverse.
//   themis             a search on the same cost model (Astrolabe's): for every chunk the
//                      dimension order that balances the dimensions best:
//                      each candidate order (all orders up to five dimensions) is played through a
//                      small replay of the collective (every dimension serves one chunk at a time,
//                      first come first served, like the engine's queues) together with the chunks
//                      already placed and those still to come (in natural order, or all in the
//                      candidate's order, whichever ends sooner); the order that ends the
//                      collective soonest wins (ties: smaller sum of chunk finish times, then
//                      natural order); beyond five dimensions the greedy rule's order is the one
//                      candidate. All-gather mirrors reduce-scatter; an all-reduce is
//                      reduce-scatter over the order, then all-gather in reverse. All-to-all
//                      keeps the natural order under both.
//   offlineGreedy      ASTRA-sim's own Themis code, cycle-exact: loads in MiB-equivalents
//                      normalised to dimension 0's bandwidth; least-loaded dimension first when
//                      the spread exceeds chunk/16, natural order otherwise:
//                        RS of x bytes on d: load_d += (x / 2^20) * ((n_d - 1) / n_d) / (B_d / B_0)
//                        AG of x bytes on d: load_d += (x / 2^20) * (n_d - 1) / (B_d / B_0)
//   offlineGreedyFlex  as offlineGreedy (ASTRA-sim's chunk resizing is not modelled; documented)
// Loads restart with every collective: every NPU computes the same schedule.

#include "spec/PlatformSpec.h"
#include "spec/SystemConfig.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

class DimensionScheduler {
public:
    /// Themis' chunk orders per collective signature (kind, chunk bytes, chunk count, active
    /// dimensions): every NPU of a run computes the same schedule, so they may share it.
    using Plans = std::map<std::string, std::vector<std::vector<int>>>;

    /// One entry per logical dimension; `system` gives the algorithm each dimension runs;
    /// `storeAndForwardSwitches` for the congestion-aware network model.
    DimensionScheduler(InterDimensionScheduling policy, std::vector<DimensionSpec> dimensions,
                       const SystemConfig& system, std::shared_ptr<Plans> plans = nullptr,
                       bool storeAndForwardSwitches = false);
    /// Sizes and bandwidths only (ring algorithms, no latency): enough for offlineGreedy.
    DimensionScheduler(InterDimensionScheduling policy, std::vector<int> sizes,
                       std::vector<double> bandwidths);

    /// A new collective of `chunks` chunks starts: loads restart.
    void beginCollective(int chunks = 1);
    /// The visiting order for the next chunk: a permutation of `active` (ascending indices).
    std::vector<int> orderFor(CollectiveKind kind, uint64_t chunkBytes, std::vector<int> active);
    bool splitsAllReduce() const;

    /// Themis' cost model: nanoseconds for one phase of `kind` with `inputBytes` per NPU on
    /// dimension `d` (reduce-scatter: input is the whole chunk; all-gather: input is one shard).
    /// `collective` picks the dimension's algorithm, `phase` the step (RS, AG) being costed.
    double phaseNs(CollectiveKind collective, CollectiveKind phase, int d, double inputBytes) const;

private:
    std::vector<int> offlineGreedyOrder(CollectiveKind kind, uint64_t chunkBytes,
                                        const std::vector<int>& active, std::vector<int> natural);
    void account(CollectiveKind kind, uint64_t chunkBytes, const std::vector<int>& order);
    /// Themis' greedy rule as published: the active dimensions by their load so far in this
    /// collective (ns of the phases placed on them), least loaded first, so that it takes the
    /// chunk's largest reduce-scatter step; all-gather in reverse (its largest step is last).
    std::vector<int> greedyOrder(CollectiveKind kind, const std::vector<int>& active) const;
    std::vector<int> themisOrder(CollectiveKind kind, uint64_t chunkBytes,
                                 const std::vector<int>& active, const std::vector<int>& natural);
    struct Estimate {
        double makespan = 0;  ///< ns from the collective's start until its last chunk is done
        double finishSum = 0; ///< sum of the chunks' finish times
    };
    /// Replays the collective's chunks so far, one more taking `order` and the chunks still to
    /// come in `rest` order: every chunk is ready at the start, each dimension serves one phase
    /// at a time in arrival order (FIFO, one active chunk per dimension, as the collective
    /// engine's queues do).
    Estimate replay(CollectiveKind kind, double bytes, const std::vector<int>& order,
                    const std::vector<int>& rest) const;
    /// What taking `order` for this chunk leads to: the better of two continuations, the
    /// chunks still to come in natural order or all in `order`.
    Estimate outlook(CollectiveKind kind, double bytes, const std::vector<int>& order,
                     const std::vector<int>& natural) const;
    /// The (dimension, cost in ns) steps of one chunk taking `order`.
    std::vector<std::pair<int, double>> stepsOf(CollectiveKind kind, double bytes,
                                                const std::vector<int>& order) const;

    InterDimensionScheduling m_policy;
    std::vector<DimensionSpec> m_dims;
    std::array<std::vector<AlgorithmKind>, 4> m_algorithms;    ///< per collective kind, per dim
    std::vector<double> m_relativeBandwidth;                   ///< B_d / B_0
    std::vector<double> m_load;                                ///< offlineGreedy
    std::vector<std::vector<std::pair<int, double>>> m_chunks; ///< themis*: this collective's
    int m_totalChunks = 1;
    std::shared_ptr<Plans> m_plans;
    bool m_storeAndForward = false; ///< congestion-aware: a switch step serialises twice
    /// ns per byte a reduce-scatter phase spends reducing what it receives in local memory
    /// (read two operands, write one: 3 x bytes / local-memory bandwidth), 0 without one.
    double m_reduceNsPerByte = 0;
    uint64_t m_chunkIndex = 0;
};

} // namespace astrolabe
