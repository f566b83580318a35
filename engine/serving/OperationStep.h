#pragma once
// The time of one iteration by operation (serving.compute-model: operations, the default): the
// kernels one GPU of a replica launches for the iteration's tokens, each timed from measured
// figures, summed. Which figures time an operation, in order:
//   measured  FP8 GEMMs of a shape DeepGEMM's H800 table holds (MLA projections, shared and
//             routed experts of DeepSeek-V3) and MLA decode attention (FlashMLA),
//             hardware/MeasuredKernels.h;
//   curves    every other GEMM from the accelerator's achieved rate and the shape curve, the
//             prefill attention core at the FlashAttention fraction, element-wise kernels at 0.8
//             of HBM plus the kernel latency, the shortest kernel of DeepSeek's decoding
//             profile, 2 us (hardware/MeasuredKernels.h, hardware/KernelCurves.h,
//             generate/OperationCost.h);
//   roofline  an accelerator without a measured GEMM rate at that precision: max(FLOPs / (peak
//             x compute-efficiency), bytes / (HBM x bandwidth-efficiency)) per operation.
// No factor is fitted to any serving measurement (docs/serving.md).
//
// Per GPU: attention data-parallel over groups of tp GPUs (tokens spread evenly over groups,
// heads split over tp), experts spread over all the replica's GPUs (balanced routing times
// moe-imbalance), the LM head and the router in BF16 (as DeepSeek's FP8 release keeps them),
// the other GEMMs at the weights' precision with their activation input cast first (the cast
// fused into the activation before a down projection). The residual additions are fused into
// the norms; rotary embeddings after the query projection, then the new tokens' keys and values
// (MLA: latents) written to the paged cache; the router's top-k after the router.
// MLA: q_a and kv_a as one GEMM, q_b, then in prefill kv_b expanding the latents of the chunk and
// of the context before it, each head's key beside the shared rope key, and FlashAttention; in
// decode the absorbed form (per-head BF16
// products with W_UK and W_UV around FlashMLA); o_proj.

#include "serving/StepCost.h"

#include <string>
#include <vector>

namespace astrolabe::serving {

enum class OpSource : unsigned char { Measured, Curves, Roofline };
const char* opSourceName(OpSource source); ///< "measured", "curves", "roofline"

/// One operation of an iteration, summed over the layers that run it.
struct OpTime {
    std::string name;
    double seconds = 0;
    OpSource source = OpSource::Curves;
};

/// The same seconds by where they sit in a layer, for the two-batch overlap schedule
/// (StepTiming.h): summed over the layers that run them.
struct OpPhases {
    double attentionIn = 0;   ///< norms, casts, residuals, the projections before the core
    double attentionCore = 0; ///< the attention core, W_UV and o_proj
    double gate = 0;          ///< the MoE router (MoE layers)
    double shared = 0;        ///< the shared experts (MoE layers)
    double routed = 0;        ///< the routed experts (MoE layers)
    double denseFfn = 0;      ///< the FFNs of the dense layers
    double head = 0;          ///< the final norm and the LM head, once per step
    double total() const {
        return attentionIn + attentionCore + gate + shared + routed + denseFfn + head;
    }
};

/// Seconds of `shape` on each GPU of the replica `cost` describes (computation only); with
/// `detail` the operations that made it, with `phases` the same seconds by phase.
double operationSeconds(const StepCost& cost, const StepShape& shape,
                        std::vector<OpTime>* detail = nullptr, OpPhases* phases = nullptr);

} // namespace astrolabe::serving
