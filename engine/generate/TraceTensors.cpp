#include "generate/TraceTensors.h"

#include "generate/ModelStates.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe::generate {
namespace {

void use(std::vector<TensorUse>& list, std::string name, double bytes) {
    const uint64_t rounded = static_cast<uint64_t>(std::llround(bytes));
    if (rounded > 0)
        list.push_back({std::move(name), rounded});
}

} // namespace

void useModelStates(const GeneratorSpec& spec, WorkloadNode& node, const LayerProgram& layer,
                    bool weights, bool gradients, bool optimizer) {
    const StateBytes bytes = layerStateBytes(spec, layer);
    if (weights && spec.offload.parameters == OffloadTier::None)
        use(node.detail.edit().inputs, layer.name + ".weights", bytes.weights);
    if (gradients && spec.offload.gradients == OffloadTier::None)
        use(node.detail.edit().inputs, layer.name + ".grads", bytes.gradients);
    if (optimizer && spec.offload.optimizer == OffloadTier::None)
        use(node.detail.edit().inputs, layer.name + ".optimizer", bytes.optimizer);
}

void useLayerTensors(const GeneratorSpec& spec, const ModelProgram& program, WorkloadTrace& trace,
                     const LayerProgram& layer, const PipelineOp& op, uint64_t first, uint64_t last,
                     bool lossLayer) {
    WorkloadNode& firstNode = trace.nodes[size_t(first)];
    useModelStates(spec, firstNode, layer, true, !op.forward, false);
    std::string suffix = ".mb";
    suffix += std::to_string(op.microBatch);
    std::vector<TensorUse>& kept = op.forward ? firstNode.detail.edit().outputs
                                              : trace.nodes[size_t(last)].detail.edit().inputs;
    std::string activation = layer.name;
    activation += ".act";
    activation += suffix;
    use(kept, std::move(activation), layer.activationBytes);
    if (lossLayer) {
        std::string logits = "logits";
        logits += suffix;
        use(kept, std::move(logits), program.extraActivationBytesLastStage);
        // Read by no node: live while the pass's first compute runs.
        std::string transient = op.forward ? "logits16" : "dlogits16";
        transient += suffix;
        use(firstNode.detail.edit().outputs, std::move(transient), program.transientBytesLastStage);
    }
}

} // namespace astrolabe::generate
