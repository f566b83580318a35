#include "generate/RankLayout.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace astrolabe::generate {

const char* groupKindName(GroupKind kind) {
    switch (kind) {
    case GroupKind::None:
        return "none";
    case GroupKind::Tp:
        return "tp";
    case GroupKind::Pp:
        return "pp";
    case GroupKind::Dp:
        return "dp";
    case GroupKind::Ep:
        return "ep";
    case GroupKind::ExpertDp:
        return "expert-dp";
    case GroupKind::StageDp:
        return "stage-dp";
    case GroupKind::World:
        return "world";
    case GroupKind::Embedding:
        return "embedding";
    case GroupKind::Cp:
        return "cp";
    }
    return "none";
}

namespace {

constexpr std::array<GroupKind, 8> kNumberedKinds{
    GroupKind::Tp,       GroupKind::Pp,      GroupKind::Dp,        GroupKind::Ep,
    GroupKind::ExpertDp, GroupKind::StageDp, GroupKind::Embedding, GroupKind::Cp};

/// Strides of tp, dp, pp and cp from the placement (validated to be a permutation of tp,dp,pp),
/// innermost first; cp sits right after tp.
std::array<long, 4> placementStrides(const ParallelSpec& p) {
    std::array<long, 4> strides{1, 1, 1, 1};
    std::stringstream in(p.placement);
    long stride = 1;
    for (std::string part; std::getline(in, part, ',');) {
        const int axis = part == "tp" ? 0 : part == "dp" ? 1 : 2;
        strides[size_t(axis)] = stride;
        if (axis == 0) {
            strides[3] = stride * p.tp;
            stride *= long(p.tp) * p.cp;
        } else {
            stride *= axis == 1 ? p.dp : p.pp;
        }
    }
    return strides;
}

} // namespace

RankLayout::RankLayout(const ParallelSpec& parallel)
    : m_parallel(parallel)
    , m_tp(parallel.tp)
    , m_dp(parallel.dp)
    , m_pp(parallel.pp)
    , m_ep(parallel.ep)
    , m_cp(parallel.cp) {
    const std::array<long, 4> strides = placementStrides(parallel);
    for (size_t axis = 0; axis < 4; ++axis)
        m_stride[axis] = int(strides[axis]); // validated: at most kMaxNpus

    const int n = npus();
    m_ids.assign(n, {});
    std::map<std::vector<int>, int> idOfMembers;
    int nextId = 1;
    for (GroupKind kind : kNumberedKinds) {
        // The group of a rank is fixed by the coordinates the kind does not vary over.
        std::map<std::array<int, 4>, int> idOfKey;
        for (int r = 0; r < n; ++r) {
            const RankCoordinates c = coordinates(r);
            std::array<int, 4> key{};
            switch (kind) {
            case GroupKind::Tp:
                key = {c.dp, c.pp, c.cp, 0};
                break;
            case GroupKind::Pp:
                key = {c.tp, c.dp, c.cp, 0};
                break;
            case GroupKind::Dp:
                key = {c.tp, c.pp, 0, 0};
                break;
            case GroupKind::Ep:
                key = {c.tp, c.dp / m_ep, c.pp, c.cp};
                break;
            case GroupKind::ExpertDp:
                key = {c.dp % m_ep, c.pp, 0, 0};
                break;
            case GroupKind::Embedding:
                key = {c.tp, c.dp, c.cp, 0};
                break;
            case GroupKind::Cp:
                key = {c.tp, c.dp, c.pp, 0};
                break;
            default:
                key = {c.pp, 0, 0, 0};
                break;
            }
            auto found = idOfKey.find(key);
            if (found == idOfKey.end()) {
                std::vector<int> list = members(kind, c);
                int id = 0;
                if (list.size() > 1) {
                    auto known = idOfMembers.find(list);
                    if (known != idOfMembers.end()) {
                        id = known->second;
                    } else {
                        id = nextId++;
                        idOfMembers.emplace(list, id);
                        m_groups.emplace(id, std::move(list));
                    }
                }
                found = idOfKey.emplace(key, id).first;
            }
            m_ids[r][static_cast<size_t>(kind)] = found->second;
        }
    }
}

int RankLayout::rank(const RankCoordinates& c) const {
    return c.tp * m_stride[0] + c.dp * m_stride[1] + c.pp * m_stride[2] + c.cp * m_stride[3];
}

RankCoordinates RankLayout::coordinates(int rank) const {
    RankCoordinates c;
    c.tp = (rank / m_stride[0]) % m_tp;
    c.dp = (rank / m_stride[1]) % m_dp;
    c.pp = (rank / m_stride[2]) % m_pp;
    c.cp = (rank / m_stride[3]) % m_cp;
    return c;
}

std::vector<int> RankLayout::members(GroupKind kind, const RankCoordinates& c) const {
    // The ranks the group spans, axis by axis (first, end, step): only the group's own ranks are
    // visited, so building every group of a layout is O(NPUs), not O(NPUs x groups).
    struct Span {
        int first, end, step;
    };
    Span tp{c.tp, c.tp + 1, 1}, dp{c.dp, c.dp + 1, 1}, pp{c.pp, c.pp + 1, 1};
    Span cp{c.cp, c.cp + 1, 1};
    const Span allTp{0, m_tp, 1}, allDp{0, m_dp, 1}, allPp{0, m_pp, 1}, allCp{0, m_cp, 1};
    switch (kind) {
    case GroupKind::Tp:
        tp = allTp;
        break;
    case GroupKind::Pp:
        pp = allPp;
        break;
    case GroupKind::Dp: // with cp > 1 the gradients are reduced over dp x cp (Megatron)
        dp = allDp;
        cp = allCp;
        break;
    case GroupKind::Cp:
        cp = allCp;
        break;
    case GroupKind::Ep:
        dp = {c.dp / m_ep * m_ep, std::min(m_dp, c.dp / m_ep * m_ep + m_ep), 1};
        break;
    case GroupKind::ExpertDp:
        tp = allTp;
        dp = {c.dp % m_ep, m_dp, m_ep};
        cp = allCp;
        break;
    case GroupKind::StageDp:
        tp = allTp;
        dp = allDp;
        cp = allCp;
        break;
    case GroupKind::World:
        tp = allTp;
        dp = allDp;
        pp = allPp;
        cp = allCp;
        break;
    case GroupKind::Embedding:
        pp = {0, m_pp, std::max(1, m_pp - 1)}; // the first and the last stage
        break;
    case GroupKind::None:
        break;
    }
    std::vector<int> out;
    for (int p = pp.first; p < pp.end; p += pp.step)
        for (int d = dp.first; d < dp.end; d += dp.step)
            for (int k = cp.first; k < cp.end; k += cp.step)
                for (int t = tp.first; t < tp.end; t += tp.step)
                    out.push_back(rank({t, d, p, k}));
    std::sort(out.begin(), out.end());
    return out;
}

int RankLayout::groupId(GroupKind kind, int rank) const {
    if (kind == GroupKind::None || kind == GroupKind::World)
        return 0;
    return m_ids.at(static_cast<size_t>(rank))[static_cast<size_t>(kind)];
}

std::string placementSummary(const ParallelSpec& parallel, const std::vector<int>& dimensions) {
    if (dimensions.empty())
        return {};
    // Strides from the placement, innermost first (as in the constructor, without enumerating).
    const std::array<long, 4> strides = placementStrides(parallel); // tp, dp, pp, cp
    std::string out;
    auto describe = [&](const char* name, int size, long stride) {
        if (size <= 1)
            return;
        std::vector<int> spanned;
        long lower = 1;
        for (size_t d = 0; d < dimensions.size(); ++d) {
            const long upper = lower * dimensions[d];
            if (stride < upper && stride * size > lower)
                spanned.push_back(int(d));
            lower = upper;
        }
        if (!out.empty())
            out += "; ";
        out += std::string(name) + " " + std::to_string(size) + ": ";
        if (spanned.empty())
            out += "beyond the platform";
        else if (spanned.size() == 1)
            out += "dim " + std::to_string(spanned.front());
        else
            out += "dims " + std::to_string(spanned.front()) + "-" + std::to_string(spanned.back());
    };
    describe("tp", parallel.tp, strides[0]);
    describe("cp", parallel.cp, strides[3]);
    describe("ep", parallel.ep, strides[1]);
    describe("dp", parallel.dp, strides[1]);
    describe("pp", parallel.pp, strides[2]);
    return out;
}

int groupSizeOf(GroupKind kind, const ParallelSpec& p) {
    switch (kind) {
    case GroupKind::None:
        return 1;
    case GroupKind::Tp:
        return p.tp;
    case GroupKind::Pp:
        return p.pp;
    case GroupKind::Dp:
        return p.dp * p.cp;
    case GroupKind::Cp:
        return p.cp;
    case GroupKind::Ep:
        return p.ep;
    case GroupKind::ExpertDp:
        return p.tp * p.cp * p.dp / p.ep;
    case GroupKind::StageDp:
        return p.tp * p.cp * p.dp;
    case GroupKind::World:
        return static_cast<int>(p.npus()); // validated: at most kMaxNpus
    case GroupKind::Embedding:
        return p.pp > 1 ? 2 : 1;
    }
    return 1;
}

int RankLayout::groupSize(GroupKind kind) const {
    return groupSizeOf(kind, m_parallel);
}

} // namespace astrolabe::generate
