#include "generate/ActivationMemory.h"

#include <algorithm>

namespace astrolabe::generate {

double layerActivationBytes(const GeneratorSpec& spec, bool moeLayer) {
    const ModelSpec& m = spec.model;
    const ParallelSpec& p = spec.parallel;
    const double e = spec.training.bytesPerElement, t = p.tp;
    const bool sp = p.sequenceParallel && p.tp > 1;
    // This rank's tokens: 1 / cp of each sequence.
    const double tokens = double(spec.training.microBatch) * m.sequence / p.cp;
    const double h = m.hidden, a = m.heads, s = m.sequence;
    if (p.recompute) // the layer's input only
        return tokens * h * e / (sp ? t : 1);

    const bool latent = m.kvLoraRank > 0;
    const double rope = latent ? m.ropeHeadDim : 0;
    const double dv = m.headSize(), dqk = dv + rope;
    const double masks = m.dropout ? 2 * h : 0; // one byte per element
    double replicated = 4 * h * e + masks;
    if (latent)
        replicated += (2.0 * m.qLoraRank + 2.0 * m.kvLoraRank + rope) * e;

    // K and V: with fewer KV heads than tp ranks each rank keeps one head.
    const double kvHeads = latent ? a : m.kvHeadCount();
    const double kv = std::max(1.0, kvHeads / t) * (dqk + dv) * e;
    double split = (a * dqk + a * dv) * e; // per token, before tp: Q, the projection's input
    const bool scoresStored = !spec.training.flashAttention && !p.selectiveRecompute;
    if (scoresStored)
        split += a * s * (m.dropout ? 2 * e + 1 : e);
    const double gated = m.swiglu ? 3 : 2;
    double experts = 0; // token-parallel over tp
    if (moeLayer)
        experts =
            m.topK * (2 * h + gated * m.expertFfn) * e + m.sharedExperts * gated * m.expertFfn * e;
    else
        split += gated * m.ffn * e;

    const double perToken = (sp ? replicated / t : replicated) + split / t + kv + experts / t;
    return tokens * perToken;
}

} // namespace astrolabe::generate
