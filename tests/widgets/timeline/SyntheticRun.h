#pragma once
// Synthetic RunResults for widget tests, screenshots and the timeline benchmark. The numbers are
// plausible, not simulated: the views only need well-formed, deterministic data.

#include "record/RunResult.h"
#include "spec/PlatformSpec.h"

#include <memory>

namespace astrolabe::synthetic {

/// The quick start: 8 NPUs on one ring (50 GiB/s, 500 ns), a 1 MiB ring all-reduce in 4 chunks.
/// Each chunk takes T = 14 * (500 ns + 32 KiB / 50 GiB/s) (2(p-1) steps of S/(4p) bytes), run one
/// after another; NPU i starts i * 10 ns late, so NPU 7 ends last and carries the critical path.
std::shared_ptr<RunResult> quickStartRun();
PlatformSpec quickStartPlatform();

struct SyntheticOptions {
    std::vector<int> dimensions{8, 16, 8}; ///< NPUs = product
    int itemsPerNpu = 200;                 ///< activities per NPU (compute and comm alternate)
    bool phases = true;                    ///< one phase span per dimension per collective
    bool links = true;                     ///< ring links, series, traffic matrix
    uint32_t seed = 1;
};
/// An LLM-like iteration: compute kernels and collectives alternating and overlapping.
std::shared_ptr<RunResult> syntheticRun(const SyntheticOptions& options);
PlatformSpec syntheticPlatform(const SyntheticOptions& options);

} // namespace astrolabe::synthetic
