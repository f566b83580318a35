#pragma once
// DeepEP's communication kernels sized from the model's shape, so that a profiler trace's
// expert all-to-alls can be simulated instead of replayed (docs/real-traces.md, "Simulated
// communication"). A profiler trace records how long DeepEP's dispatch and combine took, not how
// many bytes they moved: the bytes follow from the tokens of the micro-batch, the experts each
// token goes to and the hidden size.

#include "trace/WorkloadNode.h"

#include <cstdint>
#include <string>

namespace astrolabe::kineto {

struct MoeShape {
    uint64_t tokens = 0;  ///< tokens of one micro-batch on one rank
    uint64_t hidden = 0;  ///< hidden size (elements per token)
    uint64_t topK = 0;    ///< experts each token is sent to
    uint64_t experts = 0; ///< routed experts in all (the notify kernels' token counts)
};

/// The sizes the rule gives, in bytes per rank (ASTRA-sim's all-to-all size: what one rank
/// sends in all, an equal share to every rank).
struct ExpertSizes {
    uint64_t dispatch = 0; ///< tokens x topK x (hidden FP8 bytes + one FP32 scale per 128)
    uint64_t combine = 0;  ///< tokens x topK x hidden BF16 bytes
    uint64_t notify = 0;   ///< experts x 4 bytes (one int32 token count per expert)
};
/// Throws Error (kind Input, naming `what`) when a field is 0 or the sizes overflow.
ExpertSizes expertSizes(const MoeShape& shape, const std::string& what);

struct ExpertSizing {
    size_t dispatch = 0, combine = 0, notify = 0; ///< nodes sized, by kind
};
/// Sets comm_size of every DeepEP node of `trace` (COMM_COLL nodes whose name classifyKernel
/// calls dispatch, combine or notify) to the size of its kind; other nodes are left as they are.
ExpertSizing sizeExpertCommunication(WorkloadTrace& trace, const ExpertSizes& sizes);

/// Removes the host nodes of the launch timeline (is_cpu_op COMP nodes) and every dependency on
/// them: the measured launch instants hold the host's waits for the measured communication (the
/// host waits for DeepEP's token counts before it launches an uncached dispatch), so a run that
/// simulates the communication must not keep them. Returns how many nodes it removed.
size_t dropLaunchTimeline(WorkloadTrace& trace);

} // namespace astrolabe::kineto
