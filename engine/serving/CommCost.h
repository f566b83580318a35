#pragma once
// A replica's collectives through the platform's own network model: the tensor-parallel
// all-reduce and the expert-parallel all-to-all are timed by simulating each as a
// microbenchmark on the project's platform, system (algorithms, chunking) and network backend,
// over a communicator of the replica's GPUs (NPUs 0..n-1), at two sizes; a step then costs
// alpha + bytes x beta through those two points. The analytical models are affine in the size
// for a fixed algorithm and chunk count, so the line is exact between and beyond the points up
// to the rounding of chunk sizes. Fitted once per (collective, GPUs) for a run.

#include "spec/SimulationSpec.h"

namespace astrolabe::serving {

struct LinearTime {
    double alphaSeconds = 0;
    double secondsPerByte = 0;
    double seconds(double bytes) const {
        return bytes > 0 ? alphaSeconds + bytes * secondsPerByte : 0;
    }
};

/// `collective` is a Chakra CollectiveCommType (0 all-reduce, 6 all-to-all); `bytes` the
/// microbenchmark size (each NPU's buffer). With `placed` (compute-model: operations) the
/// collective runs on the links a replica placed as ServingTraffic.h places it crosses (the
/// platform cut down to its GPUs), and an all-to-all on the congestion-aware backend when the
/// project's is the congestion-unaware one (its n - 1 simultaneous messages share the links
/// they cross); without, as a communicator group of NPUs 0..n-1 on the project's backend (the
/// roofline's figures, docs/serving.md). Throws astrolabe::Error (Validation) at
/// serving.tp / serving.ep when the platform has fewer than `gpus` NPUs.
LinearTime fitCollective(const SimulationSpec& spec, int collective, int gpus,
                         const std::string& key, bool placed = true);

/// The slowest (outermost) dimension's link: what a KV-cache transfer between replicas and
/// the attention-FFN exchange of AFD cross. Bytes per second and seconds.
struct LinkFigures {
    double bytesPerSecond = 0;
    double latencySeconds = 0;
    /// bytes / bandwidth + latency, the time of one transfer over one link.
    double seconds(double bytes) const { return bytes / bytesPerSecond + latencySeconds; }
};
LinkFigures scaleOutLink(const PlatformSpec& platform);

} // namespace astrolabe::serving
