#pragma once
// The activations one rank keeps for the backward pass, per transformer layer and micro-batch.
//
// Korthikanti et al. (2022) count, for GPT's layer in 16 bits, every tensor a backward kernel
// reads: 34 s b h + 5 a s^2 b bytes without parallelism. Their count is written out here term by
// term, so that it follows the layer it describes rather than GPT's:
//
//   replicated over tp (split over tp with sequence parallelism), per token:
//     the two norms' inputs 2h, the QKV (or latent down-projection) input h, the MLP (router)
//     input h, in elements; two one-byte dropout masks when the model trains with dropout;
//     multi-head latent attention's latents (q: the down-projection's output and its norm's,
//     2 q_lora; kv: 2 kv_lora + rope), replicated as its down-projections are;
//   split over tp, per token:
//     Q (a d_qk), K and V (per rank max(1, kv / tp) heads of d_qk and d_v), the output
//     projection's input a d_v; the stored scores a s (2 e + 1 with dropout: softmax output,
//     mask, dropout output; e without), gone with fused attention or selective recomputation;
//     a dense MLP's inner activations, 2 F (GELU's input and output) or 3 F (SwiGLU's gate and
//     up outputs and the down-projection's input); a MoE layer's top-k copies of the token
//     (each expert's input and output, h each, the output kept for the routing
//     probabilities' gradient) with k x the expert's inner activations, and every shared expert's.
//
// In elements of bytesPerElement except the masks, one byte each. For GPT (MHA, a 4h GELU MLP,
// dropout) this is Korthikanti's 34 s b h + 5 a s^2 b at 16 bits, and their tp, tp + sp and
// full-recomputation forms (full recomputation keeps the layer's input, h elements per token).
// A MoE layer's experts are token-parallel over tp (TransformerProgram), so their part is
// split over tp with or without sequence parallelism.

#include "generate/GeneratorSpec.h"

namespace astrolabe::generate {

/// Bytes one rank keeps per micro-batch for one layer's backward pass; `moeLayer` selects the
/// routed-expert MLP (ModelSpec::isMoeLayer). spec must have passed validate().
double layerActivationBytes(const GeneratorSpec& spec, bool moeLayer = false);

} // namespace astrolabe::generate
