#pragma once
// A synthesized schedule run in the engine beside the built-in algorithms (docs/tacos.md,
// "Measured"): the same graph, the same system settings, the same microbenchmark.

#include "spec/SimulationSpec.h"
#include "tacos/Synthesizer.h"

#include <string>
#include <vector>

namespace astrolabe {

struct AlgorithmTime {
    std::string algorithm; ///< "tacos", "ring", "direct", "halvingDoubling"
    double ns = 0;         ///< the last NPU's finish; 0 when it could not run
    std::string error;     ///< why it could not run (e.g. halving-doubling on 6 NPUs)
};

/// The microbenchmark of `kind` and `bytes` on `base`'s platform and system.
SimulationSpec microbenchmarkSpec(const SimulationSpec& base, SynthesisKind kind, uint64_t bytes);

/// Makes `source` (a Chakra ET prefix or an MSCCL-IR .xml) the custom implementation of `kind`.
void setCustomSource(SimulationSpec& spec, SynthesisKind kind, const std::string& source);

/// Writes the schedule's traces as Chakra ET `<prefix>.<npu>.et` (the custom-collective form).
void writeScheduleEt(const Schedule& schedule, const std::string& prefix);

/// Runs `source` (a Chakra ET prefix or an MSCCL-IR .xml) as the custom implementation of the
/// schedule's collective; the last NPU's finish in ns. Throws astrolabe::Error as a run does.
double runCustomCollective(const SimulationSpec& base, SynthesisKind kind, uint64_t bytes,
                           const std::string& source);

/// Each built-in algorithm (for every logical dimension) on the same microbenchmark; an
/// algorithm the platform refuses gets its message in `error`. Reductions are made free
/// (local memory at 10^9 GB/s) because a custom collective has no reduction cost either: the
/// comparison is of the network schedules alone.
std::vector<AlgorithmTime> runBuiltinAlgorithms(const SimulationSpec& base, SynthesisKind kind,
                                                uint64_t bytes,
                                                const std::vector<std::string>& algorithms);

/// The bandwidth lower bound in ns (docs/tacos.md): every NPU must send (N-1)/N of the buffer
/// out in a reduce-scatter and receive (N-1)/N of it in an all-gather, so
/// (N-1)/N x bytes / min egress bandwidth (reduce-scatter) + (N-1)/N x bytes / min ingress
/// bandwidth (all-gather); 2(N-1)/N x bytes / injection bandwidth for all-reduce on a graph
/// whose NPUs inject and receive alike. For all-gather, bytes is per NPU: (N-1) x bytes / B.
/// The bandwidths are of the NPUs' physical links (an NPU's one uplink into a switch, not its
/// N-1 links through it).
double bandwidthLowerBoundNs(const Schedule& schedule);

} // namespace astrolabe
