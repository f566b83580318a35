#include "generator/GeneratorPresentation.h"

#include <map>

namespace astrolabe::widgets {
namespace {

/// The builder's box of a setting: its part of the spec ("parallel.tp" -> "Parallelism").
std::string boxOf(const std::string& path) {
    static const std::map<std::string, std::string> boxes{{"model", "Model"},
                                                          {"training", "Training"},
                                                          {"parallel", "Parallelism"},
                                                          {"compute", "Compute (per NPU)"},
                                                          {"offload", "Offload (ZeRO-Infinity)"},
                                                          {"output", "Trace output"}};
    const auto at = boxes.find(path.substr(0, path.find('.')));
    return at == boxes.end() ? std::string("Other") : at->second;
}

/// What differs from the defaults, by path.
const std::map<std::string, GeneratorFieldLook>& looks() {
    static const std::map<std::string, GeneratorFieldLook> table = [] {
        std::map<std::string, GeneratorFieldLook> t;
        t["model.kvHeads"].tip = "grouped-query attention";
        t["training.globalBatch"].inBuilder = false; // the builder edits micro-batches instead
        t["training.microBatches"].tip = "global batch = micro-batches x micro-batch x dp";
        t["parallel.zeroStage"].choiceLabels = {"0 (all-reduce)", "1 (optimizer)",
                                                "2 (+ gradients)", "3 (+ weights, FSDP)"};
        t["parallel.placement"].tip = "innermost (consecutive ranks) first";
        t["compute.peakTflops"].decimals = 1;
        t["compute.efficiency"] = {.decimals = 2, .step = 0.05};
        t["compute.hbmCapacityGiB"].suffix = " GiB";
        t["compute.model"].choiceLabels = {"roofline", "by operation"};
        t["compute.gemmTflops"].decimals = 1;
        t["compute.bf16GemmTflops"].decimals = 1;
        t["compute.flashFraction"] = {.decimals = 2, .step = 0.05};
        t["compute.memoryEfficiency"] = {.decimals = 2, .step = 0.05};
        for (const char* tier : {"offload.parameters", "offload.gradients", "offload.optimizer"})
            t[tier].choiceLabels = {"none (HBM)", "NVMe", "memory pool"};
        t["offload.prefetch"].tip = "0: each layer's parameters are loaded just before it runs";
        t["offload.step"].choiceLabels = {"NPU", "CPU (CPU Adam)"};
        t["offload.step"].tip =
            "cpu: each layer's step is a CPU node timed by the CPU's memory bandwidth";
        t["offload.cpuGBps"].decimals = 1;
        t["offload.cpuGBps"].tip =
            "this NPU's share of the host's memory bandwidth (Adam is memory-bound)";
        // Settings that mean nothing without attention layers (DLRM, ResNet).
        for (const char* path :
             {"training.flashAttention", "parallel.tp", "parallel.pp", "parallel.ep", "parallel.cp",
              "parallel.schedule", "parallel.virtualStages", "parallel.zeroStage",
              "parallel.sequenceParallel", "parallel.recompute", "parallel.selectiveRecompute"})
            t[path].transformerOnly = true;
        return t;
    }();
    return table;
}

} // namespace

GeneratorFieldLook generatorFieldLook(const generate::GeneratorSetting& setting) {
    const auto at = looks().find(setting.path);
    GeneratorFieldLook look = at == looks().end() ? GeneratorFieldLook{} : at->second;
    look.box = boxOf(setting.path);
    if (setting.path.rfind("model.", 0) == 0)
        look.transformerOnly = true;
    if (look.suffix.empty())
        look.suffix = settings::unitSuffix(setting.unit);
    return look;
}

} // namespace astrolabe::widgets
