#pragma once
// Closed-form figures of the memory tier (the project's `memory:` section) under the NPUs, as
// the topology editor draws and summarises it. Plain C++ (no Qt) so they can be unit-tested.
//
// Devices the tier has (what the drawing shows, one box per device):
//   per-npu   N devices (one per NPU)
//   per-node  num-nodes devices; node k serves NPUs [k * p, (k + 1) * p), p = npus-per-node
//   pool      1 device for all N NPUs
//   pooled    groups G memory groups behind the in-node pooled fabric; NPU r -> group r mod G
//
// Bandwidth per NPU when every NPU accesses memory at once (B = bandwidth, F = fabric
// bandwidth, the FIFO servers of docs/memory-tiers.md):
//   per-npu   B
//   per-node  B / min(p, N)                   (the node's NPUs share one device)
//   pool      B / N
//   pooled    min(F, B / ceil(N / G))        (the port, or the group shared by ceil(N/G) NPUs)
#include "spec/MemoryConfig.h"
#include "spec/PlatformSpec.h"

#include <string>
#include <vector>

namespace astrolabe::widgets {

bool hasMemoryTier(const RemoteMemoryConfig& memory);
/// How many devices (per-node: nodes; pooled: groups) the tier has; 0 without one.
int64_t memoryDeviceCount(const RemoteMemoryConfig& memory, int64_t npus);
/// The device serving NPU `npu` (per-npu: npu; per-node: npu / p; pool: 0; pooled: npu mod G);
/// -1 when none does (no tier, or a per-node NPU beyond num-nodes x npus-per-node).
int64_t memoryDeviceOf(const RemoteMemoryConfig& memory, int64_t npus, int64_t npu);
/// Bytes per second per NPU with all NPUs busy, the table above; 0 without a tier.
double memoryBandwidthPerNpu(const RemoteMemoryConfig& memory, int64_t npus);
/// "Per NPU", "Per node", "Shared pool", "Pooled (HierMem)": the settings schema's labels.
std::string memoryTypeLabel(RemoteMemoryType type);

/// A tier of `type` with what it lacks filled in for a platform of `npus` NPUs: bandwidth
/// 100 GB/s; per-node 8 NPUs per node (fewer on a smaller platform) and enough nodes for all;
/// pooled one group per NPU and 256 GB/s ports. Values already set are kept.
RemoteMemoryConfig withMemoryDefaults(RemoteMemoryConfig memory, int64_t npus);

/// Why the tier cannot be simulated on `platform`, in the project reader's words (key path
/// first, as "memory.groups: expected 1 or more memory groups for pooled memory (e.g. groups:
/// 256)"). Empty when it can.
std::vector<std::string> memoryProblems(const RemoteMemoryConfig& memory,
                                        const PlatformSpec& platform);

} // namespace astrolabe::widgets
