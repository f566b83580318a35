#pragma once
// A planned configuration as the real frameworks take it: Megatron-LM's pretrain_gpt.py
// arguments and NeMo's model.* overrides (docs/planner.md lists the mapping).
//
//   tp, pp, ep, cp         --tensor/pipeline/expert/context-model-parallel-size
//   v > 1                  --num-layers-per-virtual-pipeline-stage  layers / (pp v)
//   b, B                   --micro-batch-size, --global-batch-size
//   sp                     --sequence-parallel
//   full recompute         --recompute-granularity full --recompute-method uniform
//                          --recompute-num-layers 1
//   ZeRO 1                 --use-distributed-optimizer (Megatron shards the optimizer states)
//   ZeRO 2, 3              Megatron has no flag; printed as DeepSpeed's zero_optimization.stage
//                          (ZeRO 3: or Megatron's --use-torch-fsdp2)
//   placement              Megatron orders tp, cp, ep, dp, pp innermost first ("tp-cp-ep-dp-pp");
//                          another order is printed as a note (newer Megatron-core takes
//                          --use-tp-pp-dp-mapping for tp, pp, dp).
//   Llama-style model      --normalization RMSNorm --disable-bias-linear (no biases),
//                          --position-embedding-type rope (no learned positions), --swiglu
//   NeMo, ZeRO 3           model.fsdp=true, fsdp_sharding_strategy=full (the weights sharded)
// The model's shape follows (--num-layers, --hidden-size, ...) so the command runs as printed.

#include "generate/GeneratorSpec.h"

#include <string>
#include <vector>

namespace astrolabe::plan {

/// The arguments, one "--flag value" per element, in Megatron's help order; notes (things no
/// flag says) start with "#".
std::vector<std::string> megatronArguments(const generate::GeneratorSpec& spec);

/// NeMo's overrides ("model.tensor_model_parallel_size=8", ...), the same configuration.
std::vector<std::string> nemoOverrides(const generate::GeneratorSpec& spec);

} // namespace astrolabe::plan
