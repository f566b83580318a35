#pragma once
// Model-state bytes one NPU holds for a parameter share under ZeRO sharding: e-byte weights,
// gradients of TrainingSpec::gradientBytes() (e, or 4 with fp32 gradients), and the optimizer
// states (fp32 master weights, Adam's m and v: 12 bytes per parameter, 8 when e = 4). ZeRO
// divides them over the share's data-parallel group: stage 1 the optimizer states, 2 also the
// gradients, 3 also the weights. The memory figures, the ZeRO-3 gathers' and the offload nodes'
// sizes all come from here.

#include "generate/GeneratorSpec.h"
#include "generate/LayerProgram.h"

namespace astrolabe::generate {

struct StateBytes {
    double weights = 0, gradients = 0, optimizer = 0;

    StateBytes& operator+=(const StateBytes& other) {
        weights += other.weights;
        gradients += other.gradients;
        optimizer += other.optimizer;
        return *this;
    }
};

/// Optimizer-state bytes per parameter: 12 (fp32 master, m, v), 8 when e = 4.
double optimizerStateBytesPerParameter(const GeneratorSpec& spec);

/// One share's states on one NPU.
StateBytes shareStateBytes(const GeneratorSpec& spec, const ParamShare& share);

/// A layer's states on one NPU (the sum over its shares).
StateBytes layerStateBytes(const GeneratorSpec& spec, const LayerProgram& layer);

} // namespace astrolabe::generate
