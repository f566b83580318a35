#pragma once
// Inter-dimension scheduling: the order in which a chunk visits the dimensions (spec §5.10).
// ASTRA-sim 2.x has this code but never lets a configuration reach it; we honour
// "inter-dimension-scheduling".
//
//   ascending   natural order (descending for all-gather), ASTRA-sim's behaviour
//   roundRobin  chunk c starts at the c-th dimension (rotation)
//   themis      Themis (Rashidi et al., ISCA'22): keep a per-dimension load in MiB-equivalents
//               normalised to dimension 0's bandwidth; each chunk visits the least-loaded
//               dimensions first when the spread between the least and most loaded exceeds
//               chunk/16, natural order otherwise. An all-reduce becomes reduce-scatter over the
//               chosen order, then all-gather in reverse (no turning all-reduce phase).
//                 RS of x bytes on d: load_d += (x / 2^20) * ((n_d - 1) / n_d) / (B_d / B_0), x /=
//                 n_d AG of x bytes on d: load_d += (x / 2^20) * (n_d - 1) / (B_d / B_0), x *= n_d
//   themisFlex  as themis (chunk resizing is not modelled; documented difference)
// Loads restart with every collective: every NPU computes the same schedule.

#include "config/SystemConfig.h"

#include <cstdint>
#include <vector>

namespace astrolabe {

class DimensionScheduler {
public:
    /// One entry per logical dimension: its size and its link bandwidth.
    DimensionScheduler(InterDimensionScheduling policy, std::vector<int> sizes,
                       std::vector<double> bandwidths);

    void beginCollective();
    /// The visiting order for the next chunk: a permutation of `active` (ascending indices).
    std::vector<int> orderFor(CollectiveKind kind, uint64_t chunkBytes, std::vector<int> active);
    bool splitsAllReduce() const;

private:
    void account(CollectiveKind kind, uint64_t chunkBytes, const std::vector<int>& order);

    InterDimensionScheduling m_policy;
    std::vector<int> m_sizes;
    std::vector<double> m_relativeBandwidth; ///< B_d / B_0
    std::vector<double> m_load;
    uint64_t m_chunkIndex = 0;
};

} // namespace astrolabe
