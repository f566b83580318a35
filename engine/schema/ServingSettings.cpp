// The serving group (`serving:`): LLM inference with continuous batching, P/D and
// Attention-FFN disaggregation (engine/serving, docs/serving.md). Astrolabe's own settings; the
// names (model preset, accelerator) are checked when the run is built, where the valid ones are
// listed.
#include "schema/Setting.h"
#include "yaml/ProjectContext.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

namespace astrolabe::settings {
namespace {

constexpr auto kServing = &SimulationSpec::serving;

Setting make(const std::string& key, Type type, const std::string& label, const std::string& help) {
    Setting s = declare("serving." + key, type, label, "serving " + key, help);
    s.compat = Compat::ProjectOnly;
    s.specJsonGroup = "serving";
    s.specJsonKey = key;
    s.compareKey = "serving." + key;
    return s;
}

void choices(Setting& s, std::string ServingSpec::*member, std::vector<std::string> names) {
    s.type = Type::Enum;
    s.choices = names;
    s.get = [member](const SimulationSpec& spec) -> Value { return spec.serving.*member; };
    s.set = [member, names, path = s.path](SimulationSpec& spec, const Value& v) {
        const std::string& name = std::get<std::string>(v);
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw Error(ErrorKind::Validation, "unknown value \"" + name + "\" of " + path, {},
                        config::didYouMean(name, names) + "valid: " + joinAlternatives(names));
        spec.serving.*member = name;
    };
}

// A file path, relative to the project's folder in the file and absolute in the spec.
void pathSetting(Setting& s, std::string ServingSpec::*direct, std::string LengthSpec::*inLength,
                 LengthSpec ServingSpec::*length) {
    s.get = [=](const SimulationSpec& spec) -> Value {
        return direct ? spec.serving.*direct : spec.serving.*length.*inLength;
    };
    s.set = [=](SimulationSpec& spec, const Value& v) {
        (direct ? spec.serving.*direct : spec.serving.*length.*inLength) = std::get<std::string>(v);
    };
    s.hooks.readProject = [set = s.set, path = s.path](config::ProjectContext& c,
                                                       const YAML::Node& value,
                                                       SimulationSpec& spec) {
        std::string file;
        if (config::readString(c.diagnostics, value, path, file))
            set(spec, file.empty() ? file : c.resolve(file));
    };
    s.hooks.writeProject = [get = s.get, key = s.projectKey()](
                               std::ostream& out, const SimulationSpec& spec,
                               const std::function<std::string(const std::string&)>& relative) {
        const std::string file = std::get<std::string>(get(spec));
        if (!file.empty())
            out << "  " << key << ": " << (relative ? relative(file) : file) << "\n";
    };
}

template <typename T>
void lengthField(Setting& s, LengthSpec ServingSpec::*length, T LengthSpec::*member) {
    s.get = [=](const SimulationSpec& spec) -> Value {
        if constexpr (std::is_same_v<T, double>)
            return spec.serving.*length.*member;
        else
            return static_cast<int64_t>(spec.serving.*length.*member);
    };
    s.set = [=](SimulationSpec& spec, const Value& v) {
        if constexpr (std::is_same_v<T, double>)
            spec.serving.*length.*member = std::get<double>(v);
        else
            spec.serving.*length.*member = static_cast<T>(std::get<int64_t>(v));
    };
}

void addLength(std::vector<Setting>& out, const std::string& which, LengthSpec ServingSpec::*len) {
    const std::string noun = which == "input" ? "prompt" : "output";
    Setting s = make(which + "-distribution", Type::Enum, "Distribution of " + noun + " lengths",
                     "fixed (the mean), uniform (min to max), lognormal (the lengths' own mean, "
                     "and the sigma of the underlying normal; clamped to min..max) or empirical "
                     "(lengths drawn from a file, one per line).");
    s.choices = {"fixed", "uniform", "lognormal", "empirical"};
    s.get = [len](const SimulationSpec& spec) -> Value { return (spec.serving.*len).kind; };
    s.set = [len, names = s.choices](SimulationSpec& spec, const Value& v) {
        const std::string& name = std::get<std::string>(v);
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw Error(ErrorKind::Validation, "unknown length distribution \"" + name + "\"", {},
                        config::didYouMean(name, names) + "valid: " + joinAlternatives(names));
        (spec.serving.*len).kind = name;
    };
    out.push_back(s);
    s = make(which + "-mean", Type::Double, "Mean " + noun + " length",
             "Tokens: the length of fixed, the mean of lognormal.");
    s.minimum = 1;
    lengthField(s, len, &LengthSpec::mean);
    out.push_back(s);
    s = make(which + "-sigma", Type::Double, noun + " length sigma",
             "Lognormal: sigma of the underlying normal distribution.");
    s.minimum = 0;
    s.maximum = 10;
    lengthField(s, len, &LengthSpec::sigma);
    out.push_back(s);
    s = make(which + "-min", Type::Int, "Shortest " + noun,
             "Tokens; every length is at least this.");
    s.minimum = 1;
    lengthField(s, len, &LengthSpec::minimum);
    out.push_back(s);
    s = make(which + "-max", Type::Int, "Longest " + noun, "Tokens; every length is at most this.");
    s.minimum = 1;
    s.maximum = 1e7;
    lengthField(s, len, &LengthSpec::maximum);
    out.push_back(s);
    s = make(which + "-file", Type::String, noun + " lengths file",
             "Empirical: a text file of lengths in tokens, one per line; relative to the "
             "project's folder.");
    pathSetting(s, nullptr, &LengthSpec::file, len);
    out.push_back(s);
}

Setting count(const std::string& key, int ServingSpec::*member, const std::string& label,
              const std::string& help, double maximum = 1 << 20) {
    Setting s = make(key, Type::Int, label, help);
    s.minimum = 1;
    s.maximum = maximum;
    bindField(s, kServing, member);
    return s;
}

Setting number(const std::string& key, double ServingSpec::*member, Unit unit,
               const std::string& label, const std::string& help, double minimum, double maximum) {
    Setting s = make(key, unit == Unit::None ? Type::Double : Type::Quantity, label, help);
    s.unit = unit;
    s.minimum = minimum;
    s.maximum = maximum;
    bindField(s, kServing, member);
    return s;
}

std::vector<Setting> servingSettings() {
    std::vector<Setting> out;
    Setting s = make("model", Type::String, "Model",
                     "A model preset: llama3-8b, llama3-70b, qwen3-8b, qwen3-30b-a3b, "
                     "deepseek-v3, ...: the language models among the presets "
                     "'astrolabe-cli generate llm --help' lists under --preset.");
    bindField(s, kServing, &ServingSpec::model);
    // The first setting read back from a stored configuration marks the section present.
    s.hooks.fromSpecJson = [](const nlohmann::json& group, SimulationSpec& spec) {
        if (const auto it = group.find("model"); it != group.end() && it->is_string()) {
            spec.serving.model = it->get<std::string>();
            spec.serving.enabled = true;
        }
    };
    out.push_back(s);
    s = make("gpu", Type::String, "Accelerator",
             "An accelerator of the library (resources/hardware/accelerators.csv): h100, h800, "
             "h200, a100-80gb, ...");
    bindField(s, kServing, &ServingSpec::gpu);
    out.push_back(s);
    s = make("precision", Type::Enum, "Weight precision",
             "Weights and matrix multiplies: bf16 (fp16) or fp8 (halves the weight bytes, doubles "
             "the tensor peak).");
    choices(s, &ServingSpec::precision, {"bf16", "fp16", "fp8"});
    out.push_back(s);
    s = make("kv-precision", Type::Enum, "KV-cache precision", "Bytes per cached element.");
    choices(s, &ServingSpec::kvPrecision, {"bf16", "fp16", "fp8"});
    out.push_back(s);
    s = make("compute-model", Type::Enum, "Compute model",
             "operations: every kernel of an iteration timed from measured figures (DeepGEMM and "
             "FlashMLA tables, the kernel curves; the roofline for what they lack); roofline: "
             "FLOPs and bytes at compute-efficiency and bandwidth-efficiency.");
    choices(s, &ServingSpec::computeModel, {"operations", "roofline"});
    out.push_back(s);
    out.push_back(number("compute-efficiency", &ServingSpec::computeEfficiency, Unit::None,
                         "Compute efficiency",
                         "Roofline: fraction of the dense tensor peak the matrix multiplies and "
                         "attention reach (one figure for the whole model; with compute-model "
                         "operations, only for operations without measured figures).",
                         0.01, 1));
    out.push_back(number("bandwidth-efficiency", &ServingSpec::bandwidthEfficiency, Unit::None,
                         "HBM efficiency",
                         "Roofline: fraction of the HBM bandwidth reached (with compute-model "
                         "operations, only for operations without measured figures).",
                         0.01, 1));
    out.push_back(number(
        "step-overhead", &ServingSpec::stepOverheadNs, Unit::Nanoseconds, "Iteration overhead",
        "Fixed time per iteration the GPUs wait for the host (scheduling, input preparation, "
        "sampling). 0: SGLang's overlapped scheduler left no idle time between decode steps in "
        "its published trace; vLLM 0.5's synchronous loop left about 4 ms (docs/serving.md).",
        0, 1e12));
    s = make("deployment", Type::Enum, "Deployment",
             "aggregated: every replica prefills and decodes (chunked prefill); pd: separate "
             "prefill and decode pools, KV caches sent over the network; afd: a prefill pool and "
             "decode replicas split into attention and FFN GPUs.");
    choices(s, &ServingSpec::deployment, {"aggregated", "pd", "afd"});
    out.push_back(s);
    out.push_back(count("replicas", &ServingSpec::replicas, "Replicas",
                        "Aggregated: replicas; pd and afd: decode replicas."));
    out.push_back(count("tp", &ServingSpec::tp, "Tensor parallelism",
                        "GPUs splitting each attention and dense layer (decode pool for pd)."));
    out.push_back(count("ep", &ServingSpec::ep, "Expert parallelism",
                        "GPUs the experts are spread over; a MoE replica has ep GPUs, attention "
                        "data-parallel over ep / tp groups."));
    out.push_back(count("pp", &ServingSpec::pp, "Pipeline parallelism",
                        "Pipeline stages per replica (aggregated; the decode pool for pd): each "
                        "holds layers / pp layers on tp x ep GPUs, activations sent to the next "
                        "stage over the platform, the batch in pp micro-batches.",
                        256));
    out.push_back(count("prefill-replicas", &ServingSpec::prefillReplicas, "Prefill replicas",
                        "pd and afd: replicas of the prefill pool."));
    out.push_back(count("prefill-tp", &ServingSpec::prefillTp, "Prefill tensor parallelism",
                        "pd and afd: tp of the prefill pool."));
    out.push_back(count("prefill-ep", &ServingSpec::prefillEp, "Prefill expert parallelism",
                        "pd and afd: ep of the prefill pool."));
    out.push_back(count("prefill-pp", &ServingSpec::prefillPp, "Prefill pipeline parallelism",
                        "pd and afd: pipeline stages per prefill replica.", 256));
    out.push_back(count("afd-attention-gpus", &ServingSpec::afdAttentionGpus, "AFD attention GPUs",
                        "afd: attention GPUs per decode replica."));
    out.push_back(count("afd-ffn-gpus", &ServingSpec::afdFfnGpus, "AFD FFN GPUs",
                        "afd: FFN and expert GPUs per decode replica."));
    s = make("two-batch-overlap", Type::Bool, "Two-batch overlap",
             "Two micro-batches per iteration, one's all-to-all hidden behind the other's "
             "computation (DeepSeek's two-batch overlap).");
    bindField(s, kServing, &ServingSpec::twoBatchOverlap);
    out.push_back(s);
    out.push_back(number(
        "comm-sm-fraction", &ServingSpec::commSmFraction, Unit::None, "All-to-all SM share",
        "With two-batch overlap, the share of the SMs the expert all-to-all kernels hold while "
        "an iteration with prefill tokens computes beside them (DeepEP's normal kernels; decode's "
        "low-latency kernels hold none). DeepSeek-V3 prefill on H800 (deepseek-ai/profile-data): "
        "24 of 132 SMs, 0.18.",
        0, 0.9));
    s = number(
        "low-latency-bandwidth-factor", &ServingSpec::lowLatencyBandwidthFactor, Unit::None,
        "Low-latency all-to-all bandwidth factor",
        "The share of the links' bandwidth the expert all-to-all of an iteration that only "
        "decodes moves at (DeepEP's low-latency kernels: one message per token and expert, "
        "none forwarded), on top of system.all-to-all-bandwidth-factor; iterations with prefill "
        "tokens (its normal kernels) keep the platform's. 1: the platform's all-to-all. "
        "DeepSeek-V3 on H800 with 400 Gb/s CX7 NICs: 0.85, from DeepEP's published EP128 "
        "figures (docs/serving.md).",
        0, 1);
    s.minimumExclusive = true;
    out.push_back(s);
    out.push_back(number("moe-imbalance", &ServingSpec::moeImbalance, Unit::None, "MoE imbalance",
                         "Load of the busiest expert GPU over the mean (1: balanced routing).", 1,
                         64));
    out.push_back(count("max-batch", &ServingSpec::maxBatch, "Maximum batch",
                        "Running requests per replica."));
    out.push_back(count("token-budget", &ServingSpec::tokenBudget, "Token budget",
                        "Tokens per iteration: decodes plus prefill chunks.", 1 << 26));
    s = make("chunked-prefill", Type::Bool, "Chunked prefill",
             "Split long prompts across iterations within the token budget; off: a prompt runs "
             "whole, waiting for a budget that holds it.");
    bindField(s, kServing, &ServingSpec::chunkedPrefill);
    out.push_back(s);
    out.push_back(count("block-tokens", &ServingSpec::blockTokens, "KV block size",
                        "Tokens per block of the paged KV cache.", 4096));
    out.push_back(number("kv-memory-fraction", &ServingSpec::kvMemoryFraction, Unit::None,
                         "Usable HBM", "Fraction of HBM for the weights and the KV cache.", 0.01,
                         1));
    s = make("preemption", Type::Enum, "Preemption",
             "When the KV cache is full: recompute (drop the newest request's cache; it is "
             "recomputed when readmitted) or swap (copy it to host memory and back).");
    choices(s, &ServingSpec::preemption, {"recompute", "swap"});
    out.push_back(s);
    out.push_back(number("swap-bandwidth", &ServingSpec::swapGBps, Unit::DecimalGBps,
                         "Swap bandwidth",
                         "Each GPU's link to host memory for swap preemption (PCIe 5 x16: "
                         "about 50 GB/s).",
                         0.001, 1e6));
    s = make("arrival", Type::Enum, "Arrivals",
             "poisson or gamma at `rate`, or a closed loop of `concurrency` requests in flight.");
    choices(s, &ServingSpec::arrival, {"poisson", "gamma", "concurrency"});
    out.push_back(s);
    out.push_back(number("rate", &ServingSpec::rate, Unit::None, "Request rate",
                         "Requests per second (poisson, gamma).", kMinServingRate,
                         kMaxServingRate));
    out.push_back(number("burstiness", &ServingSpec::burstiness, Unit::None, "Burstiness",
                         "Gamma: coefficient of variation of the gaps (1: Poisson).", 0.01, 100));
    out.push_back(count("concurrency", &ServingSpec::concurrency, "Concurrency",
                        "Closed loop: requests kept in flight."));
    out.push_back(number("duration", &ServingSpec::durationNs, Unit::Nanoseconds, "Duration",
                         "Arrivals stop after this much simulated time (also cuts a trace).", 1e6,
                         kMaxServingDurationNs));
    s = make("seed", Type::Int, "Seed", "Random seed of the synthetic requests.");
    s.minimum = 0;
    bindField(s, kServing, &ServingSpec::seed);
    out.push_back(s);
    addLength(out, "input", &ServingSpec::input);
    addLength(out, "output", &ServingSpec::output);
    out.push_back(number("prefix-reuse", &ServingSpec::prefixReuse, Unit::None, "Prefix reuse",
                         "Fraction of each prompt found in the prefix cache (not prefilled).", 0,
                         0.999));
    s = make("trace", Type::String, "Request trace",
             "A CSV request trace instead of synthetic arrivals; relative to the project.");
    pathSetting(s, &ServingSpec::trace, nullptr, nullptr);
    out.push_back(s);
    s = make("trace-format", Type::Enum, "Trace format",
             "azure (TIMESTAMP,ContextTokens,GeneratedTokens) or burstgpt.");
    choices(s, &ServingSpec::traceFormat, {"azure", "burstgpt"});
    out.push_back(s);
    out.push_back(number("ttft-slo", &ServingSpec::ttftSloNs, Unit::Nanoseconds, "TTFT SLO",
                         "Time to first token a request must meet to count in the goodput.", 1,
                         1e15));
    out.push_back(number("tpot-slo", &ServingSpec::tpotSloNs, Unit::Nanoseconds, "TPOT SLO",
                         "Time per output token a request must meet to count in the goodput.", 1,
                         1e15));
    return out;
}

} // namespace

const Group& servingGroup() {
    static const Group group{"serving", "Serving (`serving:`)", servingSettings()};
    return group;
}

} // namespace astrolabe::settings
