#pragma once
// The kernels of a generated transformer layer's compute blocks on one rank, for the operation
// compute model (generate/OperationCost.h, docs/compute-model.md): Megatron-LM's GEMMs with their
// m, n, k after tensor parallelism, the attention core (FlashAttention, or the 2021 unfused
// score GEMMs with their softmax and dropout traffic), the norms, activations and residual
// additions as memory traffic, and the MoE router and grouped expert GEMMs.

#include "generate/GeneratorSpec.h"
#include "generate/LayerProgram.h"
#include "generate/OperationCost.h"

#include <vector>

namespace astrolabe::generate {

/// One rank's view of a micro-batch: tokens = micro-batch x sequence / cp.
struct KernelShape {
    double tokens = 0, sequence = 0, microBatch = 1;
    double h = 0;
    double e = 2; ///< bytes per element
    double tp = 1, ep = 1;
    double elementwiseDivisor = 1; ///< norms and residuals split over tp with sequence parallelism
    bool flash = false;
    bool fp8 = false; ///< GEMM inputs cast to FP8 first (ComputeSpec::fp8Gemms)
};
KernelShape kernelShape(const GeneratorSpec& spec);

/// Forward kernels of the attention block (norm, QKV, core, projection, dropout + residual).
std::vector<Kernel> attentionKernels(const ModelSpec& model, const KernelShape& x);
/// Forward kernels of a dense FFN block of inner size model.ffn.
std::vector<Kernel> mlpKernels(const ModelSpec& model, const KernelShape& x);
/// Forward kernels of the MoE router (+ shared experts) and of the routed experts.
std::vector<Kernel> routerKernels(const ModelSpec& model, const KernelShape& x);
std::vector<Kernel> expertKernels(const ModelSpec& model, const KernelShape& x);
/// Forward kernels of the LM head: the logits GEMM and the cross-entropy's fp32 passes.
std::vector<Kernel> headKernels(const ModelSpec& model, const KernelShape& x);

/// FP8 GEMMs: the HBM bytes of casting one layer's weights per iteration (TransformerEngine casts
/// them on the first micro-batch and keeps them for the rest: is_first_microbatch): an amax read,
/// a read with a one-byte write and the one-byte transposed copy, 2e + 2 bytes per weight. The
/// embedding and the LM head stay in BF16 (0 bytes); 0 without fp8Gemms.
double fp8WeightCastBytes(const GeneratorSpec& spec, const LayerProgram& layer);

/// The backward pass of forward kernels: each GEMM's two (input and weight gradients), twice
/// each memory kernel's traffic, and FlashAttention's backward at 2.5 times its forward FLOPs
/// (Dao, FlashAttention-2, section 4.1).
std::vector<Kernel> backwardKernels(const std::vector<Kernel>& forward);

} // namespace astrolabe::generate
