#include "serving/Deployment.h"

#include "core/Error.h"
#include "core/Units.h"
#include "generate/ModelPresets.h"
#include "hardware/Accelerator.h"
#include "hardware/KernelCurves.h"
#include "hardware/MeasuredKernels.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

namespace astrolabe::serving {
namespace {

Error invalid(const std::string& key, const std::string& message, const std::string& hint = {}) {
    return Error(ErrorKind::Validation, message, SourceLocation{{}, 0, 0, key}, hint);
}

double bytesOf(const std::string& precision, const std::string& key) {
    if (precision == "bf16" || precision == "fp16")
        return 2;
    if (precision == "fp8")
        return 1;
    throw invalid(key, "unknown precision \"" + precision + "\"", "valid: bf16, fp16, fp8");
}

struct Builder {
    const SimulationSpec& spec;
    const ServingSpec& s;
    generate::ModelSpec model;
    ModelFigures figures;
    hardware::Accelerator gpu;
    std::map<std::tuple<int, int, double>, LinearTime> fits;

    /// The platform's collective over `gpus` GPUs, fitted once per (collective, GPUs, factor);
    /// `allToAllFactor` scales the all-to-all's bandwidth on top of the system's own factor.
    LinearTime fit(int collective, int gpus, const std::string& key, double allToAllFactor = 1) {
        const auto k = std::make_tuple(collective, gpus, allToAllFactor);
        if (const auto it = fits.find(k); it != fits.end())
            return it->second;
        SimulationSpec scaled = spec;
        scaled.system.bandwidthFactor[static_cast<size_t>(CollectiveKind::AllToAll)] *=
            allToAllFactor;
        return fits[k] =
                   fitCollective(scaled, collective, gpus, key, s.computeModel == "operations");
    }

    /// The all-to-all of iterations that only decode (DeepEP's low-latency kernels): the
    /// platform's at low-latency-bandwidth-factor of its links' bandwidth. None when the factor
    /// is 1 (the platform's own all-to-all serves both).
    std::optional<LinearTime> lowLatencyFit(int gpus, const std::string& key) {
        if (!model.isMoe() || s.lowLatencyBandwidthFactor == 1)
            return std::nullopt;
        return fit(6, gpus, key, s.lowLatencyBandwidthFactor);
    }

    ReplicaHardware hardwareFor(int gpus, int tp) const {
        ReplicaHardware hw;
        hw.gpu = gpu;
        hw.peakFlops = hardware::peakTflops(gpu, s.precision, "serving.precision") * 1e12;
        hw.peak16Flops = hardware::peakTflops(gpu, "bf16", "serving.gpu") * 1e12;
        hw.hbmBytesPerSecond = gpu.hbmGBps * 1e9;
        hw.computeEfficiency = s.computeEfficiency;
        hw.bandwidthEfficiency = s.bandwidthEfficiency;
        hw.weightBytesPerParameter = bytesOf(s.precision, "serving.precision");
        hw.kvBytesPerElement = bytesOf(s.kvPrecision, "serving.kv-precision");
        hw.moeImbalance = s.moeImbalance;
        hw.swapBytesPerSecond = s.swapGBps * 1e9;
        hw.gpus = gpus;
        hw.tp = tp;
        hw.operations = s.computeModel == "operations";
        if (const hardware::GemmRate* r = hardware::findGemmRate(gpu.name, s.precision)) {
            hw.gemmTflops = r->gemmTflops;
            hw.flashFraction = r->flashFraction;
        }
        if (const hardware::GemmRate* r = hardware::findGemmRate(gpu.name, "bf16")) {
            hw.gemm16Tflops = r->gemmTflops;
            hw.flashFraction = r->flashFraction;
        }
        hw.mla = hardware::findMlaDecodeRate(gpu.name);
        hw.commSmFraction = s.commSmFraction;
        const auto& dims = spec.platform.dimensions;
        if (!spec.platform.graph && dims.size() > 1 && dims.front().size > 1 &&
            gpus > dims.front().size)
            hw.gpusPerNode = dims.front().size;
        return hw;
    }

    double usableBytes() const { return gpu.hbmBytes() * s.kvMemoryFraction; }

    /// KV blocks of a replica whose `groups` attention groups each keep `cost`'s cache, its
    /// layers split over `stages` pipeline stages.
    int64_t kvBlocks(const StepCost& cost, int groups, const std::string& key,
                     int stages = 1) const {
        const double free = usableBytes() - cost.weightBytesPerGpu() / stages;
        if (free <= 0)
            throw invalid(key,
                          "the weights need " +
                              units::formatSize(uint64_t(cost.weightBytesPerGpu() / stages)) +
                              " per GPU, more than the " +
                              units::formatSize(uint64_t(usableBytes())) + " of HBM usable (" +
                              gpu.name + " x kv-memory-fraction)",
                          "spread the model over more GPUs (tp, ep, pp) or use fp8 weights");
        const double tokens = std::floor(free / (cost.kvBytesPerTokenPerGpu() / stages)) * groups;
        return std::min<int64_t>(int64_t(tokens / s.blockTokens), int64_t(1) << 40);
    }

    SchedulerLimits limits(int64_t blocks, bool prefillOnly) const {
        SchedulerLimits l;
        l.maxBatch = s.maxBatch;
        l.tokenBudget = s.tokenBudget;
        l.chunkedPrefill = s.chunkedPrefill;
        l.blockTokens = s.blockTokens;
        l.kvBlocks = blocks;
        l.prefillOnly = prefillOnly;
        l.swap = s.preemption == "swap";
        return l;
    }

    Pool colocated(PoolRole role, int replicas, int tp, int ep, int pp, const std::string& prefix) {
        if (tp < 1 || ep < 1 || replicas < 1)
            throw invalid(prefix + "tp", "expected tp, ep and replicas of 1 or more");
        if (pp < 1 || pp > model.layers)
            throw invalid(prefix + "pp", "expected 1 to " + std::to_string(model.layers) +
                                             " pipeline stages (the model's layers), found " +
                                             std::to_string(pp));
        // What a serving engine accepts (vLLM, SGLang): tensor parallelism splits the attention
        // heads evenly, and the key-value heads evenly or by replication; expert parallelism
        // needs experts.
        if (model.heads % tp != 0)
            throw invalid(prefix + "tp", "expected a tp that divides " + s.model + "'s " +
                                             std::to_string(model.heads) +
                                             " attention heads, found " + std::to_string(tp));
        if (const int kv = model.kvHeadCount(); kv % tp != 0 && tp % kv != 0)
            throw invalid(prefix + "tp", "expected a tp that divides " + s.model + "'s " +
                                             std::to_string(kv) +
                                             " key-value heads or is a multiple of them, found " +
                                             std::to_string(tp));
        if (!model.isMoe() && ep > 1)
            throw invalid(prefix + "ep",
                          s.model +
                              " is dense (no experts): expert parallelism applies to "
                              "mixture-of-experts models, found ep " +
                              std::to_string(ep),
                          "set " + prefix + "ep: 1, or choose an MoE model");
        const int gpus = std::max(tp, model.isMoe() ? ep : 1);
        if (gpus % tp != 0)
            throw invalid(prefix + "ep", "expected ep (" + std::to_string(ep) +
                                             ") to be a multiple of tp (" + std::to_string(tp) +
                                             ")");
        StepCost cost(figures, hardwareFor(gpus, tp));
        const LinearTime allReduce = fit(0, tp, prefix + "tp");
        const LinearTime allToAll = model.isMoe() ? fit(6, gpus, prefix + "ep") : LinearTime{};
        Pool p;
        p.role = role;
        p.replicas = replicas;
        p.gpusPerReplica = gpus * pp;
        p.kvHolders = tp * pp;
        p.weightBytesPerGpu = cost.weightBytesPerGpu() / pp;
        p.limits = limits(kvBlocks(cost, gpus / tp,
                                   prefix + (pp > 1          ? "pp"
                                             : model.isMoe() ? "ep"
                                                             : "tp"),
                                   pp),
                          role == PoolRole::Prefill);
        const double overhead = s.stepOverheadNs * 1e-9;
        auto stage = std::make_shared<ColocatedTiming>(cost, allReduce, allToAll, s.twoBatchOverlap,
                                                       pp > 1 ? 0 : overhead,
                                                       lowLatencyFit(gpus, prefix + "ep"));
        if (pp == 1) {
            p.timing = stage;
            return p;
        }
        // Stage k's GPUs follow stage k - 1's in NPU order: GPU i sends to GPU i + gpus over
        // the link of the dimension where the two differ; each GPU of a stage sends its
        // attention group's share of a token's activations (BF16).
        p.timing = std::make_shared<PipelineTiming>(stage, pp, stageLink(gpus),
                                                    2.0 * model.hidden / (gpus / tp), overhead);
        return p;
    }

    /// The link between NPU 0 and NPU `distance`: the first dimension whose block holds both.
    LinkFigures stageLink(int distance) const {
        const PlatformSpec& platform = spec.platform;
        if (platform.graph || platform.dimensions.empty())
            return scaleOutLink(platform);
        int inner = 1;
        for (const DimensionSpec& d : platform.dimensions) {
            inner *= d.size;
            if (distance < inner)
                return {d.bandwidthBytesPerSecond, d.latencyNs * 1e-9};
        }
        return scaleOutLink(platform);
    }

    Pool afdDecode(const LinkFigures& link) {
        const int na = s.afdAttentionGpus, nf = s.afdFfnGpus;
        if (na < 1 || nf < 1)
            throw invalid("serving.afd-attention-gpus",
                          "expected 1 or more attention and FFN GPUs per AFD replica");
        StepCost attention(attentionPart(figures, model), hardwareFor(na, 1));
        StepCost ffn(ffnPart(figures, model), hardwareFor(nf, 1));
        if (ffn.weightBytesPerGpu() > usableBytes())
            throw invalid("serving.afd-ffn-gpus",
                          "the FFN and expert weights need " +
                              units::formatSize(uint64_t(ffn.weightBytesPerGpu())) +
                              " per FFN GPU, more than the " +
                              units::formatSize(uint64_t(usableBytes())) + " usable",
                          "give each AFD replica more FFN GPUs");
        Pool p;
        p.role = PoolRole::Decode;
        p.replicas = s.replicas;
        p.gpusPerReplica = na + nf;
        p.kvHolders = 1;
        p.weightBytesPerGpu = attention.weightBytesPerGpu();
        p.limits = limits(kvBlocks(attention, na, "serving.afd-attention-gpus"), false);
        p.timing = std::make_shared<AfdTiming>(attention, ffn, link, 2, s.stepOverheadNs * 1e-9);
        return p;
    }
};

} // namespace

const std::vector<std::string>& deploymentNames() {
    static const std::vector<std::string> names{"aggregated", "pd", "afd"};
    return names;
}

namespace {

Deployment buildDeploymentOf(const SimulationSpec& spec, int typicalPrompt) {
    const ServingSpec& s = spec.serving;
    const auto& names = deploymentNames();
    if (std::find(names.begin(), names.end(), s.deployment) == names.end())
        throw invalid("serving.deployment", "unknown deployment \"" + s.deployment + "\"",
                      "valid: " + joinAlternatives(names));
    if (s.blockTokens < 1 || s.maxBatch < 1 || s.tokenBudget < 1)
        throw invalid("serving.block-tokens",
                      "expected block-tokens, max-batch and token-budget of 1 or more");
    Builder b{spec, s, {}, {}, {}, {}};
    try {
        b.model = generate::presetSpec(s.model).model;
    } catch (const Error& e) {
        throw Error(ErrorKind::Validation, e.message(), SourceLocation{{}, 0, 0, "serving.model"},
                    e.hint());
    }
    if (b.model.kind != generate::ModelKind::Transformer)
        throw invalid("serving.model", "\"" + s.model + "\" is not a transformer LLM",
                      "serving simulates decoder-only language models");
    b.figures = modelFigures(b.model);
    b.gpu = hardware::findAccelerator(s.gpu, "serving.gpu");

    Deployment d;
    d.link = scaleOutLink(spec.platform);
    if (s.deployment == "aggregated") {
        d.pools.push_back(
            b.colocated(PoolRole::Aggregated, s.replicas, s.tp, s.ep, s.pp, "serving."));
    } else {
        d.pools.push_back(b.colocated(PoolRole::Prefill, s.prefillReplicas, s.prefillTp,
                                      s.prefillEp, s.prefillPp, "serving.prefill-"));
        d.pools.push_back(s.deployment == "pd" ? b.colocated(PoolRole::Decode, s.replicas, s.tp,
                                                             s.ep, s.pp, "serving.")
                                               : b.afdDecode(d.link));
    }
    d.kvBytesPerToken = StepCost(b.figures, b.hardwareFor(1, 1)).kvBytesPerToken();
    for (const Pool& p : d.pools)
        d.gpus += p.replicas * p.gpusPerReplica;

    StepShape decode;
    decode.decodeTokens = decode.logits = 1;
    decode.decodeContext = typicalPrompt + 1;
    d.loneDecodeSeconds = d.pools.back().timing->stepSeconds(decode);
    StepShape prefill;
    prefill.prefillTokens = typicalPrompt;
    prefill.prefillContext = double(typicalPrompt) * (typicalPrompt + 1) / 2;
    prefill.logits = 1;
    d.lonePrefillSeconds = d.pools.front().timing->stepSeconds(prefill);
    return d;
}

} // namespace

Deployment buildDeployment(const SimulationSpec& spec, int typicalPrompt) {
    try {
        return buildDeploymentOf(spec, typicalPrompt);
    } catch (const Error& e) {
        // The serving section's mistakes are the project file's: name it.
        if (!e.where().file.empty() || spec.sourceFile.empty())
            throw;
        SourceLocation where = e.where();
        where.file = spec.sourceFile;
        throw Error(e.kind(), e.message(), where, e.hint());
    }
}

} // namespace astrolabe::serving
