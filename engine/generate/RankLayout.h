#pragma once
// Placement of the parallel dimensions onto NPU ranks, and the communicator groups that follow.
//
// A rank has coordinates (tp, dp, pp). The placement lists the dimensions innermost first; the
// default "tp,dp,pp" gives rank = tp + TP * (dp + DP * pp) (Megatron's order): a tensor-parallel
// group is TP consecutive ranks, so it lands on the platform's first (fastest) dimension when
// that dimension has >= TP NPUs; data-parallel peers are TP apart; pipeline stages are
// TP * DP apart, on the outer dimensions. Expert parallelism is carved out of dp: the ep group of
// a rank is the block of EP consecutive dp indices that holds it (same tp, same pp).
//
// Context parallelism (cp > 1) adds a cp index right after tp: the placement's tp entry stands
// for tp x cp consecutive blocks (rank = tp + TP * cp + ...), Megatron's tp-cp-dp-pp order; the
// data-parallel group then spans dp x cp (gradients are reduced over both, as in Megatron).
//
// Groups are numbered from 1 in the order TP, PP, DP, EP, expert-DP, stage-DP, embedding (first
// and last stage, tied embeddings), CP, each kind in
// ascending order of its lowest rank. A group with one member is not created (no collective is
// emitted over it), and a member list already registered under another kind keeps its first id.
// Members are listed in ascending rank order (ASTRA-sim indexes groups by the sorted list).

#include "generate/GeneratorSpec.h"
#include "generate/LayerProgram.h"
#include "spec/SimulationSpec.h"

#include <array>
#include <string>
#include <vector>

namespace astrolabe::generate {

/// Members of every group of `kind` (1 for None); needs no enumeration of ranks.
int groupSizeOf(GroupKind kind, const ParallelSpec& parallel);

/// Which platform dimensions each parallel group spans, given the platform's NPUs per dimension
/// (dimension 0 = consecutive ranks), e.g. "tp 8: dim 0; dp 16: dims 1-2; pp 8: dim 2". A group of
/// stride st and size n covers rank offsets [st, st n); dimension d covers [D_d, D_d n_d) with
/// D_d = n_0 ... n_(d-1); the group spans d when the two ranges overlap. Groups that only partly
/// fill a dimension share its links with their neighbours. Empty dims: "".
std::string placementSummary(const ParallelSpec& parallel, const std::vector<int>& dimensions);

struct RankCoordinates {
    int tp = 0, dp = 0, pp = 0;
    int cp = 0; ///< context-parallel index: placed right after tp (stride tp's x TP)
};

class RankLayout {
public:
    explicit RankLayout(const ParallelSpec& parallel);

    int npus() const { return m_tp * m_cp * m_dp * m_pp; }
    int rank(const RankCoordinates& c) const;
    RankCoordinates coordinates(int rank) const;

    /// Group id of `rank` for `kind`, 0 when the group has a single member (or kind is None).
    int groupId(GroupKind kind, int rank) const;
    /// Number of members of `rank`'s group of `kind` (1 for None).
    int groupSize(GroupKind kind) const;
    const CommGroups& groups() const { return m_groups; }

private:
    std::vector<int> members(GroupKind kind, const RankCoordinates& c) const;

    ParallelSpec m_parallel;
    int m_tp, m_dp, m_pp, m_ep, m_cp;
    std::array<int, 4> m_stride{}; ///< tp, dp, pp, cp
    CommGroups m_groups;
    /// Per rank, per kind (indexed by GroupKind), the group id.
    std::vector<std::array<int, 10>> m_ids;
};

} // namespace astrolabe::generate
