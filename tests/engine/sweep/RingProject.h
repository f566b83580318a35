#pragma once
// The base project of the sweep tests: ASTRA-sim's regression case (8 NPUs on a ring, one 1 MiB
// all-reduce, 117,780 ns), written where a test needs it; and the error a sweep file gives.

#include "core/Error.h"
#include "project/SweepFile.h"
#include "support/TempDir.h"

#include <fstream>
#include <string>

namespace astrolabe::test {

inline const char* kRingProject = R"(name: ring
platform:
  dimensions:
    - {type: Ring, size: 8, bandwidth: 50 GiB/s, latency: 500 ns}
system:
  algorithms: {all-reduce: [ring], reduce-scatter: [ring], all-gather: [ring], all-to-all: [ring]}
  scheduling-policy: LIFO
  collective-optimization: localBWAware
  chunks: 4
  active-chunks-per-dimension: 1
  endpoint-delay: 10 ns
  local-memory-bandwidth: 50 GB/s
workload:
  microbenchmark: {collective: all-reduce, size: 1 MiB}
run:
  backend: congestion-unaware
  timing: astra-compatible
)";

inline void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
}

/// The ring project as project.yaml and `sweep` as sweep.yaml in `dir`; the sweep file's path.
inline std::string writeRingSweep(const TempDir& dir, const std::string& sweep) {
    writeText(dir.path("project.yaml"), kRingProject);
    writeText(dir.path("sweep.yaml"), sweep);
    return dir.path("sweep.yaml");
}

/// What reading `text` as a sweep file "s.yaml" throws, or "no error".
inline std::string sweepFileError(const std::string& text) {
    try {
        parseSweepFile(text, "s.yaml");
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

} // namespace astrolabe::test
