#pragma once
// Remote (disaggregated) memory, ASTRA-sim's astra-memory-analytical (spec §6).

#include <cstdint>
#include <string>

namespace astrolabe {

enum class RemoteMemoryType : uint8_t {
    NoMemoryExpansion,
    PerNodeMemoryExpansion, ///< one FIFO server per node (the intended semantics)
    PerNpuMemoryExpansion,  ///< independent per NPU
    MemoryPool,             ///< one FIFO server shared by all NPUs
    /// Astrolabe: a disaggregated pool of memory groups reached through each NPU's port into an
    /// in-node pooled fabric (ASTRA-sim 2.0's HierMem); docs/memory-tiers.md.
    Pooled,
};

struct RemoteMemoryConfig {
    RemoteMemoryType type = RemoteMemoryType::NoMemoryExpansion;
    uint64_t latencyNs = 0;
    uint64_t bandwidthBytesPerNs = 0; ///< integer, as upstream (fractions truncated on import)
    int numNodes = 0;                 ///< PerNode only
    int numNpusPerNode = 0;           ///< PerNode only
    int groups = 0;                   ///< Pooled only: remote memory groups, each at `bandwidth`
    uint64_t fabricBytesPerNs = 0;    ///< Pooled only: each NPU's port into the pooled fabric
    /// Pooled only: the platform's Switch dimension whose switches join the pooled fabric to the
    /// memory groups (HierMem's out-of-node switches); every access then also crosses the NPU's
    /// link to its switch there, shared with the collectives. -1: the memory has its own paths.
    int switchDimension = -1;
    std::string sourceFile;
    bool operator==(const RemoteMemoryConfig&) const = default;
};

} // namespace astrolabe
