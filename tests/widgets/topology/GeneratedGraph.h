#pragma once
// A generated graph for the graph editor's tests: 100 GB/s and 100 ns links, 25 GB/s for the
// second kind (dragonfly global links, rail links).
#include "graph/GraphGenerators.h"

#include <string>
#include <vector>

inline astrolabe::GraphSpec generatedGraph(const std::string& name, std::vector<int64_t> size) {
    astrolabe::GraphGeneratorSpec s;
    s.name = name;
    s.size = std::move(size);
    s.bandwidthBytesPerSecond = 100e9;
    s.latencyNs = 100;
    s.secondBandwidthBytesPerSecond = 25e9;
    return astrolabe::generateGraph(s);
}
