#pragma once
// A sweep axis given as a range (docs/sweeps.md): range: {from, to, steps | step, scale: linear
// | log, integer: true | false}, read into the axis's values.

#include "project/SweepFile.h"
#include "yaml/YamlSupport.h"

#include <cstddef>
#include <string>

namespace astrolabe {

/// The most values one axis may take (docs/limits.md).
inline constexpr size_t kMaxAxisValues = 100000;

/// Reads the range at `node` into `axis.values`, in order and without repeats (a value that
/// rounds like its neighbour is dropped). Reports a missing or non-numeric end, ends of two
/// units, a log range not above 0, both or neither of steps and step, and more than
/// kMaxAxisValues values, each at its place.
void readRange(config::Diagnostics& d, const YAML::Node& node, const std::string& path,
               SweepAxis& axis);

} // namespace astrolabe
