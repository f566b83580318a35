#pragma once
// The wall time of one iteration of a replica: computation (StepCost) plus its collectives.
//
// Colocated replica (aggregated, or a P/D pool): per layer two tensor-parallel all-reduces of
// the tokens' activations (tokens / groups x hidden x 2 bytes) and, per MoE layer, an
// expert-parallel dispatch (FP8, 1 byte per element) and combine (BF16, 2 bytes) all-to-all of
// each GPU's tokens x top-k x hidden, times the imbalance factor. Without overlap the step is
// compute + communication; with two-batch overlap (DeepSeek's two micro-batches) one
// micro-batch's all-to-all hides behind the other's computation: max(compute, communication),
// where compute is that of the two half batches one after the other (each reads the weights),
// on the SMs the all-to-all leaves free when the iteration prefills (comm-sm-fraction).
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

namespace astrolabe::serving {

class StepTiming {
public:
    virtual ~StepTiming() = default;
    virtual double stepSeconds(const StepShape& shape) const = 0;
};

class ColocatedTiming final : public StepTiming {
public:
    ColocatedTiming(StepCost cost, LinearTime allReduce, LinearTime allToAll, bool twoBatchOverlap,
                    double overheadSeconds);
    double stepSeconds(const StepShape& shape) const override;
    /// With two-batch overlap, the two half batches' computation one after the other.
    double computeSeconds(const StepShape& shape) const;
    double communicationSeconds(const StepShape& shape) const;
    const StepCost& cost() const { return m_cost; }

private:
    StepCost m_cost;
    LinearTime m_allReduce, m_allToAll;
    bool m_overlap;
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
