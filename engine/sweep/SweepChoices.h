#pragma once
// Which value of each axis group every point of a sweep takes (docs/sweeps.md): the whole
// product, or a random or Latin-hypercube sample of it without repeats. Kept as one flat array
// of value indexes, so a million points take a few megabytes.

#include "project/SweepFile.h"

#include <cstdint>
#include <vector>

namespace astrolabe {

/// Every point's value index per group, points x groups, in the points' order: for the product
/// the last group varies fastest; a sample is in the order the generator (SplitMix64 from the
/// seed) drew it, each repeat dropped. O(points x groups), and one sort of a sample's draws.
std::vector<uint32_t> pointChoices(const SweepFile& sweep);

} // namespace astrolabe
