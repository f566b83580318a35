#include "core/Collectives.h"

namespace astrolabe {

static_assert(
    [] {
        for (size_t i = 0; i < kCollectives.size(); ++i)
            if (static_cast<size_t>(kCollectives[i].type) != i)
                return false;
        return true;
    }(),
    "kCollectives is in Chakra's numbering");

const CollectiveNames* findCollective(int chakraType) {
    if (chakraType < 0 || static_cast<size_t>(chakraType) >= kCollectives.size())
        return nullptr;
    return &kCollectives[static_cast<size_t>(chakraType)];
}

const CollectiveNames& namesOf(CollectiveType type) {
    return kCollectives.at(static_cast<size_t>(type));
}

const CollectiveNames& namesOf(CollectiveKind kind) {
    return namesOf(collectiveTypeOf(kind));
}

std::optional<CollectiveKind> collectiveKindOf(CollectiveType type) {
    for (CollectiveKind kind : kCollectiveKinds)
        if (collectiveTypeOf(kind) == type)
            return kind;
    return std::nullopt;
}

const char* collectiveTypeName(CollectiveType type) {
    const CollectiveNames* names = findCollective(static_cast<int>(type));
    return names ? names->chakra : "UNKNOWN";
}

const char* collectiveKindName(CollectiveKind kind) {
    return namesOf(kind).name;
}

std::string runCollectiveTypeNames() {
    std::string out;
    for (CollectiveType type : {CollectiveType::AllReduce, CollectiveType::AllGather,
                                CollectiveType::ReduceScatter, CollectiveType::AllToAll})
        out += (out.empty() ? "" : ", ") + std::string(collectiveTypeName(type));
    return out;
}

std::vector<std::string> collectiveKindNames(const char* CollectiveNames::*form) {
    std::vector<std::string> names;
    for (CollectiveKind kind : kCollectiveKinds)
        names.emplace_back(namesOf(kind).*form);
    return names;
}

} // namespace astrolabe
