#include "serving/StepCost.h"

#include "generate/TransformerCounts.h"
#include "serving/OperationStep.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::serving {

ModelFigures modelFigures(const generate::ModelSpec& m) {
    ModelFigures f;
    const generate::AttentionCounts attention = generate::attentionCounts(m);
    const double expert = generate::ffnCounts(m, m.expertFfn).matrixParams;
    const double dense = generate::ffnCounts(m, m.ffn).matrixParams;
    const double a = m.heads, d = m.headSize();
    f.layers = m.layers;
    f.hidden = m.hidden;
    f.experts = m.experts;
    f.topK = m.topK;
    f.spec = m;
    for (int l = 0; l < m.layers; ++l) {
        double layerDense = attention.matrixParams;
        if (m.isMoeLayer(l)) {
            ++f.moeLayers;
            layerDense += double(m.hidden) * m.experts + m.sharedExperts * expert;
            f.expertParameters += m.experts * expert;
            f.expertFlopsPerToken += 2.0 * m.topK * expert;
        } else {
            layerDense += dense;
        }
        f.denseParameters += layerDense;
        f.denseFlopsPerToken += 2.0 * layerDense;
    }
    if (m.kvLoraRank > 0) {
        const double kl = m.kvLoraRank, r = m.ropeHeadDim;
        f.coreFlopsPrefill = m.layers * (2 * a * (d + r) + 2 * a * d);
        // Absorbed: scores against the latent plus rotary part, values from the latent.
        f.coreFlopsDecode = m.layers * (2 * a * (kl + r) + 2 * a * kl);
        f.kvElementsPerToken = m.layers * (kl + r);
    } else {
        f.coreFlopsPrefill = f.coreFlopsDecode = m.layers * 4 * a * d;
        f.kvElementsPerToken = m.layers * 2.0 * m.kvHeadCount() * d;
    }
    f.headFlopsPerToken = 2.0 * m.hidden * m.vocabulary;
    f.denseParameters += double(m.vocabulary) * m.hidden * (m.tiedEmbeddings ? 1 : 2);
    f.inputEmbeddingParameters = m.tiedEmbeddings ? 0.0 : double(m.vocabulary) * m.hidden;
    return f;
}

StepCost::StepCost(const ModelFigures& model, const ReplicaHardware& hardware)
    : m_model(model)
    , m_hw(hardware) {}

namespace {
bool isMla(const ModelFigures& m) {
    // MLA caches one latent per token, shared by all heads: TP cannot split it.
    return m.coreFlopsDecode != m.coreFlopsPrefill;
}
} // namespace

double StepCost::weightBytesPerGpu() const {
    return (m_model.denseParameters / m_hw.tp + m_model.expertParameters / m_hw.gpus) *
           m_hw.weightBytesPerParameter;
}

double StepCost::kvBytesPerToken() const {
    return m_model.kvElementsPerToken * m_hw.kvBytesPerElement;
}

double StepCost::kvBytesPerTokenPerGpu() const {
    if (isMla(m_model))
        return kvBytesPerToken();
    const double kvHeads = m_model.spec.kvHeadCount();
    return kvBytesPerToken() * std::max(1.0, kvHeads / m_hw.tp) / kvHeads;
}

double StepCost::computeSeconds(const StepShape& s) const {
    const double tokens = double(s.tokens());
    const double g = m_hw.gpus, groups = double(m_hw.gpus) / m_hw.tp;
    const double swap =
        double(s.swapTokens) * kvBytesPerTokenPerGpu() / groups / m_hw.swapBytesPerSecond;
    if (tokens <= 0)
        return swap;
    if (m_hw.operations)
        return operationSeconds(*this, s) + swap;
    const double flops = m_hw.peakFlops * m_hw.computeEfficiency;
    const double flops16 = m_hw.peak16Flops * m_hw.computeEfficiency;
    const double bytes = m_hw.hbmBytesPerSecond * m_hw.bandwidthEfficiency;

    const double denseFlops =
        (tokens * m_model.denseFlopsPerToken + double(s.logits) * m_model.headFlopsPerToken) / g;
    // Every weight once, but of an untied input embedding only the rows of the step's tokens.
    const double denseBytes =
        ((m_model.denseParameters - m_model.inputEmbeddingParameters) / m_hw.tp +
         std::min(tokens / groups, double(m_model.spec.vocabulary)) * m_model.hidden / m_hw.tp) *
        m_hw.weightBytesPerParameter;
    double seconds = std::max(denseFlops / flops, denseBytes / bytes);

    if (m_model.experts > 0) {
        const double expertFlops = tokens * m_model.expertFlopsPerToken * m_hw.moeImbalance / g;
        const double touched = 1.0 - std::pow(1.0 - double(m_model.topK) / m_model.experts, tokens);
        const double expertBytes =
            m_model.expertParameters / g * touched * m_hw.weightBytesPerParameter;
        seconds += std::max(expertFlops / flops, expertBytes / bytes);
    }

    const double coreFlops =
        (s.prefillContext * m_model.coreFlopsPrefill + s.decodeContext * m_model.coreFlopsDecode) /
        g;
    // Per attention group the requests' caches are read once; TP splits them over tp GPUs.
    const double kvRead = (s.decodeContext + s.prefillPriorContext + double(s.prefillTokens)) *
                          kvBytesPerTokenPerGpu() / groups;
    seconds += std::max(coreFlops / flops16, kvRead / bytes);
    return seconds + swap;
}

} // namespace astrolabe::serving
