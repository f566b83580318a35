// The operation compute model's part of the generator's settings table (GeneratorSettings.h,
// docs/compute-model.md).
#include "generate/GeneratorSettings.h"

// metavar = std::string("X"), not = "X": GCC 12 flags the latter with a false -Wrestrict.

namespace astrolabe::generate {
namespace {

using settings::Type;
using settings::Value;

GeneratorSetting fraction(const std::string& path, const std::string& flag,
                          const std::string& label, const std::string& help) {
    GeneratorSetting s = generatorSetting(path, flag, label, help);
    s.type = Type::Double;
    s.minimum = 0.01;
    s.maximum = 1;
    s.metavar = std::string("X");
    return s;
}

} // namespace

std::vector<GeneratorSetting> operationModelSettings() {
    using C = ComputeSpec;
    const auto compute = &GeneratorSpec::compute;
    std::vector<GeneratorSetting> out;

    GeneratorSetting s =
        generatorSetting("compute.model", "compute-model", "Compute model",
                         "roofline (one per block) or operations (each kernel from its GEMM shape "
                         "and the measured curves; needs a gpu with a measured GEMM rate)");
    s.type = Type::Enum;
    s.metavar = std::string("NAME");
    s.choices = {"roofline", "operations"};
    s.get = [](const GeneratorSpec& spec) -> Value {
        return std::string(computeModelName(spec.compute.model));
    };
    s.set = [](GeneratorSpec& spec, const Value& v) {
        spec.compute.model = parseComputeModel(std::get<std::string>(v), "compute-model");
    };
    out.push_back(s);

    s = generatorSetting(
        "compute.gemmTflops", "gemm-tflops", "Achieved GEMM rate",
        "largest GEMMs' measured rate, TFLOP/s (operations model; 0 = roofline; set by --gpu)");
    s.type = Type::Double;
    s.unit = settings::Unit::TeraFlops;
    s.minimum = 0;
    s.maximum = 1e6;
    s.metavar = std::string("X");
    bindGeneratorField(s, compute, &C::gemmTflops);
    out.push_back(s);

    s = generatorSetting("compute.bf16GemmTflops", "bf16-gemm-tflops", "Achieved BF16 GEMM rate",
                         "measured rate of the GEMMs FP8 recipes keep in BF16 (the LM head), "
                         "TFLOP/s (operations model with FP8 GEMMs; 0 = the GEMM rate; set by "
                         "--gpu)");
    s.type = Type::Double;
    s.unit = settings::Unit::TeraFlops;
    s.minimum = 0;
    s.maximum = 1e6;
    s.metavar = std::string("X");
    bindGeneratorField(s, compute, &C::bf16GemmTflops);
    out.push_back(s);

    s = fraction("compute.flashFraction", "flash-fraction", "FlashAttention fraction",
                 "fused attention's rate over the peak (operations model; set by --gpu)");
    bindGeneratorField(s, compute, &C::flashFraction);
    out.push_back(s);
    s = generatorSetting(
        "compute.fp8Gemms", "fp8-gemms", "FP8 GEMMs",
        "GEMM inputs cast to FP8 first (operations model; set by --precision fp8)");
    s.type = Type::Bool;
    s.metavar.clear();
    bindGeneratorField(s, compute, &C::fp8Gemms);
    out.push_back(s);

    s = fraction("compute.memoryEfficiency", "memory-efficiency", "Memory efficiency",
                 "element-wise kernels' bandwidth over the HBM's (operations model)");
    bindGeneratorField(s, compute, &C::memoryEfficiency);
    out.push_back(s);
    return out;
}

} // namespace astrolabe::generate
