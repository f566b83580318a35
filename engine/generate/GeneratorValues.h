#pragma once
// A training-iteration generator spec from a preset and settings written as text under their
// flag names ("tp" -> "8", "micro-batches" -> "16", "npus" -> "64"): what
// `astrolabe-cli generate-llm --preset P --tp 8 ...` builds, and what a sweep's `generate:`
// section and `generate.<flag>` axes build (docs/sweeps.md), with the same rules.

#include "generate/GeneratorSpec.h"
#include "hardware/Accelerator.h"

#include <map>
#include <string>
#include <vector>

namespace astrolabe::generate {

/// Builds the spec: the preset, then each given setting, then the rules that need code (the
/// global batch rounded to whole micro-batch x dp unless given; interleaving with 2 chunks per
/// stage unless told; "npus" fits tp x pp x dp to that many NPUs). Throws astrolabe::Error
/// (Validation) whose key path is the setting's flag name, on an unknown name, a value that
/// does not parse, or parallelism that does not fit "npus". Does not validate() the result.
GeneratorSpec generatorSpecFrom(const std::string& preset,
                                const std::map<std::string, std::string>& values);

/// generatorSpecFrom with the preset taken out of `values` ("preset", else `defaultPreset`),
/// validated, for a platform of `npus` NPUs: throws Error (Validation) naming both NPU counts,
/// with `hint`, when tp x pp x dp differs. What a sweep point and a lesson step generate.
GeneratorSpec generatorSpecForPlatform(std::map<std::string, std::string> values,
                                       const std::string& defaultPreset, int npus,
                                       const std::string& hint = {});
/// The compute roofline of an accelerator of the library: its dense peak at `precision`
/// (hardware::peakTflops), HBM bandwidth and capacity, and the operation model's measured GEMM
/// rate and FlashAttention fraction (hardware/KernelCurves.h); `base`'s efficiency is kept.
ComputeSpec acceleratorCompute(const hardware::Accelerator& gpu, ComputeSpec base,
                               const std::string& precision = "bf16");

/// Every name generatorSpecFrom accepts: "preset", "gpu" (an accelerator of the library,
/// hardware/Accelerator.h), "precision" (whose peak the gpu gives; bf16 unless told), the
/// settings' flags and "npus".
std::vector<std::string> generatorValueNames();

} // namespace astrolabe::generate
