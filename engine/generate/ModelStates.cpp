#include "generate/ModelStates.h"

#include "generate/RankLayout.h"

namespace astrolabe::generate {

double optimizerStateBytesPerParameter(const GeneratorSpec& spec) {
    return spec.training.bytesPerElement < 4 ? 12 : 8;
}

StateBytes shareStateBytes(const GeneratorSpec& spec, const ParamShare& share) {
    const ParallelSpec& par = spec.parallel;
    const double n = double(share.elements);
    const double e = spec.training.bytesPerElement;
    const double group = groupSizeOf(share.group, par);
    StateBytes bytes;
    bytes.weights = n * e / (par.zeroStage >= 3 ? group : 1);
    bytes.gradients = n * spec.training.gradientBytes() / (par.zeroStage >= 2 ? group : 1);
    bytes.optimizer = n * optimizerStateBytesPerParameter(spec) / (par.zeroStage >= 1 ? group : 1);
    return bytes;
}

StateBytes layerStateBytes(const GeneratorSpec& spec, const LayerProgram& layer) {
    StateBytes bytes;
    for (const ParamShare& share : layer.params)
        bytes += shareStateBytes(spec, share);
    return bytes;
}

} // namespace astrolabe::generate
