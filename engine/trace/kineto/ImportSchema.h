#pragma once
// The schema name the PyTorch profiler import (`astrolabe-cli import pytorch`, File > Import
// Trace…) writes into its Chakra traces' metadata. Such a trace orders each CUDA stream's
// kernels by dependencies (stream order) and the streams by the orders the measurement shows,
// so the executor runs its GPU kernels on lanes of their own streams (docs/real-traces.md)
// instead of ASTRA-sim's one shared compute lane.

#include <string_view>

namespace astrolabe::kineto {

inline constexpr std::string_view kImportSchema = "kineto-import";

} // namespace astrolabe::kineto
