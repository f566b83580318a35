#pragma once
// Choosing tp x pp x dp (x ep, carved out of dp) for a given NPU count, so that a model follows
// the platform it is meant to run on.
//
// Constraints of a candidate split (npus = tp * pp * dp):
//   tp in {1, 2, 4, 8}: tensor parallelism stays inside one node (8 NPUs on NVLink-class
//       machines) and splits heads, KV heads (either divides the other), FFN and hidden evenly;
//       for MoE or sequence parallelism the sequence too;
//   pp divides the layers (equal stages) and pp x virtual stages <= layers;
//   dp = npus / (tp * pp); with BatchRule::GlobalBatchFixed, micro-batch x dp divides the global
//       batch; with BatchRule::MicroBatchesFixed the global batch follows dp;
//   ep (MoE) divides both dp and the experts;
//   and the whole spec passes validate().
//
// Preference, in order (Narayanan et al. 2021, section 3.3: tensor parallelism up to the node
// size, pipeline parallelism when the model still does not fit, data parallelism for the rest):
//   1. the current tp and pp (and ep), when they still satisfy every constraint: the user's or
//      the preset's choice is kept and only dp changes;
//   2. otherwise the split with the smallest model-parallel degree tp * pp whose memory per NPU
//      fits in HBM, tensor before pipeline parallelism at equal degree. Model parallelism costs
//      communication on the critical path every layer (TP: two all-reduces of the activations
//      forward and two backward) or a bubble (PP), while data parallelism communicates once
//      per iteration and overlaps with the backward pass. So GPT-2 124M on 8 NPUs is tp 1 pp 1
//      dp 8, as nanoGPT and every DDP recipe train it: 1.5 GiB of weights, gradients and Adam
//      states fit one NPU many times over;
//   3. when no split fits in memory, the one with the least memory per NPU (the figures then
//      warn that it is out of memory);
//   ep: the current ep when it divides dp and the experts, else the largest common divisor of
//      dp and the experts (spreading expert weights as far as the data-parallel group allows).
//
// Cost: O(divisors(layers) x 4) candidates, each a closed-form figures evaluation
// (computeFigures); microseconds to milliseconds. Pure: no Qt, no globals.

#include "generate/GeneratorSpec.h"

#include <string>

namespace astrolabe::generate {

enum class BatchRule : uint8_t {
    GlobalBatchFixed, ///< the global batch is a given: dp must divide it (--global-batch given)
    /// Micro-batches per pipeline are kept; the global batch scales with dp (--npus without
    /// --global-batch: the preset's micro-batches; model-info's figures say the batch made).
    MicroBatchesFixed,
};

struct ParallelFit {
    bool fits = false;       ///< some split uses exactly the NPU count
    bool kept = false;       ///< the current tp and pp were kept (only dp, maybe ep, changed)
    bool fitsMemory = false; ///< the chosen split fits in HBM
    GeneratorSpec spec;      ///< input with parallel.tp/pp/dp/ep (and the global batch) set;
                             ///< the input unchanged when nothing fits
    std::string reason;      ///< one sentence: why this split, or why none exists
};

/// spec.parallel holds the current split (see the preference above). npuCount must be positive.
ParallelFit fitParallelism(const GeneratorSpec& spec, int npuCount, BatchRule batch);

/// "tp 2 · pp 1 · dp 4" (and " · ep 8" for expert parallelism).
std::string splitLabel(const ParallelSpec& parallel);

} // namespace astrolabe::generate
