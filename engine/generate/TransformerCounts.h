#pragma once
// Closed-form parameter and FLOP counts of one transformer layer, shared by the figures and
// the per-rank program so the two can never disagree.
//
// FLOPs count matrix multiplies only, 2 per multiply-add, and the attention score and value
// products over the full s x s square (no causal halving), as Narayanan et al. (2021) do:
// a GPT layer costs 24*B*s*h^2 + 4*B*s^2*h forward.

#include "generate/GeneratorSpec.h"

#include <cstdint>

namespace astrolabe::generate {

struct AttentionCounts {
    double matrixParams = 0;         ///< projection weights (tensor-parallel, divided by tp)
    double biasParamsSplit = 0;      ///< QKV biases (split over tp)
    double biasParamsReplicated = 0; ///< output bias + norms (replicated over tp)
    double flopsPerToken = 0;        ///< projections only
    double coreFlopsPerToken = 0;    ///< Q K^T and A V per token: proportional to s
};

struct FfnCounts {
    double matrixParams = 0; ///< one dense FFN (or one expert)
    double biasParamsSplit = 0;
    double biasParamsReplicated = 0;
    double flopsPerToken = 0;
};

AttentionCounts attentionCounts(const ModelSpec& model);
/// A dense FFN of inner size `inner` (the dense FFN, or one expert with expertFfn).
FfnCounts ffnCounts(const ModelSpec& model, int inner);

/// Whole-model parameters (elements), and the parameters one token activates (MoE: top-k +
/// shared experts). Embeddings are included (input table, and the output head unless tied).
struct ParameterCounts {
    double total = 0;
    double active = 0;
    double embedding = 0; ///< input table + positions + untied head
};
ParameterCounts transformerParameters(const ModelSpec& model);

/// Matrix FLOPs of one forward pass of one sequence through the whole model (incl. LM head).
double transformerForwardFlopsPerSequence(const ModelSpec& model);

} // namespace astrolabe::generate
