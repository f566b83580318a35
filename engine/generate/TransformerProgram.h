#pragma once
// Builds the per-rank program of a decoder-only transformer (dense or MoE) under tensor,
// sequence, expert and pipeline parallelism. The modelling choices, in one place:
//
// * Tensor parallelism is Megatron's: attention and MLP blocks each have an input operator f
//   (forward identity, backward all-reduce) and an output operator g (forward all-reduce,
//   backward identity); each all-reduce moves B*s*h elements. With sequence parallelism the
//   forward is all-gather (comm_size = the B*s*h/tp shard) + reduce-scatter (comm_size B*s*h),
//   and the backward the same pair.
// * MoE blocks are token-parallel over tp: each tp rank routes its B*s/tp tokens, experts are
//   not tensor-sliced (expert tp = 1), dispatch and combine are all-to-alls over the ep group of
//   (B*s/tp)*topK*h elements each. Without sequence parallelism an all-gather over tp restores the
//   replicated activations (forward) and input gradients (backward).
// * Pipeline boundaries send B*s*h elements per micro-batch, B*s*h/tp with sequence
//   parallelism (Megatron's scatter/gather optimisation is not modelled otherwise).
// * The vocabulary-parallel embedding all-reduces its output over tp; the LM head all-reduces
//   the loss statistics (3 floats per token) over tp.

#include "generate/LayerProgram.h"

namespace astrolabe::generate {

/// The whole model for one rank; spec must have passed validate().
ModelProgram buildTransformerProgram(const GeneratorSpec& spec);

} // namespace astrolabe::generate
