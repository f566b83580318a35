#pragma once
// The hover texts of the network drawing (NetworkView): what an NPU or a collapsed group of NPUs
// is, where it sits and what it connects to.

#include "spec/PlatformSpec.h"
#include "topology/MemoryTierLayout.h"
#include "topology/NetworkLayout.h"

#include <QString>

namespace astrolabe::widgets {

/// NPU `id`: its coordinates; per dimension its block, peers and bandwidth; the memory device
/// serving it when the platform has a memory tier.
QString describeNetworkNpu(const NetworkLayout& layout, const PlatformSpec& platform,
                           const MemoryTierLayout& tier, int id);
/// A collapsed group (level >= 1): its size, id range, coordinates and the dimension building
/// it; empty for an NPU.
QString describeNetworkGroup(const NetworkLayout& layout, const PlatformSpec& platform,
                             const NetworkLayout::Hit& group);

} // namespace astrolabe::widgets
