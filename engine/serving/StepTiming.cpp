#include "serving/StepTiming.h"

#include "generate/TransformerCounts.h"

#include <algorithm>

namespace astrolabe::serving {

ColocatedTiming::ColocatedTiming(StepCost cost, LinearTime allReduce, LinearTime allToAll,
                                 bool twoBatchOverlap, double overheadSeconds)
    : m_cost(std::move(cost))
    , m_allReduce(allReduce)
    , m_allToAll(allToAll)
    , m_overlap(twoBatchOverlap)
    , m_overhead(overheadSeconds) {}

double ColocatedTiming::communicationSeconds(const StepShape& shape) const {
    const ModelFigures& m = m_cost.model();
    const ReplicaHardware& hw = m_cost.hardware();
    const double tokens = double(shape.tokens());
    double seconds = 0;
    if (hw.tp > 1) {
        const double groups = double(hw.gpus) / hw.tp;
        seconds += 2.0 * m.layers * m_allReduce.seconds(tokens / groups * m.hidden * 2.0);
    }
    if (m.experts > 0 && hw.gpus > 1) {
        const double perGpu = tokens / hw.gpus * m.topK * m.hidden * hw.moeImbalance;
        seconds +=
            m.moeLayers * (m_allToAll.seconds(perGpu * 1.0) + m_allToAll.seconds(perGpu * 2.0));
    }
    return seconds;
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

double ColocatedTiming::stepSeconds(const StepShape& shape) const {
    const double compute = computeSeconds(shape);
    const double comm = communicationSeconds(shape);
    return m_overhead + (m_overlap ? std::max(compute, comm) : compute + comm);
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
    f.headFlopsPerToken = 0;
    f.coreFlopsPrefill = f.coreFlopsDecode = 0;
    f.kvElementsPerToken = 0;
    f.hasAttention = false;
    return f;
}

} // namespace astrolabe::serving
