#pragma once
// What the training-iteration generator is asked to produce: a model, a training batch, a
// parallel layout and a compute roofline. Plain structs; validate() checks them together.
//
// Units: sizes in bytes, rates in FLOP/s and B/s (the *Tflops / *GBps fields are 10^12 and
// 10^9), capacities in bytes. All counts are per iteration unless a name says otherwise.

#include <cstdint>
#include <string>
#include <vector>

namespace astrolabe::generate {

enum class ModelKind : uint8_t {
    Transformer, ///< decoder-only LLM, dense or MoE
    Dlrm,        ///< embedding tables (model-parallel, all-to-all) + data-parallel MLPs
    ResNet,      ///< convolutional network, pure data parallelism
};

enum class PipelineSchedule : uint8_t { GPipe, OneFOneB, Interleaved };
const char* pipelineScheduleName(PipelineSchedule schedule); ///< "gpipe", "1f1b", "interleaved"
/// Throws astrolabe::Error (Validation) listing the valid names.
PipelineSchedule parsePipelineSchedule(const std::string& name);

struct ModelSpec {
    ModelKind kind = ModelKind::Transformer;
    std::string name;
    // Transformer.
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kvHeads = 0; ///< GQA key/value heads; 0 = heads (multi-head attention)
    int headDim = 0; ///< 0 = hidden / heads
    int ffn = 0;     ///< dense FFN inner size
    int vocabulary = 0;
    int sequence = 0;
    bool swiglu = false; ///< gated FFN: three h x ffn matrices instead of two
    bool biases = true;  ///< GPT style: linear biases and LayerNorm (false: Llama, RMSNorm)
    /// Trains with dropout (GPT); false (Llama style): no dropout, so no masks are stored.
    bool dropout = true;
    bool tiedEmbeddings = false;
    bool learnedPositions = false; ///< GPT: s x h position table
    /// Multi-head latent attention (DeepSeek-V2/V3) when kvLoraRank > 0.
    int qLoraRank = 0, kvLoraRank = 0, ropeHeadDim = 0;
    // Mixture of experts (experts == 0: dense).
    int experts = 0;
    int topK = 0;
    int sharedExperts = 0;
    int expertFfn = 0;
    int firstDenseLayers = 0; ///< leading layers that keep a dense FFN (DeepSeek-V3: 3)
    // DLRM.
    int denseFeatures = 0;
    int embeddingTables = 0;
    int embeddingDim = 0;
    uint64_t embeddingRows = 0; ///< rows per table
    std::vector<int> bottomMlp, topMlp;
    // ResNet: the per-stage table is fixed (ResNet-50); imageSize scales its FLOPs.
    int imageSize = 0;

    bool isMoe() const { return experts > 0; }
    int kvHeadCount() const { return kvHeads > 0 ? kvHeads : heads; }
    int headSize() const { return headDim > 0 ? headDim : (heads > 0 ? hidden / heads : 0); }
    bool isMoeLayer(int layer) const { return isMoe() && layer >= firstDenseLayers; }
};

struct TrainingSpec {
    int microBatch = 1;  ///< sequences (images, samples) per micro-batch per data-parallel rank
    int globalBatch = 1; ///< sequences per iteration over the whole machine
    int bytesPerElement = 2;
    /// Gradients kept and reduced in fp32 whatever bytesPerElement is (Megatron-LM's default
    /// with --bf16 and NeMo's bf16-mixed): 4 bytes per parameter in HBM, and 4-byte elements in
    /// the data-parallel reductions. Off: gradients in bytesPerElement, as ZeRO counts them.
    bool fp32Gradients = false;
    int gradientBytes() const { return fp32Gradients ? 4 : bytesPerElement; }
    /// Fused attention (FlashAttention): the s x s scores are not stored, so Korthikanti's
    /// 5as/h activation term disappears (the same saving as selective recomputation).
    bool flashAttention = false;
};

struct ParallelSpec {
    int tp = 1, pp = 1, dp = 1;
    int ep = 1; ///< expert parallelism, carved out of dp (dp % ep == 0)
    /// Context parallelism: each sequence split over cp ranks (Megatron's ring attention: the
    /// keys and values go round the cp group beside the attention core). Placed right after tp
    /// (Megatron's tp-cp-dp-pp order); gradients are reduced over dp x cp.
    int cp = 1;
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    int virtualStages = 1; ///< model chunks per pipeline stage (interleaved only)
    int zeroStage = 0;     ///< 0 all-reduce; 1, 2 reduce-scatter + all-gather; 3 also params
    bool sequenceParallel = false;
    bool recompute = false; ///< full activation recomputation
    /// Selective recomputation (Megatron's --recompute-granularity selective, Korthikanti et al.
    /// 2022): only the attention core's activations (the 5as/h term) are dropped and the core's
    /// forward runs again in the backward pass. Exclusive with `recompute`.
    bool selectiveRecompute = false;
    uint64_t bucketBytes = 25ull * 1024 * 1024;
    /// Rank placement, innermost (consecutive ranks) first: a permutation of tp, dp, pp.
    std::string placement = "tp,dp,pp";

    int64_t npus() const { return int64_t{tp} * cp * pp * dp; }
};

/// Where a model state lives when ZeRO-Infinity-style offload moves it out of HBM. Only a label
/// in the figures and the trace's node names: the time of an access is the platform's remote
/// memory model's (MEM_LOAD / MEM_STORE nodes, engine/memory/RemoteMemory.h).
enum class OffloadTier : uint8_t { None, Nvme, Pool };
const char* offloadTierName(OffloadTier tier); ///< "none", "nvme", "pool"
/// The valid names, in order: none, nvme, pool.
const std::vector<std::string>& offloadTierNames();
/// Throws astrolabe::Error (Validation) at key path `key` listing the valid names.
OffloadTier parseOffloadTier(const std::string& name, const std::string& key);

/// Where the optimizer step over offloaded optimizer states runs: on the NPU (a COMP node timed
/// by its roofline) or on the host CPU (ZeRO-Offload's CPU Adam: a CPU node, is_cpu_op, timed by
/// OffloadSpec::cpuGBps).
enum class StepDevice : uint8_t { Npu, Cpu };
const char* stepDeviceName(StepDevice device); ///< "npu", "cpu"
/// The valid names, in order: npu, cpu.
const std::vector<std::string>& stepDeviceNames();
/// Throws astrolabe::Error (Validation) at key path `key` listing the valid names.
StepDevice parseStepDevice(const std::string& name, const std::string& key);

struct OffloadSpec {
    OffloadTier parameters = OffloadTier::None; ///< 16-bit weights (this NPU's shard)
    OffloadTier gradients = OffloadTier::None;  ///< gradients (TrainingSpec::gradientBytes)
    OffloadTier optimizer = OffloadTier::None;  ///< fp32 master weights, Adam's m and v
    int prefetch = 1; ///< parameter loads issued this many layers ahead (0: just before use)
    /// Where the step runs; Cpu needs offloaded optimizer states (validate()).
    StepDevice step = StepDevice::Npu;
    /// The CPU step's memory bandwidth per NPU (its share of the host's), 10^9 B/s: the step
    /// streams the NPU's Adam traffic (ModelStates.h) at this rate.
    double cpuGBps = 50;

    bool any() const {
        return parameters != OffloadTier::None || gradients != OffloadTier::None ||
               optimizer != OffloadTier::None;
    }
};

/// How a generated compute node is timed (docs/compute-model.md): one roofline per block, or
/// each kernel of the block from its operation and the measured curves (generate/OperationCost.h).
enum class ComputeModel : uint8_t { Roofline, Operations };
const char* computeModelName(ComputeModel model); ///< "roofline", "operations"
/// Throws astrolabe::Error (Validation) at key path `key` listing the valid names.
ComputeModel parseComputeModel(const std::string& name, const std::string& key);

struct ComputeSpec {
    double peakTflops = 989.0;    ///< dense 16-bit peak (H100 SXM)
    double hbmGBps = 3350.0;      ///< HBM bandwidth, 10^9 B/s
    double efficiency = 0.6;      ///< measured fraction of the roofline reached
    double hbmCapacityGiB = 80.0; ///< for the out-of-memory warning
    ComputeModel model = ComputeModel::Roofline;
    /// Operations model: the achieved GEMM rate, 10^12 FLOP/s (the accelerator library's
    /// measured one, resources/compute/gemm-rates.csv); 0 = none, every node by the roofline.
    double gemmTflops = 0;
    double flashFraction = 0.6; ///< FlashAttention's rate over attentionPeakTflops
    /// The peak attention runs at (BF16 even when the GEMMs run in FP8); 0 = peakTflops.
    double attentionPeakTflops = 0;
    /// GEMMs take FP8 inputs (TransformerEngine): each GEMM's activation input is scaled and cast
    /// (an amax read, a read and a one-byte write and its transposed copy) before it runs.
    bool fp8Gemms = false;
    /// The achieved BF16 GEMM rate, 10^12 FLOP/s, of the GEMMs FP8 recipes keep in BF16 (the LM
    /// head) when fp8Gemms is on; 0 = gemmTflops. Set by --gpu with --precision fp8.
    double bf16GemmTflops = 0;
    double memoryEfficiency = 0.8; ///< element-wise kernels' bandwidth over hbmGBps
};

/// What the traces carry beyond what the simulator needs to time them.
struct TraceOutputSpec {
    /// Tensor lists ("inputs" / "outputs") on the nodes, for local memory tracking
    /// (track-local-mem): model states live from the start, activations from each layer's
    /// forward to its backward (TraceBuilder.h). Off: the traces are byte for byte those of a
    /// generator without them.
    bool tensors = false;
};

struct GeneratorSpec {
    ModelSpec model;
    TrainingSpec training;
    ParallelSpec parallel;
    ComputeSpec compute;
    OffloadSpec offload;
    TraceOutputSpec output;

    int microBatches() const; ///< per pipeline, per iteration
};

/// Layer passes (layers per stage x micro-batches) one NPU's trace may hold: GPT-3 175B on 8
/// stages with 1,536 micro-batches makes 18,432; each pass is a few nodes per micro-batch, so the
/// limit keeps one rank's trace under about a GiB (docs/limits.md).
inline constexpr int64_t kMaxLayerPassesPerRank = 1'000'000;

/// Parameters of a generated model: five times the largest models trained (about 2 T). A shape
/// past it (GPT-2 with a hidden size of 10^6 has 48 T) is a typo, and its traces and figures
/// would be meaningless.
inline constexpr double kMaxModelParameters = 1e13;

/// Why validate() refuses context parallelism of degree cp for this model and training (fused
/// attention, the sequence in 2 cp chunks, no MoE); empty: accepted. The planner's cp rule.
std::vector<std::string> contextParallelProblems(const GeneratorSpec& spec, int cp);

/// All problems at once (astrolabe::ErrorList) with key paths such as "parallel.tp".
void validate(const GeneratorSpec& spec);
/// validate() of the model alone (hidden over heads, the parameter bound...), as on one NPU
/// with one micro-batch: what no choice of parallelism can repair. The planner's entry check.
void validateModel(const GeneratorSpec& spec);

} // namespace astrolabe::generate
