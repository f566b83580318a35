#include "analysis/IdleDimensions.h"

#include "spec/AlgorithmLists.h"

#include <array>

namespace astrolabe {
namespace {

constexpr std::array<CollectiveKind, 4> kKinds = {
    CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather,
    CollectiveKind::AllToAll};

/// The index in kKinds of the list a collective of this type runs with; -1 for the types that
/// no "*-implementation" list covers.
int kindIndex(CollectiveType type) {
    switch (type) {
    case CollectiveType::AllReduce:
        return 0;
    case CollectiveType::ReduceScatter:
    case CollectiveType::ReduceScatterBlock:
        return 1;
    case CollectiveType::AllGather:
        return 2;
    case CollectiveType::AllToAll:
        return 3;
    default:
        return -1;
    }
}

std::string coveredText(size_t listed) {
    if (listed == 0)
        return "no dimension";
    if (listed == 1)
        return "dimension 0 only";
    return "dimensions 0 to " + std::to_string(listed - 1) + " only";
}

} // namespace

std::string idleDimensionsNote(const RunResult& result, const PlatformSpec& platform,
                               const SystemConfig& system) {
    if (platform.graph)
        return {};
    std::array<bool, kKinds.size()> ran{};
    for (const CollectiveSpan& span : result.collectives)
        if (const int k = kindIndex(span.type); k >= 0)
            ran[static_cast<size_t>(k)] = true;
    const size_t dims = platform.dimensions.size();
    std::vector<uint64_t> bytes(dims, 0);
    for (const DimensionStats& d : result.dimensions)
        if (d.dimension >= 0 && static_cast<size_t>(d.dimension) < dims)
            bytes[static_cast<size_t>(d.dimension)] += d.bytes;

    std::string note;
    for (size_t d = 0; d < dims; ++d) {
        if (bytes[d] > 0)
            continue;
        for (size_t k = 0; k < kKinds.size(); ++k) {
            const std::vector<AlgorithmSpec>& list = system.algorithms(kKinds[k]);
            if (!ran[k] || list.size() > d || spansRemainingDimensions(list) ||
                !system.customPrefix(kKinds[k]).empty())
                continue;
            const DimensionSpec& dim = platform.dimensions[d];
            if (!note.empty())
                note += ' ';
            note += "Dimension " + std::to_string(d) + " (" + blockKindName(dim.kind) + ", " +
                    std::to_string(dim.size) + " NPUs) moved no data: the " +
                    collectiveKindName(kKinds[k]) + " algorithm list [" + algorithmNames(list) +
                    "]" + " covers " + coveredText(list.size()) + ".";
            break;
        }
    }
    if (!note.empty())
        note += " Name an algorithm for every dimension to use them all.";
    return note;
}

} // namespace astrolabe
