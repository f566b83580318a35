#include "generate/TransformerCounts.h"

namespace astrolabe::generate {

AttentionCounts attentionCounts(const ModelSpec& m) {
    const double h = m.hidden, a = m.heads, d = m.headSize(), s = m.sequence;
    const double norm = m.biases ? 2 * h : h; // LayerNorm has a bias, RMSNorm does not
    AttentionCounts c;
    if (m.kvLoraRank > 0) {
        // Multi-head latent attention: low-rank query and key/value projections; keys and
        // queries carry an extra rotary part of ropeHeadDim per head.
        const double ql = m.qLoraRank, kl = m.kvLoraRank, r = m.ropeHeadDim;
        const double q = ql > 0 ? h * ql + ql * a * (d + r) : h * a * (d + r);
        const double kv = h * (kl + r) + kl * a * (d + d);
        c.matrixParams = q + kv + a * d * h;
        c.biasParamsReplicated = 2 * norm + ql + kl;
        c.coreFlopsPerToken = 2 * s * a * (d + r) + 2 * s * a * d;
    } else {
        const double kv = m.kvHeadCount();
        c.matrixParams = h * a * d + 2 * h * kv * d + a * d * h;
        c.biasParamsSplit = m.biases ? (a + 2 * kv) * d : 0;
        c.biasParamsReplicated = (m.biases ? h : 0) + 2 * norm;
        c.coreFlopsPerToken = 4 * s * a * d;
    }
    c.flopsPerToken = 2 * c.matrixParams;
    return c;
}

FfnCounts ffnCounts(const ModelSpec& m, int inner) {
    const double h = m.hidden, f = inner;
    FfnCounts c;
    c.matrixParams = (m.swiglu ? 3 : 2) * h * f;
    c.biasParamsSplit = m.biases ? (m.swiglu ? 2 : 1) * f : 0;
    c.biasParamsReplicated = m.biases ? h : 0;
    c.flopsPerToken = 2 * c.matrixParams;
    return c;
}

ParameterCounts transformerParameters(const ModelSpec& m) {
    const AttentionCounts attn = attentionCounts(m);
    const double attnParams = attn.matrixParams + attn.biasParamsSplit + attn.biasParamsReplicated;
    const FfnCounts dense = ffnCounts(m, m.ffn);
    const double denseParams =
        dense.matrixParams + dense.biasParamsSplit + dense.biasParamsReplicated;
    const FfnCounts expert = ffnCounts(m, m.expertFfn);
    const double expertParams =
        expert.matrixParams + expert.biasParamsSplit + expert.biasParamsReplicated;
    const double router = double(m.hidden) * m.experts;

    ParameterCounts p;
    for (int l = 0; l < m.layers; ++l) {
        p.total += attnParams;
        p.active += attnParams;
        if (m.isMoeLayer(l)) {
            p.total += router + (m.experts + m.sharedExperts) * expertParams;
            p.active += router + (m.topK + m.sharedExperts) * expertParams;
        } else {
            p.total += denseParams;
            p.active += denseParams;
        }
    }
    const double h = m.hidden;
    p.embedding = double(m.vocabulary) * h * (m.tiedEmbeddings ? 1 : 2) +
                  (m.learnedPositions ? double(m.sequence) * h : 0);
    const double finalNorm = m.biases ? 2 * h : h;
    p.total += p.embedding + finalNorm;
    p.active += p.embedding + finalNorm;
    return p;
}

double transformerForwardFlopsPerSequence(const ModelSpec& m) {
    const AttentionCounts attn = attentionCounts(m);
    const double s = m.sequence;
    double perToken = 0;
    for (int l = 0; l < m.layers; ++l) {
        perToken += attn.flopsPerToken + attn.coreFlopsPerToken;
        if (m.isMoeLayer(l))
            perToken += 2.0 * m.hidden * m.experts +
                        (m.topK + m.sharedExperts) * ffnCounts(m, m.expertFfn).flopsPerToken;
        else
            perToken += ffnCounts(m, m.ffn).flopsPerToken;
    }
    perToken += 2.0 * m.hidden * m.vocabulary; // LM head
    return s * perToken;
}

} // namespace astrolabe::generate
