#pragma once
// A project with a serving: section on a small platform whose outer link is 50 GB/s, 5 us.
#include "project/ProjectFile.h"

#include <string>

namespace astrolabe::servingtest {

/// `serving` is the body of the serving: section, each line indented by two spaces after the
/// first ("model: llama3-8b\n  gpu: h100\n").
inline SimulationSpec project(const std::string& serving, int npus = 8) {
    return parseProject(
        "name: serving test\n"
        "platform:\n  dimensions:\n"
        "    - {type: Switch, size: " +
            std::to_string(npus) +
            ", bandwidth: 50 GB/s, latency: 5 us}\n"
            "system:\n  algorithms: [ring]\n  chunks: 4\n  scheduling-policy: LIFO\n"
            "  collective-optimization: localBWAware\n  active-chunks-per-dimension: 2\n"
            "  endpoint-delay: 10 ns\n  local-memory-bandwidth: 3350 GB/s\n"
            "serving:\n  " +
            serving,
        "serving.yaml");
}

} // namespace astrolabe::servingtest
