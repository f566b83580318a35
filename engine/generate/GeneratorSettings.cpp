// The generator's settings table (GeneratorSettings.h). Ranges are the model builder's field
// limits; validate() still checks the spec as a whole (heads divide hidden, tp divides heads...).
#include "generate/GeneratorSettings.h"

#include "core/Error.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>

// metavar = std::string("X"), not = "X": GCC 12 flags the latter with a false -Wrestrict.

namespace astrolabe::generate {

GeneratorSetting generatorSetting(const std::string& path, const std::string& flag,
                                  const std::string& label, const std::string& help) {
    GeneratorSetting s;
    s.path = path;
    s.flag = flag;
    s.label = label;
    s.help = help;
    return s;
}

namespace {

using settings::Type;
using settings::Unit;
using settings::Value;

GeneratorSetting count(const std::string& path, const std::string& flag, const std::string& label,
                       const std::string& help, double minimum, double maximum) {
    GeneratorSetting s = generatorSetting(path, flag, label, help);
    s.minimum = minimum;
    s.maximum = maximum;
    return s;
}

GeneratorSetting toggle(const std::string& path, const std::string& flag, const std::string& label,
                        const std::string& help) {
    GeneratorSetting s = generatorSetting(path, flag, label, help);
    s.type = Type::Bool;
    s.metavar.clear();
    s.minimum = 0;
    s.maximum = 1;
    return s;
}

GeneratorSetting number(const std::string& path, const std::string& flag, const std::string& label,
                        const std::string& help, double minimum, double maximum, Unit unit) {
    GeneratorSetting s = generatorSetting(path, flag, label, help);
    s.type = Type::Double;
    s.unit = unit;
    s.minimum = minimum;
    s.maximum = maximum;
    s.metavar = std::string("X");
    return s;
}

std::vector<GeneratorSetting> modelSettings() {
    using M = ModelSpec;
    const auto model = &GeneratorSpec::model;
    std::vector<GeneratorSetting> out;
    const auto add = [&](GeneratorSetting s, auto member) {
        bindGeneratorField(s, model, member);
        out.push_back(std::move(s));
    };
    add(count("model.layers", "layers", "Layers", "transformer layers", 1, 100000), &M::layers);
    add(count("model.hidden", "hidden", "Hidden size", "hidden size h", 1, 1 << 20), &M::hidden);
    add(count("model.heads", "heads", "Attention heads", "attention heads", 1, 1 << 16), &M::heads);
    GeneratorSetting s = count("model.kvHeads", "kv-heads", "KV heads (0 = MHA)",
                               "key/value heads (GQA)", 0, 1 << 16);
    add(s, &M::kvHeads);
    add(count("model.headDim", "head-dim", "Head size (0 = h / heads)",
              "query/key/value size per head (0 = hidden / heads)", 0, 1 << 16),
        &M::headDim);
    add(count("model.ffn", "ffn", "FFN size", "FFN inner size", 1, 1 << 22), &M::ffn);
    add(count("model.vocabulary", "vocab", "Vocabulary", "vocabulary size", 1, 1 << 24),
        &M::vocabulary);
    add(count("model.sequence", "seq", "Sequence", "sequence length", 1, 1 << 24), &M::sequence);
    add(toggle("model.swiglu", "swiglu", "SwiGLU",
               "gated FFN (three matrices); --swiglu=false turns it off"),
        &M::swiglu);
    add(toggle("model.dropout", "dropout", "Dropout",
               "trains with dropout, whose masks are kept for the backward pass (GPT); "
               "Llama-style presets train without"),
        &M::dropout);
    add(toggle("model.biases", "biases", "Biases and LayerNorm",
               "linear biases and LayerNorm (GPT); false: no biases, RMSNorm (Llama)"),
        &M::biases);
    add(toggle("model.tiedEmbeddings", "tied-embeddings", "Tied embeddings",
               "the output layer shares the input embedding's table"),
        &M::tiedEmbeddings);
    add(toggle("model.learnedPositions", "learned-positions", "Learned positions",
               "a learned s x h position table (GPT); false: rotary (RoPE), no parameters"),
        &M::learnedPositions);
    add(count("model.experts", "experts", "Experts (0 = dense)", "MoE experts (0 = dense)", 0,
              1 << 16),
        &M::experts);
    add(count("model.topK", "top-k", "Top-k", "experts per token", 0, 1 << 10), &M::topK);
    add(count("model.sharedExperts", "shared-experts", "Shared experts", "always-active experts", 0,
              1 << 10),
        &M::sharedExperts);
    add(count("model.expertFfn", "expert-ffn", "Expert FFN size", "expert FFN inner size", 0,
              1 << 22),
        &M::expertFfn);
    return out;
}

std::vector<GeneratorSetting> trainingSettings() {
    using T = TrainingSpec;
    const auto training = &GeneratorSpec::training;
    std::vector<GeneratorSetting> out;
    GeneratorSetting s = count("training.microBatch", "micro-batch", "Micro-batch",
                               "sequences per micro-batch", 1, 1 << 20);
    bindGeneratorField(s, training, &T::microBatch);
    out.push_back(s);

    s = count("training.globalBatch", "global-batch", "Global batch", "sequences per iteration", 1,
              std::numeric_limits<int>::max());
    bindGeneratorField(s, training, &T::globalBatch);
    s.customFlag = true; // rounded to micro-batch x dp unless given (specFromArgs)
    out.push_back(s);

    // Not a field of the spec: globalBatch / (microBatch x dp), so it is applied last.
    s = count("training.microBatches", "micro-batches", "Micro-batches / pipeline",
              "micro-batches per pipeline (sets the global batch)", 1, 1 << 20);
    s.metavar = std::string("M");
    s.customFlag = true;
    s.applyLast = true;
    s.get = [](const GeneratorSpec& spec) -> Value {
        return static_cast<int64_t>(std::max(1, spec.microBatches()));
    };
    s.set = [](GeneratorSpec& spec, const Value& v) {
        // In 64 bits: an int product would wrap.
        const int64_t batch =
            std::get<int64_t>(v) * spec.training.microBatch * int64_t{spec.parallel.dp};
        if (batch > std::numeric_limits<int>::max())
            throw Error(
                ErrorKind::Validation,
                "micro-batches x micro-batch x dp = " + std::to_string(std::get<int64_t>(v)) +
                    " x " + std::to_string(spec.training.microBatch) + " x " +
                    std::to_string(spec.parallel.dp) + " = " + std::to_string(batch) +
                    " sequences, more than the largest global batch (" +
                    std::to_string(std::numeric_limits<int>::max()) + ")",
                {{}, 0, 0, "training.microBatches"},
                "fewer micro-batches or a smaller micro-batch");
        spec.training.globalBatch = static_cast<int>(batch);
    };
    out.push_back(s);

    s = generatorSetting("training.bytesPerElement", "bytes", "Bytes per element",
                         "bytes per element (1, 2 or 4)");
    s.choices = {"1", "2", "4"};
    s.minimum = 1;
    s.maximum = 4;
    bindGeneratorField(s, training, &T::bytesPerElement);
    out.push_back(s);

    s = toggle("training.fp32Gradients", "fp32-gradients", "FP32 gradients",
               "gradients kept and reduced in fp32, 4 bytes per parameter (Megatron's --bf16 "
               "default); off: in bytes-per-element");
    bindGeneratorField(s, training, &T::fp32Gradients);
    out.push_back(s);

    s = toggle("training.flashAttention", "flash-attention", "Fused (flash) attention",
               "fused attention: no stored scores (--flash-attention=false)");
    bindGeneratorField(s, training, &T::flashAttention);
    out.push_back(s);
    return out;
}

GeneratorSetting tier(const std::string& what, const std::string& states, const std::string& label,
                      OffloadTier OffloadSpec::*member) {
    GeneratorSetting s = generatorSetting("offload." + what, "offload-" + what, label, "");
    s.help = "move ";
    s.help += states;
    s.help += " out of HBM: none, nvme or pool (MEM_LOAD / MEM_STORE nodes)";
    s.type = Type::Enum;
    s.metavar = std::string("TIER");
    s.minimum = s.maximum = 0;
    s.choices = offloadTierNames();
    const std::string flag = s.flag;
    s.get = [member](const GeneratorSpec& spec) -> Value {
        return std::string(offloadTierName(spec.offload.*member));
    };
    s.set = [member, flag](GeneratorSpec& spec, const Value& v) {
        spec.offload.*member = parseOffloadTier(std::get<std::string>(v), flag);
    };
    return s;
}

std::vector<GeneratorSetting> offloadSettings() {
    std::vector<GeneratorSetting> out;
    out.push_back(tier("parameters", "the 16-bit parameters", "Offload parameters",
                       &OffloadSpec::parameters));
    out.push_back(tier("gradients", "the gradients", "Offload gradients", &OffloadSpec::gradients));
    out.push_back(tier("optimizer", "the optimizer states (fp32 master, m, v)",
                       "Offload optimizer states", &OffloadSpec::optimizer));
    GeneratorSetting s =
        count("offload.prefetch", "offload-prefetch", "Prefetch (layers ahead)",
              "offloaded parameters are loaded this many layers ahead", 0, 1 << 16);
    bindGeneratorField(s, &GeneratorSpec::offload, &OffloadSpec::prefetch);
    out.push_back(s);

    s = generatorSetting("offload.step", "offload-step", "Optimizer step on",
                         "where the step over offloaded optimizer states runs: npu, or cpu (CPU "
                         "Adam)");
    s.type = Type::Enum;
    s.metavar = std::string("DEVICE");
    s.minimum = s.maximum = 0;
    s.choices = stepDeviceNames();
    s.get = [](const GeneratorSpec& spec) -> Value {
        return std::string(stepDeviceName(spec.offload.step));
    };
    s.set = [](GeneratorSpec& spec, const Value& v) {
        spec.offload.step = parseStepDevice(std::get<std::string>(v), "offload-step");
    };
    out.push_back(s);

    s = number("offload.cpuGBps", "offload-cpu-bandwidth", "CPU memory bandwidth",
               "memory bandwidth of the CPU step per NPU, 10^9 B/s", 0.1, 1e6, Unit::DecimalGBps);
    s.metavar = std::string("GB/s");
    bindGeneratorField(s, &GeneratorSpec::offload, &OffloadSpec::cpuGBps);
    out.push_back(s);
    return out;
}

} // namespace

const std::vector<GeneratorSetting>& generatorSettings() {
    static const std::vector<GeneratorSetting> all = [] {
        std::vector<GeneratorSetting> out = modelSettings();
        for (std::vector<GeneratorSetting> part : {trainingSettings(), parallelGeneratorSettings()})
            out.insert(out.end(), part.begin(), part.end());
        using C = ComputeSpec;
        const auto compute = &GeneratorSpec::compute;
        GeneratorSetting s = number("compute.peakTflops", "peak-tflops", "Peak",
                                    "dense peak TFLOP/s per NPU", 0.1, 1e6, Unit::TeraFlops);
        bindGeneratorField(s, compute, &C::peakTflops);
        out.push_back(s);
        s = number("compute.hbmGBps", "hbm-bandwidth", "HBM bandwidth", "HBM bandwidth, 10^9 B/s",
                   1, 1e7, Unit::DecimalGBps);
        s.metavar = std::string("GB/s");
        bindGeneratorField(s, compute, &C::hbmGBps);
        out.push_back(s);
        s = number("compute.efficiency", "efficiency", "Efficiency",
                   "fraction of the roofline reached (0..1]", 0.01, 1, Unit::None);
        bindGeneratorField(s, compute, &C::efficiency);
        out.push_back(s);
        s = number("compute.hbmCapacityGiB", "hbm-capacity", "HBM capacity",
                   "HBM capacity for the out-of-memory warning, GiB", 1, 1e6, Unit::None);
        s.metavar = std::string("GiB");
        bindGeneratorField(s, compute, &C::hbmCapacityGiB);
        out.push_back(s);
        for (GeneratorSetting& op : operationModelSettings())
            out.push_back(std::move(op));
        for (GeneratorSetting& offload : offloadSettings())
            out.push_back(std::move(offload));
        s = toggle("output.tensors", "tensors", "Tensor lists",
                   "write tensor lists for track-local-mem (model states, activations); in the "
                   "model builder, a run of the iteration tracks each NPU's memory");
        bindGeneratorField(s, &GeneratorSpec::output, &TraceOutputSpec::tensors);
        out.push_back(s);
        return out;
    }();
    return all;
}

const GeneratorSetting& findGeneratorSetting(const std::string& flag) {
    for (const GeneratorSetting& s : generatorSettings())
        if (s.flag == flag)
            return s;
    throw std::out_of_range("no generator setting --" + flag);
}

std::string generatorValueText(const GeneratorSetting& setting, const Value& value) {
    // The CLI takes bare numbers in the setting's unit; sizes and names as the project file
    // spells them.
    if (setting.type == Type::Double) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", std::get<double>(value));
        return text;
    }
    return settings::projectText(setting, value);
}

} // namespace astrolabe::generate
