// The operation compute model's part of the generator's settings table (GeneratorSettings.h,
// docs/compute-model.md).
#include "generate/GeneratorSettings.h"

// metavar = std::string("X"), not = "X": GCC 12 flags the latter with a false -Wrestrict.

namespace astrolabe::generate {
namespace {

GeneratorSetting fraction(const std::string& key, const std::string& flag, const std::string& label,
                          const std::string& help) {
    GeneratorSetting s;
    s.key = key;
    s.flag = flag;
    s.group = "Compute (per NPU)";
    s.label = label;
    s.help = help;
    s.type = GenType::Double;
    s.minimum = 0.01;
    s.maximum = 1;
    s.decimals = 2;
    s.step = 0.05;
    s.metavar = std::string("X");
    return s;
}

} // namespace

std::vector<GeneratorSetting> operationModelSettings() {
    using C = ComputeSpec;
    const auto compute = &GeneratorSpec::compute;
    std::vector<GeneratorSetting> out;

    GeneratorSetting s;
    s.key = "compute.model";
    s.flag = "compute-model";
    s.group = "Compute (per NPU)";
    s.label = "Compute model";
    s.help = "roofline (one per block) or operations (each kernel from its GEMM shape and the "
             "measured curves; needs a gpu with a measured GEMM rate)";
    s.type = GenType::Name;
    s.metavar = std::string("NAME");
    s.choices = {"roofline", "operations"};
    s.choiceLabels = {"roofline", "by operation"};
    s.get = [](const GeneratorSpec& spec) -> GenValue {
        return std::string(computeModelName(spec.compute.model));
    };
    s.set = [](GeneratorSpec& spec, const GenValue& v) {
        spec.compute.model = parseComputeModel(std::get<std::string>(v), "compute-model");
    };
    out.push_back(s);

    s = GeneratorSetting();
    s.key = "compute.gemmTflops";
    s.flag = "gemm-tflops";
    s.group = "Compute (per NPU)";
    s.label = "Achieved GEMM rate";
    s.help = "largest GEMMs' measured rate, TFLOP/s (operations model; 0 = roofline; set by --gpu)";
    s.type = GenType::Double;
    s.minimum = 0;
    s.maximum = 1e6;
    s.decimals = 1;
    s.unit = " TFLOP/s";
    s.metavar = std::string("X");
    bindGeneratorField(s, compute, &C::gemmTflops);
    out.push_back(s);

    s = fraction("compute.flashFraction", "flash-fraction", "FlashAttention fraction",
                 "fused attention's rate over the peak (operations model; set by --gpu)");
    bindGeneratorField(s, compute, &C::flashFraction);
    out.push_back(s);
    s = GeneratorSetting();
    s.key = "compute.fp8Gemms";
    s.flag = "fp8-gemms";
    s.group = "Compute (per NPU)";
    s.label = "FP8 GEMMs";
    s.help = "GEMM inputs cast to FP8 first (operations model; set by --precision fp8)";
    s.type = GenType::Bool;
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
