#pragma once
// Simpler, data-parallel models: per-layer compute and gradient all-reduce buckets.
//
// * ResNet-50: six stages (stem, four residual stages, classifier) with the published per-image
//   parameter and multiply-add counts at 224 x 224 (25.6 M parameters, 4.1 G multiply-adds);
//   convolution FLOPs scale with (imageSize / 224)^2. Activation sizes are estimates.
// * DLRM (Naumov et al. 2019): embedding tables sharded table-wise over all NPUs (model parallel,
//   not synchronised), an all-to-all over every NPU after the lookup (each rank's buffer:
//   micro-batch x tables x dim elements) and its mirror in the backward pass, then data-parallel
//   bottom MLP, pairwise dot-product interaction and top MLP.

#include "generate/LayerProgram.h"

namespace astrolabe::generate {

ModelProgram buildResNetProgram(const GeneratorSpec& spec);
ModelProgram buildDlrmProgram(const GeneratorSpec& spec);

/// Whole-model parameters (elements); for DLRM the embedding tables dominate.
double dataParallelParameters(const GeneratorSpec& spec);

} // namespace astrolabe::generate
