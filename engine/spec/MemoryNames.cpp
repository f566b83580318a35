#include "spec/MemoryNames.h"

#include "core/Error.h"
#include "spec/Diagnostics.h"

namespace astrolabe {

const std::vector<std::string>& remoteMemoryTypeNames() {
    static const std::vector<std::string> names{"NO_MEMORY_EXPANSION", "PER_NODE_MEMORY_EXPANSION",
                                                "PER_NPU_MEMORY_EXPANSION", "MEMORY_POOL",
                                                "POOLED_MEMORY"};
    return names;
}

const std::vector<std::string>& astraReadableMemoryTypeNames() {
    static const std::vector<std::string> names(remoteMemoryTypeNames().begin(),
                                                remoteMemoryTypeNames().begin() +
                                                    static_cast<long>(RemoteMemoryType::Pooled));
    return names;
}

const char* remoteMemoryTypeName(RemoteMemoryType type) {
    return remoteMemoryTypeNames().at(static_cast<size_t>(type)).c_str();
}

RemoteMemoryType parseRemoteMemoryType(const std::string& name) {
    const std::vector<std::string>& names = astraReadableMemoryTypeNames();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<RemoteMemoryType>(i);
    throw Error(ErrorKind::Validation,
                "unsupported memory type \"" + name + "\"; expected " + joinAlternatives(names), {},
                config::didYouMean(name, names));
}

} // namespace astrolabe
