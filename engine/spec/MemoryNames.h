#pragma once
// The remote memory types' names, as ASTRA-sim's remote memory JSON writes them; shared by that
// reader, the project format and the settings schema.
#include "spec/MemoryConfig.h"

#include <string>
#include <vector>

namespace astrolabe {

/// Names as written in ASTRA-sim files: NO_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION, ...
const std::vector<std::string>& remoteMemoryTypeNames();
/// The four types ASTRA-sim's remote-memory JSON may name (the pooled memory, last of
/// remoteMemoryTypeNames, is Astrolabe's own: its name only labels exports and reports).
const std::vector<std::string>& astraReadableMemoryTypeNames();
const char* remoteMemoryTypeName(RemoteMemoryType type);
/// Throws astrolabe::Error listing the valid names.
RemoteMemoryType parseRemoteMemoryType(const std::string& name);

} // namespace astrolabe
