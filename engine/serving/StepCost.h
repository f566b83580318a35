#pragma once
// The time of one iteration (batch step) of one replica. With serving.compute-model: operations
// (the default) it is the sum of the iteration's kernels, each timed from measured figures
// (serving/OperationStep.h). With compute-model: roofline it is a roofline of the model's FLOPs
// and bytes on the accelerator library's datasheet figures (engine/hardware), below.
//
// Roofline, per GPU of a replica of G GPUs (tensor parallelism tp inside attention-data-parallel
// groups of tp GPUs, experts spread over all G GPUs), for a batch of T tokens:
//   dense     max(T * Fdense / G / (peak * e),   Wdense / tp / (bw * b))
//   experts   max(T * Fexpert * imbalance / G / (peak * e),  Wexperts / G * touched / (bw * b))
//   attention max(sum(ctx) * Fcore / G / (peak16 * e),  KV bytes read / G / (bw * b))
// Fdense: 2 FLOPs per multiply-add of the attention projections, dense FFNs, shared experts,
// router and (for tokens that produce a logit) the LM head; Fexpert: top-k experts; Fcore: the
// score and value products per token per context position (MLA absorbed in decode, expanded in
// prefill). touched = 1 - (1 - k / E)^T, the expected fraction of experts some token routes to.
// The attention core runs at the 16-bit peak (FlashAttention and FlashMLA keep it in BF16).
// Swap preemption adds swapTokens x KV bytes per token per GPU / groups over the host link.
// Activations and norms are not counted. Every term is O(1): a step costs a few dozen
// floating-point operations, so no cache is needed.

#include "generate/GeneratorSpec.h"
#include "hardware/Accelerator.h"

#include <cstdint>

namespace astrolabe::hardware {
struct MlaDecodeRate;
}

namespace astrolabe::serving {

/// What one iteration of a replica computes, summed over its requests.
struct StepShape {
    int64_t prefillTokens = 0;
    /// Sum over prefill tokens of the positions each attends to (a chunk of c tokens starting
    /// at position p: c * p + c * (c + 1) / 2).
    double prefillContext = 0;
    /// Sum over prefill chunks of the context before the chunk (KV read from the cache).
    double prefillPriorContext = 0;
    int64_t decodeTokens = 0;
    double decodeContext = 0; ///< sum over decoding requests of their context length
    int64_t logits = 0;       ///< tokens that produce an output token (LM head)
    int64_t swapTokens = 0;   ///< cached tokens copied to or from host memory (swap preemption)
    int64_t tokens() const { return prefillTokens + decodeTokens; }
};

/// A replica's hardware and split. gpus = tp * attention data-parallel groups.
struct ReplicaHardware {
    hardware::Accelerator gpu;
    double peakFlops = 0;   ///< FLOP/s of the GEMMs at the weights' precision
    double peak16Flops = 0; ///< FLOP/s at 16 bits (attention core)
    double hbmBytesPerSecond = 0;
    double computeEfficiency = 0.7;
    double bandwidthEfficiency = 0.8;
    double weightBytesPerParameter = 2;
    double kvBytesPerElement = 2;
    double moeImbalance = 1.0;
    double swapBytesPerSecond = 50e9; ///< each GPU's link to host memory
    int gpus = 1;
    int tp = 1;
    /// compute-model: operations (OperationStep.h) instead of the roofline above.
    bool operations = false;
    /// The kernel curves (hardware/KernelCurves.h): achieved GEMM rate at the weights' precision
    /// and at BF16, 10^12 FLOP/s (0: none measured, those operations by the roofline), and the
    /// FlashAttention fraction of the BF16 peak.
    double gemmTflops = 0, gemm16Tflops = 0, flashFraction = 0.6;
    const hardware::MlaDecodeRate* mla = nullptr; ///< measured MLA decoding, or none
    /// Share of the SMs the all-to-all kernels hold while they overlap computation (two-batch
    /// overlap of an iteration with prefill tokens); the computation runs on the rest.
    double commSmFraction = 0;
    /// GPUs of one node (the platform's first dimension) when a replica spans several nodes,
    /// else 0: what DeepEP's normal kernels send one copy of a token to (StepTiming.h).
    int gpusPerNode = 0;
};

/// The model's per-token figures (all layers), computed once per model.
struct ModelFigures {
    int layers = 0;
    int moeLayers = 0;
    double denseFlopsPerToken = 0;  ///< without the LM head
    double headFlopsPerToken = 0;   ///< LM head
    double expertFlopsPerToken = 0; ///< the routed experts (top-k)
    double coreFlopsPrefill = 0;    ///< per token per context position, all layers
    double coreFlopsDecode = 0;
    double kvElementsPerToken = 0; ///< cached elements per token, all layers
    double denseParameters = 0;    ///< replicated over attention groups, split over tp
    /// Of denseParameters, an input embedding table of its own (untied): held, but a step reads
    /// only its tokens' rows of it.
    double inputEmbeddingParameters = 0;
    double expertParameters = 0; ///< routed experts of all layers, split over all GPUs
    int experts = 0;
    int topK = 0;
    int hidden = 0;
    generate::ModelSpec spec; ///< the shapes the operation model launches
    /// AFD's parts: the attention GPUs run attention and the LM head, the FFN GPUs the rest.
    bool hasAttention = true, hasFfn = true;
};

ModelFigures modelFigures(const generate::ModelSpec& model);

class StepCost {
public:
    StepCost(const ModelFigures& model, const ReplicaHardware& hardware);

    /// Seconds of computation of one iteration on each GPU of the replica (no communication).
    double computeSeconds(const StepShape& shape) const;
    /// Weight bytes held by each GPU.
    double weightBytesPerGpu() const;
    /// KV-cache bytes of one token on each GPU holding it: TP splits the KV heads, and with more
    /// GPUs than KV heads each GPU holds one (replicated).
    double kvBytesPerTokenPerGpu() const;
    /// KV-cache bytes of one token of one request, all layers, whole model (P/D transfers).
    double kvBytesPerToken() const;

    const ModelFigures& model() const { return m_model; }
    const ReplicaHardware& hardware() const { return m_hw; }

private:
    ModelFigures m_model;
    ReplicaHardware m_hw;
};

} // namespace astrolabe::serving
