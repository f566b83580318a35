#include "spec/AlgorithmLists.h"

#include <algorithm>
#include <bit>

namespace astrolabe {
namespace {

/// For each dimension of `after`, the index of the equal dimension of `before` it is taken to
/// be, or -1 (inserted).
std::vector<int> matchDimensions(const std::vector<DimensionSpec>& before,
                                 const std::vector<DimensionSpec>& after) {
    std::vector<bool> used(before.size(), false);
    std::vector<int> from(after.size(), -1);
    for (size_t j = 0; j < after.size(); ++j)
        for (size_t i = 0; i < before.size(); ++i)
            if (!used[i] && before[i] == after[j]) {
                used[i] = true;
                from[j] = static_cast<int>(i);
                break;
            }
    return from;
}

std::vector<AlgorithmSpec> followList(const std::vector<AlgorithmSpec>& list,
                                      const std::vector<DimensionSpec>& before,
                                      const std::vector<DimensionSpec>& after,
                                      const std::vector<int>& from, CollectiveKind kind) {
    const bool allMatched = std::none_of(from.begin(), from.end(), [](int i) { return i < 0; });
    if (spansRemainingDimensions(list) || (after.size() == before.size() && !allMatched)) {
        std::vector<AlgorithmSpec> kept = list;
        if (kept.size() > after.size())
            kept.resize(after.size());
        return kept;
    }
    const bool complete = list.size() == before.size();
    std::vector<AlgorithmSpec> out;
    size_t kept = 0; // entries of `out` that a shorter list asks for
    for (size_t j = 0; j < after.size(); ++j) {
        if (from[j] < 0) {
            out.push_back(naturalAlgorithm(after[j], kind));
            continue;
        }
        if (static_cast<size_t>(from[j]) >= list.size())
            break; // a dimension the list left out: so are the ones after it
        out.push_back(list[static_cast<size_t>(from[j])]);
        kept = out.size();
    }
    if (!complete)
        out.resize(kept); // no algorithm for a dimension inserted after the list's last one
    return out;
}

} // namespace

AlgorithmSpec naturalAlgorithm(const DimensionSpec& dimension, CollectiveKind kind) {
    switch (dimension.kind) {
    case BlockKind::Ring:
        return AlgorithmSpec{AlgorithmKind::Ring, 0};
    case BlockKind::FullyConnected:
        return AlgorithmSpec{AlgorithmKind::Direct, 0};
    case BlockKind::Switch:
        if (kind != CollectiveKind::AllToAll && dimension.size > 0 &&
            std::has_single_bit(static_cast<unsigned>(dimension.size)))
            return AlgorithmSpec{AlgorithmKind::HalvingDoubling, 0};
        return AlgorithmSpec{AlgorithmKind::Direct, 0};
    }
    return AlgorithmSpec{};
}

bool spansRemainingDimensions(const std::vector<AlgorithmSpec>& list) {
    return std::any_of(list.begin(), list.end(), [](const AlgorithmSpec& a) {
        return a.kind == AlgorithmKind::OneRing || a.kind == AlgorithmKind::OneDirect ||
               a.kind == AlgorithmKind::OneHalvingDoubling;
    });
}

void followPlatformEdit(SystemConfig& system, const PlatformSpec& before,
                        const PlatformSpec& after) {
    if (before.dimensions == after.dimensions)
        return;
    const std::vector<int> from = matchDimensions(before.dimensions, after.dimensions);
    const std::pair<std::vector<AlgorithmSpec>*, CollectiveKind> lists[] = {
        {&system.allReduce, CollectiveKind::AllReduce},
        {&system.reduceScatter, CollectiveKind::ReduceScatter},
        {&system.allGather, CollectiveKind::AllGather},
        {&system.allToAll, CollectiveKind::AllToAll}};
    for (const auto& [list, kind] : lists)
        *list = followList(*list, before.dimensions, after.dimensions, from, kind);
}

} // namespace astrolabe
