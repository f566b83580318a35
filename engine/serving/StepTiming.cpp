#include "serving/StepTiming.h"

#include "generate/TransformerCounts.h"
#include "serving/OperationStep.h"

#include <algorithm>

namespace astrolabe::serving {

ColocatedTiming::ColocatedTiming(StepCost cost, LinearTime allReduce, LinearTime allToAll,
                                 bool twoBatchOverlap, double overheadSeconds,
                                 std::optional<LinearTime> lowLatency)
    : m_cost(std::move(cost))
    , m_allReduce(allReduce)
    , m_allToAll(allToAll)
    , m_lowLatency(lowLatency.value_or(allToAll))
    , m_overlap(twoBatchOverlap)
    , m_overhead(overheadSeconds) {}

double ColocatedTiming::tokenCopies(bool prefill) const {
    const ModelFigures& m = m_cost.model();
    const ReplicaHardware& hw = m_cost.hardware();
    if (!prefill || m.experts <= 0 || !hw.operations)
        return m.topK;
    // Nodes (or GPUs) reached: each holds E / n experts; a token misses one with probability
    // C(E - E/n, k) / C(E, k).
    const double n = hw.gpusPerNode > 0 ? double(hw.gpus) / hw.gpusPerNode : double(hw.gpus);
    const double experts = m.experts, held = experts / n;
    double miss = 1;
    for (int i = 0; i < m.topK; ++i)
        miss *= std::max(0.0, (experts - held - i) / (experts - i));
    return std::min(double(m.topK), n * (1 - miss));
}

double ColocatedTiming::allToAllSeconds(double tokens, double bytesPerElement, bool prefill) const {
    const ModelFigures& m = m_cost.model();
    const ReplicaHardware& hw = m_cost.hardware();
    if (m.experts <= 0 || hw.gpus <= 1 || tokens <= 0)
        return 0;
    const double perGpu = tokens / hw.gpus * tokenCopies(prefill) * m.hidden * hw.moeImbalance;
    return (prefill ? m_allToAll : m_lowLatency).seconds(perGpu * bytesPerElement);
}

double ColocatedTiming::allReduceSeconds(double tokens) const {
    const ModelFigures& m = m_cost.model();
    const ReplicaHardware& hw = m_cost.hardware();
    if (hw.tp <= 1)
        return 0;
    const double groups = double(hw.gpus) / hw.tp;
    return m_allReduce.seconds(tokens / groups * m.hidden * 2.0);
}

double ColocatedTiming::communicationSeconds(const StepShape& shape) const {
    const ModelFigures& m = m_cost.model();
    const bool prefill = shape.prefillTokens > 0;
    const double tokens = double(shape.tokens());
    const int parts = m_overlap && m_cost.hardware().operations && shape.tokens() >= 2 ? 2 : 1;
    const double part = double(fraction(shape, parts).tokens());
    return 2.0 * m.layers * allReduceSeconds(tokens) +
           parts * m.moeLayers *
               (allToAllSeconds(part, 1.0, prefill) + allToAllSeconds(part, 2.0, prefill));
}

StepShape fraction(const StepShape& shape, int parts) {
    StepShape s;
    const double n = parts;
    s.prefillTokens = (shape.prefillTokens + parts - 1) / parts;
    s.decodeTokens = (shape.decodeTokens + parts - 1) / parts;
    s.logits = (shape.logits + parts - 1) / parts;
    s.swapTokens = (shape.swapTokens + parts - 1) / parts;
    s.prefillContext = shape.prefillContext / n;
    s.prefillPriorContext = shape.prefillPriorContext / n;
    s.decodeContext = shape.decodeContext / n;
    return s;
}

double ColocatedTiming::computeSeconds(const StepShape& shape) const {
    if (!m_overlap || shape.tokens() < 2)
        return m_cost.computeSeconds(shape);
    // Two micro-batches of half the tokens each: the weights are read once per micro-batch.
    // With prefill tokens the all-to-all kernels (DeepEP's normal mode) hold some SMs while they
    // run beside the other micro-batch's computation; decode's low-latency kernels hold none.
    const double sms = m_cost.hardware().commSmFraction;
    const double share =
        shape.prefillTokens > 0 && sms > 0 && communicationSeconds(shape) > 0 ? 1 - sms : 1;
    return 2 * m_cost.computeSeconds(fraction(shape, 2)) / share;
}

LayerStages ColocatedTiming::layerStages(const StepShape& shape) const {
    const ModelFigures& m = m_cost.model();
    OpPhases p;
    const StepShape half = fraction(shape, 2);
    operationSeconds(m_cost, half, nullptr, &p);
    const bool prefill = shape.prefillTokens > 0;
    const double sms = m_cost.hardware().commSmFraction;
    const double share = prefill && sms > 0 ? 1 - sms : 1;
    const double L = m.layers, moe = std::max(1, m.moeLayers);
    LayerStages g;
    g.attentionIn = p.attentionIn / L / share;
    g.attentionCore = (p.attentionCore / L + p.gate / moe) / share;
    g.shared = p.shared / moe / share;
    g.routed = p.routed / moe / share;
    const double tokens = double(half.tokens());
    const double ar = allReduceSeconds(tokens);
    g.dispatch = allToAllSeconds(tokens, 1.0, prefill) + ar;
    g.combine = allToAllSeconds(tokens, 2.0, prefill) + ar;
    const double a = g.attentionIn + g.attentionCore, s = g.shared, r = g.routed;
    const double d = g.dispatch, c = g.combine;
    g.period = prefill ? std::max(a + s, c) + std::max(a, d) + std::max(r, d) + std::max(r + s, c)
                       : 2 * (std::max(s + g.attentionIn, d) + r + std::max(g.attentionCore, c));
    return g;
}

double ColocatedTiming::overlappedSeconds(const StepShape& shape) const {
    const ModelFigures& m = m_cost.model();
    const LayerStages g = layerStages(shape);
    OpPhases p;
    const StepShape half = fraction(shape, 2);
    operationSeconds(m_cost, half, nullptr, &p);
    const double sms = m_cost.hardware().commSmFraction;
    const double share = shape.prefillTokens > 0 && sms > 0 ? 1 - sms : 1;
    const double L = m.layers;
    // The dense layers and the LM head, per micro-batch, with their all-reduces.
    const double rest = (L - m.moeLayers) * ((p.attentionIn + p.attentionCore) / L / share +
                                             2 * allReduceSeconds(double(half.tokens()))) +
                        (p.denseFfn + p.head) / share;
    return m.moeLayers * g.period + 2 * rest;
}

double ColocatedTiming::stepSeconds(const StepShape& shape) const {
    const ReplicaHardware& hw = m_cost.hardware();
    if (m_overlap && hw.operations && m_cost.model().experts > 0 && hw.gpus > 1 &&
        m_cost.model().moeLayers > 0 && shape.tokens() >= 2)
        return m_overhead + overlappedSeconds(shape);
    const double compute = computeSeconds(shape);
    const double comm = communicationSeconds(shape);
    return m_overhead + (m_overlap ? std::max(compute, comm) : compute + comm);
}

PipelineTiming::PipelineTiming(std::shared_ptr<const StepTiming> stage, int stages,
                               LinkFigures link, double bytesPerToken, double overheadSeconds)
    : m_stage(std::move(stage))
    , m_stages(std::max(1, stages))
    , m_link(link)
    , m_bytesPerToken(bytesPerToken)
    , m_overhead(overheadSeconds) {}

double PipelineTiming::transferSeconds(const StepShape& micro) const {
    return micro.tokens() > 0 ? m_link.seconds(double(micro.tokens()) * m_bytesPerToken) : 0;
}

double PipelineTiming::stepSeconds(const StepShape& shape) const {
    if (shape.tokens() <= 0)
        return m_overhead;
    const int m = int(std::min<int64_t>(m_stages, shape.tokens()));
    const StepShape micro = fraction(shape, m);
    const double stage = m_stage->stepSeconds(micro) / m_stages;
    const double x = m_stages > 1 ? transferSeconds(micro) : 0;
    return m_overhead + std::max({m_stages * stage + (m_stages - 1) * x, m * stage, m * x});
}

AfdTiming::AfdTiming(StepCost attention, StepCost ffn, LinkFigures link, int microBatches,
                     double overheadSeconds)
    : m_attention(std::move(attention))
    , m_ffn(std::move(ffn))
    , m_link(link)
    , m_microBatches(std::max(1, microBatches))
    , m_overhead(overheadSeconds) {}

double AfdTiming::stepSeconds(const StepShape& shape) const {
    const ModelFigures& m = m_attention.model();
    const double layers = m.layers, mb = m_microBatches;
    // Each micro-batch runs its own kernels: the weights are read once per micro-batch.
    const StepShape part = fraction(shape, m_microBatches);
    const double a = m_attention.computeSeconds(part) / layers;
    const double f = m_ffn.computeSeconds(part) / layers;
    // Each attention GPU sends its share of a micro-batch's activations (BF16).
    const double bytes = double(shape.tokens()) / mb / m_attention.hardware().gpus * m.hidden * 2.0;
    const double x = m_link.seconds(bytes);
    return m_overhead + layers * mb * std::max({a, f, x}) + a + f + 2 * x;
}

ModelFigures attentionPart(const ModelFigures& model, const generate::ModelSpec& spec) {
    ModelFigures f = model;
    const double attention = generate::attentionCounts(spec).matrixParams * spec.layers;
    f.denseParameters =
        attention + double(spec.vocabulary) * spec.hidden * (spec.tiedEmbeddings ? 1 : 2);
    f.denseFlopsPerToken = 2.0 * attention;
    f.expertParameters = 0;
    f.expertFlopsPerToken = 0;
    f.experts = 0;
    f.hasFfn = false;
    return f;
}

ModelFigures ffnPart(const ModelFigures& model, const generate::ModelSpec& spec) {
    ModelFigures f = model;
    const double attention = generate::attentionCounts(spec).matrixParams * spec.layers;
    f.denseParameters = model.denseParameters - attention -
                        double(spec.vocabulary) * spec.hidden * (spec.tiedEmbeddings ? 1 : 2);
    f.denseFlopsPerToken = model.denseFlopsPerToken - 2.0 * attention;
    f.inputEmbeddingParameters = 0;
    f.headFlopsPerToken = 0;
    f.coreFlopsPrefill = f.coreFlopsDecode = 0;
    f.kvElementsPerToken = 0;
    f.hasAttention = false;
    return f;
}

} // namespace astrolabe::serving
