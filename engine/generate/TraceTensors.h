// The tensor lists of a generated trace's nodes (GeneratorSpec::output.tensors): which model
// states and activations each node reads and writes, for local memory tracking.
#pragma once

#include "generate/GeneratorSpec.h"
#include "generate/LayerProgram.h"
#include "generate/PipelineOrder.h"
#include "trace/WorkloadNode.h"

#include <cstdint>

namespace astrolabe::generate {

/// The model states this NPU keeps in HBM for `layer` (none when offloaded), read by `node`:
/// written by no node, so live from the start until their last reader (the optimizer step).
void useModelStates(const GeneratorSpec& spec, WorkloadNode& node, const LayerProgram& layer,
                    bool weights, bool gradients, bool optimizer);

/// A layer's pass: its first compute (node `first`) reads the weights (backward: and the
/// gradients); the forward's first compute writes the activations kept for the backward
/// (ActivationMemory.h; the last stage's head also the fp32 logits), which the backward's last
/// compute (node `last`) reads. The head's first compute of either pass also writes the 16-bit
/// logits (forward) or their gradient (backward), read by no node: live while it runs.
void useLayerTensors(const GeneratorSpec& spec, const ModelProgram& program, WorkloadTrace& trace,
                     const LayerProgram& layer, const PipelineOp& op, uint64_t first, uint64_t last,
                     bool lossLayer);

} // namespace astrolabe::generate
