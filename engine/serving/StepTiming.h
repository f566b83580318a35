#pragma once
// The wall time of one iteration of a replica: computation (StepCost) plus its collectives.
//
// Colocated replica (aggregated, or a P/D pool): per layer two tensor-parallel all-reduces of
// the tokens' activations (tokens / groups x hidden x 2 bytes) and, per MoE layer, an
// expert-parallel dispatch (FP8, 1 byte per element; DeepEP's per-128-element FP32 scales,
// 3% more, are not sent) and combine (BF16, 2 bytes) all-to-all, times the imbalance factor,
// timed by the platform's all-to-all (CommCost.h); an iteration that only decodes
// (DeepEP's low-latency kernels) by its all-to-all at low-latency-bandwidth-factor of the
// links' bandwidth (a second fit of the same platform). Each GPU's
// buffer is its tokens x copies x hidden, copies as DeepEP sends them: its low-latency kernels
// (an iteration that only decodes) one per routed expert, top-k; its normal kernels (an
// iteration that prefills) one per node the token's experts are on, forwarded inside the node
// over NVLink: n (1 - C(E - E/n, k) / C(E, k)) for n nodes (or GPUs, within one node) holding
// E / n experts each, uniform routing. The platform's all-to-all moves (n - 1) / n of the
// buffer over the scale-out links, one copy per other node reached.
//
// Without overlap the step is compute + communication. With two-batch overlap (DeepSeek's two
// micro-batches, each half the tokens, each reading the weights) a MoE layer runs the schedule
// of DeepSeek's profile (deepseek-ai/profile-data), one micro-batch's all-to-all beside the
// other's computation; per layer, a = attention (with the router), s = shared experts,
// r = routed experts of one micro-batch, d and c its dispatch and combine:
//   prefill (normal kernels)   max(a + s, c) + max(a, d) + max(r, d) + max(r + s, c)
//   decode (low-latency)       2 [max(s + a_in, d) + r + max(a_core, c)]
// (a_in: the projections before the attention core; a_core: the core, o_proj and the router),
// the dense layers and the LM head twice (once per micro-batch) with nothing beside them.
// While prefilling the all-to-all kernels hold comm-sm-fraction of the SMs, so the
// computation runs on the rest (decode's low-latency kernels hold none). With
// compute-model: roofline, or a dense model, the step is max(compute, communication), and with
// the roofline the all-to-all sends top-k copies of every token over NPUs 0..n-1 as a
// communicator group (CommCost.h), as when the figures quoted for it were made.
//
// Attention-FFN disaggregation: attention GPUs (attention, KV cache) and FFN GPUs (dense FFNs,
// shared and routed experts) exchange each micro-batch's activations every layer over the
// scale-out link, in both directions. With m ping-pong micro-batches the layer is a pipeline of
// three stages (attention, transfer, FFN) whose slowest stage sets the pace:
//   step = layers x m x max(a, f, x) + (a + f + 2x)      (a, f, x per micro-batch per layer)
// Each micro-batch reads its group's weights (as with two-batch overlap above).
// where the last term fills and drains the pipeline once per step.

#include "serving/CommCost.h"
#include "serving/StepCost.h"

#include <memory>
#include <optional>

namespace astrolabe::serving {

class StepTiming {
public:
    virtual ~StepTiming() = default;
    virtual double stepSeconds(const StepShape& shape) const = 0;
};

/// One micro-batch's share of one MoE layer under two-batch overlap, seconds (see above).
struct LayerStages {
    double attentionIn = 0, attentionCore = 0, shared = 0, routed = 0;
    double dispatch = 0, combine = 0;
    double period = 0; ///< the layer's time, both micro-batches
};

class ColocatedTiming final : public StepTiming {
public:
    /// `lowLatency`: the all-to-all of iterations that only decode (DeepEP's low-latency
    /// kernels), when it differs from `allToAll` (serving.low-latency-bandwidth-factor).
    ColocatedTiming(StepCost cost, LinearTime allReduce, LinearTime allToAll, bool twoBatchOverlap,
                    double overheadSeconds, std::optional<LinearTime> lowLatency = std::nullopt);
    double stepSeconds(const StepShape& shape) const override;
    /// With two-batch overlap, the two half batches' computation one after the other.
    double computeSeconds(const StepShape& shape) const;
    /// Every collective of the step, one after the other (both micro-batches).
    double communicationSeconds(const StepShape& shape) const;
    /// One dispatch (`bytesPerElement` 1) or combine (2) of `tokens` over the replica's GPUs;
    /// with `prefill` false by the low-latency kernels' all-to-all.
    double allToAllSeconds(double tokens, double bytesPerElement, bool prefill) const;
    /// Copies of each token the all-to-all sends (see above).
    double tokenCopies(bool prefill) const;
    /// The two-batch schedule of one MoE layer of `shape` (operation model).
    LayerStages layerStages(const StepShape& shape) const;
    const StepCost& cost() const { return m_cost; }

private:
    /// The two-batch schedule above, with the operation model's phases.
    double overlappedSeconds(const StepShape& shape) const;
    double allReduceSeconds(double tokens) const;

    StepCost m_cost;
    LinearTime m_allReduce, m_allToAll, m_lowLatency;
    bool m_overlap;
    double m_overhead;
};

/// Pipeline parallelism inside a replica: `stages` stages of an equal share of the layers, each
/// on the GPUs `stage` describes (its tp x ep split, running every layer: one stage's time is
/// the stage timing's step over `stages`), the iteration's tokens in m = min(stages, tokens)
/// micro-batches, each stage sending a micro-batch's activations (tokens / attention groups x
/// hidden x 2 bytes per GPU, all GPUs of a stage at once) to the next over `link`. In steady
/// state (continuous batching keeps the pipeline full) an iteration takes
///   max(stages x s + (stages - 1) x x,  m x s,  m x x)
/// for a micro-batch's stage time s and transfer x: a micro-batch's own trip through every
/// stage, or the busiest stage, or the busiest link. A lone token: the stages' computation
/// plus the transfers between them.
class PipelineTiming final : public StepTiming {
public:
    PipelineTiming(std::shared_ptr<const StepTiming> stage, int stages, LinkFigures link,
                   double bytesPerToken, double overheadSeconds);
    double stepSeconds(const StepShape& shape) const override;
    /// One micro-batch's transfer between two stages.
    double transferSeconds(const StepShape& micro) const;
    int stages() const { return m_stages; }

private:
    std::shared_ptr<const StepTiming> m_stage;
    int m_stages;
    LinkFigures m_link;
    double m_bytesPerToken;
    double m_overhead;
};

class AfdTiming final : public StepTiming {
public:
    AfdTiming(StepCost attention, StepCost ffn, LinkFigures link, int microBatches,
              double overheadSeconds);
    double stepSeconds(const StepShape& shape) const override;
    const StepCost& attention() const { return m_attention; }
    const StepCost& ffn() const { return m_ffn; }

private:
    StepCost m_attention, m_ffn;
    LinkFigures m_link;
    int m_microBatches;
    double m_overhead;
};

/// One of `parts` equal micro-batches of `shape` (token counts rounded up).
StepShape fraction(const StepShape& shape, int parts);

/// The attention part of a model (attention projections, embeddings, KV cache) and the FFN part
/// (dense FFNs, router, shared and routed experts), for AFD's two GPU groups.
ModelFigures attentionPart(const ModelFigures& model, const generate::ModelSpec& spec);
ModelFigures ffnPart(const ModelFigures& model, const generate::ModelSpec& spec);

} // namespace astrolabe::serving
