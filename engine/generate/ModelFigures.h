#pragma once
// Figures shown before a run ("live figures"): size, work, memory and pipeline bubble.
//
// FLOPs (per iteration, whole machine, matrix multiplies only):
// * model FLOPs = 3 x forward (backward = 2 x forward), from the per-rank program summed over
//   every rank; for transformers it equals 3 * B * forwardFlopsPerSequence (TransformerCounts.h).
// * hardware FLOPs adds the forward re-run under full recomputation (not for the LM head).
// * 6 N T: 6 x parameters (MoE: activated parameters) x tokens, the usual estimate.
// * Megatron (Narayanan et al. 2021, GPT layers, f = 4h, MHA): without recomputation
//   72 B s l h^2 (1 + s/(6h) + V/(12 l h)); with full recomputation 96 B s l h^2 (1 + s/(6h) +
//   V/(16 l h)). Shown for dense transformers; exact only for GPT-style layers.
// Memory per NPU (bytes), worst pipeline stage: weights e*psi, gradients e*psi, optimizer states
// 12*psi (fp32 master, m, v; 8*psi when e = 4), divided over the data-parallel group by ZeRO
// (1: optimizer, 2: + gradients, 3: + weights; ModelStates.h); activations = per-layer
// (ActivationMemory.h) bytes x layers of the stage x peak micro-batches in flight (1F1B: p - s,
// GPipe: m, interleaved:
// ((p - s - 1) 2 + (v - 1) p + 1) chunks), plus the last stage's fp32 logits of every micro-batch
// in flight through the last chunk (1F1B and interleaved: one, GPipe: m) and one micro-batch's
// logits in the training precision, alive beside their fp32 copy while the loss runs (e bytes per
// logit, none when e = 4).
// Offload (GeneratorSpec::offload): an offloaded state's bytes leave HBM (the memory total) and
// are listed per tier; the traffic per iteration is the trace's MEM_LOAD / MEM_STORE bytes:
// parameters loaded before every forward and backward pass (2 x micro-batches x chunks' passes)
// and written back once after the optimizer step, gradients stored once, optimizer states loaded
// and stored once.

#include "generate/GeneratorSpec.h"

#include <string>

namespace astrolabe::generate {

struct MemoryBreakdown {
    double weights = 0, gradients = 0, optimizer = 0, activations = 0; ///< in HBM
    /// Of the activations: the last stage's logits held for the loss and while it runs.
    double logits = 0;
    /// Model states offloaded to a slower tier (GeneratorSpec::offload); not in total().
    double offloadedWeights = 0, offloadedGradients = 0, offloadedOptimizer = 0;
    double offloadLoadBytes = 0, offloadStoreBytes = 0; ///< remote-memory traffic per iteration
    double total() const { return weights + gradients + optimizer + activations; }
    double offloaded() const { return offloadedWeights + offloadedGradients + offloadedOptimizer; }
};

struct ModelFigures {
    int npus = 0;
    int microBatches = 0;
    double parameters = 0;       ///< elements, whole model
    double activeParameters = 0; ///< per token (MoE); = parameters for dense models
    double tokens = 0;           ///< per iteration (sequences x sequence length; samples otherwise)
    int globalBatch = 0;         ///< sequences (samples) per iteration
    int microBatch = 0, dataParallel = 0; ///< sequences per micro-batch; the dp degree
    double modelFlops = 0;
    double hardwareFlops = 0;
    double sixNT = 0;
    double megatronFlops = 0; ///< 0 for non-transformers and MoE models
    std::string megatronFormula;
    bool megatronWithRecompute = false; ///< compare with hardwareFlops rather than modelFlops
    double bubbleFraction = 0;
    MemoryBreakdown memory; ///< the worst stage, per NPU
    OffloadSpec offload;    ///< the tiers the offloaded states went to
    int gradientBytes = 2;  ///< per gradient element (TrainingSpec::gradientBytes)
    /// The worst stage's offloaded bytes on one NPU, per tier.
    double offloadedTo(OffloadTier tier) const;
    int worstStage = 0;
    double hbmCapacityBytes = 0;
    bool outOfMemory = false;
    /// Compute time of one iteration on one NPU of the worst stage, each step timed as its trace
    /// node is (no bubble, no communication), seconds.
    double computeSeconds = 0;
    /// The model's distinct compute steps (a layer's forward and backward blocks, the head...)
    /// by the model that times them (generate/OperationCost.h).
    int stepsByOperations = 0, stepsByRoofline = 0;
    ComputeModel computeModel = ComputeModel::Roofline;
};

/// Validates spec first (throws astrolabe::Error / ErrorList).
ModelFigures computeFigures(const GeneratorSpec& spec);

/// Multi-line human-readable summary (CLI and GUI show the same text).
std::string formatFigures(const ModelFigures& figures);

/// "175.0 B", "1.23 EFLOP" style helpers.
std::string formatCount(double value);
std::string formatBytes(double bytes);

} // namespace astrolabe::generate
