#pragma once
// The limits on sizes read from inputs, in one place for every layer that checks them (the
// configuration readers, the trace loader, the generators). Each is far above any real use;
// docs/limits.md says why each is where it is.

#include <cstddef>
#include <cstdint>

namespace astrolabe {

inline constexpr size_t kMaxDimensions = 16;
inline constexpr uint64_t kMaxNpus = uint64_t{1} << 20;
inline constexpr int kMaxChunksPerCollective = 16384;
inline constexpr int kMaxQueuesPerDimension = 1024;
/// The packet-level tier models every NPU, port and packet in ns-3, and building its fabric grows
/// faster than the NPU count (measured in docs/limits.md).
inline constexpr uint64_t kMaxPacketNpus = 4096;

} // namespace astrolabe
