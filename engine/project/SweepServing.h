#pragma once
// The sweep file's "serving:" key (docs/sweeps.md): the objective a serving sweep ranks its
// points by, and the rate search each point may run first.

#include "project/SweepFile.h"
#include "yaml/YamlSupport.h"

namespace astrolabe {

/// serving: {objective: goodput-per-gpu, rate-search: 0.9}. Reports an unknown key or
/// objective (listing the valid ones) and a rate-search share outside (0, 1] at its line.
void readSweepServing(config::Diagnostics& d, const YAML::Node& node, SweepFile& sweep);

} // namespace astrolabe
