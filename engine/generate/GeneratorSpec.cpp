#include "generate/GeneratorSpec.h"

#include "core/Error.h"
#include "generate/ModelFigures.h"
#include "generate/TransformerCounts.h"
#include "spec/SpecValidation.h"

#include <algorithm>
#include <sstream>

namespace astrolabe::generate {

const char* pipelineScheduleName(PipelineSchedule schedule) {
    switch (schedule) {
    case PipelineSchedule::GPipe:
        return "gpipe";
    case PipelineSchedule::OneFOneB:
        return "1f1b";
    case PipelineSchedule::Interleaved:
        return "interleaved";
    }
    return "1f1b";
}

PipelineSchedule parsePipelineSchedule(const std::string& name) {
    for (PipelineSchedule s :
         {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
        if (name == pipelineScheduleName(s))
            return s;
    throw Error(ErrorKind::Validation, "unknown pipeline schedule \"" + name + "\"",
                SourceLocation{{}, 0, 0, "parallel.schedule"},
                "expected " + joinAlternatives({"gpipe", "1f1b", "interleaved"}));
}

const char* offloadTierName(OffloadTier tier) {
    switch (tier) {
    case OffloadTier::None:
        return "none";
    case OffloadTier::Nvme:
        return "nvme";
    case OffloadTier::Pool:
        return "pool";
    }
    return "none";
}

const std::vector<std::string>& offloadTierNames() {
    static const std::vector<std::string> names{"none", "nvme", "pool"};
    return names;
}

const char* stepDeviceName(StepDevice device) {
    return device == StepDevice::Cpu ? "cpu" : "npu";
}

const std::vector<std::string>& stepDeviceNames() {
    static const std::vector<std::string> names{"npu", "cpu"};
    return names;
}

StepDevice parseStepDevice(const std::string& name, const std::string& key) {
    for (StepDevice device : {StepDevice::Npu, StepDevice::Cpu})
        if (name == stepDeviceName(device))
            return device;
    std::string message = "expected ";
    message += joinAlternatives(stepDeviceNames());
    message += ", found \"";
    message += name;
    message += '"';
    throw Error(ErrorKind::Validation, message, SourceLocation{{}, 0, 0, key});
}

OffloadTier parseOffloadTier(const std::string& name, const std::string& key) {
    for (OffloadTier tier : {OffloadTier::None, OffloadTier::Nvme, OffloadTier::Pool})
        if (name == offloadTierName(tier))
            return tier;
    std::string message = "expected ";
    message += joinAlternatives(offloadTierNames());
    message += ", found \"";
    message += name;
    message += '"';
    throw Error(ErrorKind::Validation, message, SourceLocation{{}, 0, 0, key});
}

const char* computeModelName(ComputeModel model) {
    return model == ComputeModel::Operations ? "operations" : "roofline";
}

ComputeModel parseComputeModel(const std::string& name, const std::string& key) {
    for (ComputeModel model : {ComputeModel::Roofline, ComputeModel::Operations})
        if (name == computeModelName(model))
            return model;
    throw Error(ErrorKind::Validation, "expected roofline or operations, found \"" + name + "\"",
                SourceLocation{{}, 0, 0, key});
}

int GeneratorSpec::microBatches() const {
    const int64_t perStep = int64_t{training.microBatch} * parallel.dp;
    return perStep > 0 ? static_cast<int>(training.globalBatch / perStep) : 0;
}

namespace {

class Checker {
public:
    void require(bool ok, const std::string& key, const std::string& what,
                 const std::string& hint = {}) {
        if (!ok)
            m_errors.emplace_back(ErrorKind::Validation, what, SourceLocation{{}, 0, 0, key}, hint);
    }
    void positive(int value, const std::string& key) {
        require(value > 0, key, "must be positive, found " + std::to_string(value));
    }
    void divides(int64_t divisor, int64_t value, const std::string& key, const std::string& what) {
        require(divisor > 0 && value % divisor == 0, key,
                what + " (" + std::to_string(value) + " is not a multiple of " +
                    std::to_string(divisor) + ")");
    }
    void finish() {
        if (m_errors.size() == 1)
            throw m_errors.front();
        if (!m_errors.empty())
            throw ErrorList(m_errors);
    }

private:
    std::vector<Error> m_errors;
};

bool isPlacement(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');)
        parts.push_back(part);
    std::sort(parts.begin(), parts.end());
    return parts == std::vector<std::string>{"dp", "pp", "tp"};
}

void validateTransformer(const GeneratorSpec& spec, Checker& c) {
    const ModelSpec& m = spec.model;
    const ParallelSpec& p = spec.parallel;
    c.positive(m.layers, "model.layers");
    c.positive(m.hidden, "model.hidden");
    c.positive(m.heads, "model.heads");
    c.positive(m.ffn, "model.ffn");
    c.positive(m.vocabulary, "model.vocabulary");
    c.positive(m.sequence, "model.sequence");
    if (m.heads <= 0 || p.tp <= 0)
        return;
    if (m.headDim == 0 && m.hidden > 0)
        c.require(m.hidden % m.heads == 0, "model.hidden",
                  "the hidden size must split evenly over the attention heads (" +
                      std::to_string(m.hidden) + " is not a multiple of " +
                      std::to_string(m.heads) + ")",
                  "change hidden or heads");
    if (m.hidden > 0 && m.ffn > 0 && m.layers > 0 && m.vocabulary > 0) {
        const double parameters = transformerParameters(m).total;
        c.require(parameters <= kMaxModelParameters, "model",
                  "expected at most " + formatCount(kMaxModelParameters) + " parameters, found " +
                      formatCount(parameters) +
                      " (layers x hidden^2 and the FFN, vocabulary and experts)",
                  kLimitsHint);
    }
    c.divides(p.tp, m.heads, "model.heads", "attention heads must split evenly over tp");
    c.divides(m.kvHeadCount(), m.heads, "model.kvHeads", "heads must be a multiple of kvHeads");
    c.require(m.kvHeadCount() % p.tp == 0 || p.tp % m.kvHeadCount() == 0, "model.kvHeads",
              "kvHeads and tp must divide one another");
    c.divides(p.tp, m.ffn, "model.ffn", "the FFN must split evenly over tp");
    c.require(!p.sequenceParallel || m.sequence % p.tp == 0, "parallel.sp",
              "sequence parallelism needs sequence % tp == 0");
    const int64_t chunks = int64_t{p.pp} * p.virtualStages;
    c.require(m.layers >= chunks, "model.layers",
              "fewer layers (" + std::to_string(m.layers) + ") than pipeline chunks (" +
                  std::to_string(chunks) + ")",
              "lower pp or virtual stages");
    c.require(!(p.recompute && p.selectiveRecompute), "parallel.selectiveRecompute",
              "full recomputation already recomputes the attention core: expected one of "
              "recompute and selective-recompute, found both",
              "turn one of them off");
    if (p.cp > 1)
        for (const std::string& why : contextParallelProblems(spec, p.cp))
            c.require(false, "parallel.cp", why);
    if (m.isMoe()) {
        c.require(m.topK > 0 && m.topK <= m.experts, "model.topK", "needs 1 <= topK <= experts");
        c.positive(m.expertFfn, "model.expertFfn");
        c.divides(p.ep, m.experts, "model.experts", "experts must split evenly over ep");
        c.require(p.sequenceParallel || m.sequence % p.tp == 0, "model.sequence",
                  "MoE tokens are split over tp: sequence % tp must be 0");
    } else {
        c.require(p.ep == 1, "parallel.ep", "expert parallelism needs an MoE model (experts > 0)");
    }
}

} // namespace

std::vector<std::string> contextParallelProblems(const GeneratorSpec& spec, int cp) {
    std::vector<std::string> out;
    if (cp <= 1)
        return out;
    const ModelSpec& m = spec.model;
    if (!spec.training.flashAttention)
        out.push_back("context parallelism needs fused attention (flash-attention on): the ring "
                      "exchanges keys and values between FlashAttention chunks");
    if (m.sequence % (2 * cp) != 0)
        out.push_back("the sequence is split into 2 x cp chunks (two per rank, for the causal "
                      "mask's balance): sequence % (2 cp) must be 0, found " +
                      std::to_string(m.sequence) + " and cp " + std::to_string(cp));
    if (m.isMoe())
        out.push_back("context parallelism with MoE layers is not modeled: use cp 1 for MoE "
                      "models");
    return out;
}

void validate(const GeneratorSpec& spec) {
    Checker c;
    const ParallelSpec& p = spec.parallel;
    c.positive(p.tp, "parallel.tp");
    c.positive(p.pp, "parallel.pp");
    c.positive(p.dp, "parallel.dp");
    c.positive(p.ep, "parallel.ep");
    c.positive(p.cp, "parallel.cp");
    c.positive(p.virtualStages, "parallel.virtualStages");
    if (p.tp > 0 && p.pp > 0 && p.dp > 0 && p.cp > 0) {
        const uint64_t npus = uint64_t(p.tp) * uint64_t(p.pp) * uint64_t(p.dp) * uint64_t(p.cp);
        const std::string cp = p.cp > 1 ? " x cp" : "";
        c.require(npus <= kMaxNpus, "parallel",
                  "expected at most " + std::to_string(kMaxNpus) + " NPUs, found tp x pp x dp" +
                      cp + " = " + std::to_string(p.tp) + " x " + std::to_string(p.pp) + " x " +
                      std::to_string(p.dp) + (p.cp > 1 ? " x " + std::to_string(p.cp) : "") +
                      " = " + std::to_string(npus),
                  kLimitsHint);
    }
    if (p.pp > 0 && spec.model.layers > 0 && spec.microBatches() > 0) {
        const int64_t perStage = (int64_t{spec.model.layers} + p.pp - 1) / p.pp;
        const int64_t passes = perStage * spec.microBatches();
        c.require(passes <= kMaxLayerPassesPerRank, "training.globalBatch",
                  "expected at most " + std::to_string(kMaxLayerPassesPerRank) +
                      " layer passes per NPU, found layers per stage x micro-batches = " +
                      std::to_string(perStage) + " x " + std::to_string(spec.microBatches()) +
                      " = " + std::to_string(passes),
                  kLimitsHint);
    }
    c.positive(spec.training.microBatch, "training.microBatch");
    c.positive(spec.training.globalBatch, "training.globalBatch");
    c.require(spec.training.bytesPerElement == 1 || spec.training.bytesPerElement == 2 ||
                  spec.training.bytesPerElement == 4,
              "training.bytesPerElement", "must be 1, 2 or 4");
    c.require(p.zeroStage >= 0 && p.zeroStage <= 3, "parallel.zero", "ZeRO stage must be 0..3");
    c.require(spec.offload.prefetch >= 0, "offload.prefetch",
              "must be 0 or more, found " + std::to_string(spec.offload.prefetch));
    c.require(spec.offload.step == StepDevice::Npu || spec.offload.optimizer != OffloadTier::None,
              "offload.step",
              "the optimizer step runs on the CPU only over offloaded optimizer states, found "
              "offload.optimizer none",
              "offload the optimizer states (nvme or pool), or keep the step on the npu");
    if (!(spec.offload.cpuGBps > 0)) {
        std::ostringstream found;
        found << "the CPU's memory bandwidth must be positive, found " << spec.offload.cpuGBps
              << " GB/s";
        c.require(false, "offload.cpuGBps", found.str());
    }
    c.require(p.bucketBytes > 0, "parallel.bucketBytes", "must be positive");
    c.require(isPlacement(p.placement), "parallel.placement",
              "expected a permutation of tp,dp,pp, found \"" + p.placement + "\"",
              "innermost first, e.g. tp,dp,pp");
    c.require(spec.compute.peakTflops > 0 && spec.compute.hbmGBps > 0, "compute",
              "peak TFLOP/s and HBM bandwidth must be positive");
    c.require(spec.compute.efficiency > 0 && spec.compute.efficiency <= 1, "compute.efficiency",
              "must be in (0, 1]");
    c.require(spec.compute.gemmTflops >= 0 && spec.compute.flashFraction > 0 &&
                  spec.compute.flashFraction <= 1 && spec.compute.memoryEfficiency > 0 &&
                  spec.compute.memoryEfficiency <= 1,
              "compute", "GEMM rate must be >= 0 and the fractions in (0, 1]");
    if (p.dp > 0 && p.ep > 0)
        c.divides(p.ep, p.dp, "parallel.ep", "ep is carved out of dp: dp must be a multiple of ep");
    if (spec.training.microBatch > 0 && p.dp > 0 && spec.training.globalBatch > 0)
        c.divides(int64_t{spec.training.microBatch} * p.dp, spec.training.globalBatch,
                  "training.globalBatch", "global batch must be micro-batch x dp x micro-batches");
    if (p.schedule == PipelineSchedule::Interleaved) {
        c.require(p.pp >= 2, "parallel.pp", "the interleaved schedule needs pp >= 2");
        c.require(p.virtualStages >= 2, "parallel.virtualStages",
                  "the interleaved schedule needs at least 2 virtual stages");
        // Megatron-LM's rule: every virtual stage holds the same number of layers, where the
        // embedding and the loss may each count as one (account_for_embedding_in_pipeline_split
        // and account_for_loss_in_pipeline_split; NeMo's Llama 3.1 405B splits 126 + 2 layers
        // into pp 8 x v 8 = 64 chunks of 2). The split in TransformerProgram gives the first
        // chunk, which holds the embedding, the fewer layers.
        const int64_t chunks = int64_t{p.pp} * p.virtualStages;
        const int64_t layers = spec.model.layers;
        c.require(chunks < 1 || layers % chunks == 0 || (layers + 1) % chunks == 0 ||
                      (layers + 2) % chunks == 0,
                  "parallel.virtualStages",
                  "the interleaved schedule splits the " + std::to_string(layers) +
                      " layers into pp x virtual stages = " + std::to_string(chunks) +
                      " equal chunks: expected a count that divides them, or them and the "
                      "embedding or the loss counted as a layer (" +
                      std::to_string(layers + 1) + " or " + std::to_string(layers + 2) + ")",
                  "choose virtual stages so that pp x virtual stages divides the layers");
        const int m = spec.microBatches();
        c.require(p.pp > 0 && m % p.pp == 0, "parallel.microBatches",
                  "the interleaved schedule needs micro-batches (" + std::to_string(m) +
                      ") to be a multiple of pp");
    } else {
        c.require(p.virtualStages == 1, "parallel.virtualStages",
                  "virtual stages need the interleaved schedule");
    }
    if (spec.model.kind == ModelKind::Transformer) {
        validateTransformer(spec, c);
    } else if (spec.model.kind == ModelKind::Dlrm) {
        const ModelSpec& m = spec.model;
        c.positive(m.denseFeatures, "model.denseFeatures");
        c.positive(m.embeddingTables, "model.embeddingTables");
        c.positive(m.embeddingDim, "model.embeddingDim");
        c.require(m.embeddingRows > 0, "model.embeddingRows", "must be positive");
        c.require(!m.bottomMlp.empty() && m.bottomMlp.back() == m.embeddingDim, "model.bottomMlp",
                  "the bottom MLP must end in embeddingDim outputs (they meet the embeddings)");
        c.require(!m.topMlp.empty(), "model.topMlp", "needs at least one layer");
    } else {
        c.positive(spec.model.imageSize, "model.imageSize");
    }
    if (spec.model.kind != ModelKind::Transformer) {
        c.require(p.tp == 1 && p.pp == 1 && p.ep == 1 && p.cp == 1, "parallel",
                  "DLRM and ResNet presets are data parallel only (tp = pp = ep = cp = 1)");
        c.require(p.zeroStage == 0, "parallel.zero", "DLRM and ResNet use plain all-reduce");
    }
    c.finish();
}

void validateModel(const GeneratorSpec& spec) {
    GeneratorSpec single = spec;
    single.parallel.tp = single.parallel.pp = single.parallel.dp = single.parallel.cp = 1;
    single.parallel.ep = single.parallel.virtualStages = 1;
    single.training.globalBatch = single.training.microBatch;
    validate(single);
}

} // namespace astrolabe::generate
