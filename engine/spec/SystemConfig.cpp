#include "spec/SystemConfig.h"

#include <algorithm>
#include <iterator>

namespace astrolabe {

namespace {
/// A collective type's algorithm list and custom prefix, in CollectiveKind order.
struct CollectiveMembers {
    std::vector<AlgorithmSpec> SystemConfig::*list;
    std::string SystemConfig::*custom;
};
constexpr CollectiveMembers kCollectiveMembers[] = {
    {&SystemConfig::allReduce, &SystemConfig::customAllReduce},
    {&SystemConfig::reduceScatter, &SystemConfig::customReduceScatter},
    {&SystemConfig::allGather, &SystemConfig::customAllGather},
    {&SystemConfig::allToAll, &SystemConfig::customAllToAll},
};
const CollectiveMembers& membersOf(CollectiveKind kind) {
    const auto index = static_cast<size_t>(kind);
    return kCollectiveMembers[index < std::size(kCollectiveMembers) ? index : 0];
}
} // namespace

const std::vector<AlgorithmSpec>& SystemConfig::algorithms(CollectiveKind kind) const {
    return this->*membersOf(kind).list;
}

std::vector<AlgorithmSpec>& SystemConfig::algorithms(CollectiveKind kind) {
    return this->*membersOf(kind).list;
}

std::vector<AlgorithmSpec> parseAlgorithmNames(const std::string& text) {
    std::vector<AlgorithmSpec> out;
    size_t from = 0;
    while (from <= text.size()) {
        const size_t to = std::min(text.find(',', from), text.size());
        std::string name = text.substr(from, to - from);
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        if (!name.empty())
            out.push_back(parseAlgorithm(name));
        from = to + 1;
    }
    return out;
}

const std::string& SystemConfig::customPrefix(CollectiveKind kind) const {
    return this->*membersOf(kind).custom;
}

} // namespace astrolabe
