#include "serving/OperationStep.h"

#include "generate/OperationCost.h"
#include "hardware/KernelCurves.h"
#include "hardware/MeasuredKernels.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::serving {

const char* opSourceName(OpSource source) {
    switch (source) {
    case OpSource::Measured:
        return "measured";
    case OpSource::Curves:
        return "curves";
    case OpSource::Roofline:
        return "roofline";
    }
    return "curves";
}

namespace {

using hardware::GemmLayout;

/// Times the operations of one iteration and adds them up (by name when asked for detail).
class Timer {
public:
    Timer(const ReplicaHardware& hw, std::vector<OpTime>* detail)
        : m_hw(hw)
        , m_detail(detail) {}

    double total() const { return m_total; }
    const OpPhases& phases() const { return m_phases; }
    /// Where the operations timed from now on sit in a layer.
    void phase(double OpPhases::*slot) { m_slot = slot; }

    /// `count` GEMMs (layers) of groups x (m x k)(k x n); `low`: at the weights' precision
    /// (FP8 when serving.precision is), else BF16.
    void gemm(const char* name, double count, double groups, double m, double n, double k, bool low,
              GemmLayout layout = GemmLayout::Normal) {
        if (!(m > 0) || !(groups > 0) || count <= 0)
            return;
        const bool fp8 = low && m_hw.weightBytesPerParameter == 1;
        if (fp8) {
            if (const auto t =
                    hardware::measuredGemmSeconds(m_hw.gpu.name, layout, groups, m, n, k)) {
                add(name, count * *t, OpSource::Measured);
                return;
            }
        }
        const double e = low ? m_hw.weightBytesPerParameter : 2;
        const double rate = low ? m_hw.gemmTflops : m_hw.gemm16Tflops;
        if (rate > 0) {
            generate::ComputeSpec c;
            c.gemmTflops = rate;
            c.hbmGBps = m_hw.hbmBytesPerSecond / 1e9;
            c.memoryEfficiency = kMemoryEfficiency;
            const double t = generate::kernelSeconds(generate::Kernel::gemm(m, n, k, groups), c, e);
            add(name, count * t, OpSource::Curves);
            return;
        }
        const double flops = 2 * groups * m * n * k;
        const double bytes = e * groups * (m * k + k * n + m * n);
        add(name,
            count * std::max(flops / ((low ? m_hw.peakFlops : m_hw.peak16Flops) *
                                      m_hw.computeEfficiency),
                             bytes / (m_hw.hbmBytesPerSecond * m_hw.bandwidthEfficiency)),
            OpSource::Roofline);
    }

    /// An element-wise kernel (norms, activations, casts, rotary embeddings, top-k), `count`
    /// times: the kernel latency of DeepSeek's profile plus its bytes at the HBM rate.
    void memory(const char* name, double count, double bytes) {
        if (bytes <= 0 || count <= 0)
            return;
        const bool curves = m_hw.gemm16Tflops > 0;
        const double rate =
            m_hw.hbmBytesPerSecond * (curves ? kMemoryEfficiency : m_hw.bandwidthEfficiency);
        add(name, count * (hardware::kernelLatencySeconds() + bytes / rate),
            curves ? OpSource::Curves : OpSource::Roofline);
    }

    /// Attention core of `flops` reading `bytes` of KV cache, per layer.
    void attention(const char* name, double count, double flops, double bytes, bool mlaDecode) {
        if (flops <= 0 || count <= 0)
            return;
        if (mlaDecode && m_hw.mla) {
            add(name,
                count * std::max(flops / (m_hw.mla->tflops * 1e12), bytes / (m_hw.mla->gbps * 1e9)),
                OpSource::Measured);
            return;
        }
        if (m_hw.gemm16Tflops > 0) {
            add(name,
                count * std::max(flops / (m_hw.peak16Flops * m_hw.flashFraction),
                                 bytes / (m_hw.hbmBytesPerSecond * kMemoryEfficiency)),
                OpSource::Curves);
            return;
        }
        add(name,
            count * std::max(flops / (m_hw.peak16Flops * m_hw.computeEfficiency),
                             bytes / (m_hw.hbmBytesPerSecond * m_hw.bandwidthEfficiency)),
            OpSource::Roofline);
    }

private:
    /// Element-wise kernels' share of HBM bandwidth (docs/compute-model.md: not measured).
    static constexpr double kMemoryEfficiency = 0.8;

    void add(const char* name, double seconds, OpSource source) {
        m_total += seconds;
        m_phases.*m_slot += seconds;
        if (!m_detail)
            return;
        for (OpTime& op : *m_detail)
            if (op.name == name) {
                op.seconds += seconds;
                if (source != op.source)
                    op.source = std::max(op.source, source);
                return;
            }
        m_detail->push_back({name, seconds, source});
    }

    const ReplicaHardware& m_hw;
    std::vector<OpTime>* m_detail;
    double m_total = 0;
    OpPhases m_phases;
    double OpPhases::*m_slot = &OpPhases::attentionIn;
};

/// The activation input of a low-precision GEMM cast first (read BF16, write FP8).
void cast(Timer& t, const ReplicaHardware& hw, double count, double elements) {
    if (hw.weightBytesPerParameter == 1)
        t.memory("fp8 cast", count, 3 * elements);
}

void attentionOps(Timer& t, const ModelFigures& f, const ReplicaHardware& hw, const StepShape& s) {
    const generate::ModelSpec& m = f.spec;
    const double groups = double(hw.gpus) / hw.tp, tp = hw.tp, L = f.layers, h = m.hidden;
    const double tokens = double(s.tokens()) / groups;
    const double prefill = double(s.prefillTokens) / groups,
                 decode = double(s.decodeTokens) / groups;
    const double heads = double(m.heads) / tp, d = m.headSize();
    const double kvBytes = hw.kvBytesPerElement;
    // The residual addition fused into the norm (read both, write both), as vLLM, SGLang and
    // DeepSeek's profile run it.
    t.memory("norms", L, 4 * 2 * tokens * h);
    if (m.kvLoraRank > 0) {
        const double ql = m.qLoraRank, kl = m.kvLoraRank, r = m.ropeHeadDim;
        cast(t, hw, L, tokens * h);
        t.gemm("q_a + kv_a", L, 1, tokens, ql + kl + r, h, true);
        t.memory("norms", L, 2 * 2 * tokens * (ql + kl));
        cast(t, hw, L, tokens * ql);
        t.gemm("q_b", L, 1, tokens, heads * (d + r), ql, true);
        t.memory("rotary", L, 2 * 2 * tokens * (heads + 1) * r);
        // The new tokens' latents and rope keys into the paged cache.
        t.memory("kv cache write", L, tokens * (kl + r) * (2 + kvBytes));
        if (prefill > 0) {
            const double latents = prefill + s.prefillPriorContext / groups;
            cast(t, hw, L, latents * kl);
            t.gemm("kv_b (prefill)", L, 1, latents, heads * 2 * d, kl, true);
            // FlashAttention's keys: each head's expanded key beside the shared rope key.
            t.memory("k concat (prefill)", L, 2 * latents * (heads * (2 * d + r) + r));
            t.phase(&OpPhases::attentionCore);
            t.attention("attention prefill", L,
                        s.prefillContext / groups * f.coreFlopsPrefill / L / tp, 0, false);
        }
        if (decode > 0) {
            t.phase(&OpPhases::attentionIn);
            t.gemm("W_UK (decode)", L, heads, decode, kl, d, false);
            t.phase(&OpPhases::attentionCore);
            t.attention("attention decode (MLA)", L,
                        s.decodeContext / groups * f.coreFlopsDecode / L / tp,
                        s.decodeContext / groups * (kl + r) * kvBytes, true);
            t.gemm("W_UV (decode)", L, heads, decode, d, kl, false);
        }
        t.phase(&OpPhases::attentionCore);
        cast(t, hw, L, tokens * heads * d);
        t.gemm("o_proj", L, 1, tokens, h, heads * d, true);
    } else {
        const double kvHeads = std::max(1.0, m.kvHeadCount() / tp);
        cast(t, hw, L, tokens * h);
        t.gemm("qkv", L, 1, tokens, (heads + 2 * kvHeads) * d, h, true);
        t.memory("rotary", L, 2 * 2 * tokens * (heads + kvHeads) * d);
        t.memory("kv cache write", L, tokens * 2 * kvHeads * d * (2 + kvBytes));
        t.phase(&OpPhases::attentionCore);
        if (prefill > 0)
            t.attention("attention prefill", L,
                        s.prefillContext / groups * f.coreFlopsPrefill / L / tp,
                        (s.prefillPriorContext + double(s.prefillTokens)) / groups * 2 * kvHeads *
                            d * kvBytes,
                        false);
        if (decode > 0)
            t.attention("attention decode", L,
                        s.decodeContext / groups * f.coreFlopsDecode / L / tp,
                        s.decodeContext / groups * 2 * kvHeads * d * kvBytes, false);
        cast(t, hw, L, tokens * heads * d);
        t.gemm("o_proj", L, 1, tokens, h, heads * d, true);
    }
    // LM head for the tokens that emit one (BF16), after the final norm.
    t.phase(&OpPhases::head);
    const double logits = double(s.logits) / groups;
    t.memory("norms", 1, 2 * 2 * logits * h);
    t.gemm("lm_head", 1, 1, logits, double(m.vocabulary) / tp, h, false);
}

void ffnOps(Timer& t, const ModelFigures& f, const ReplicaHardware& hw, const StepShape& s) {
    const generate::ModelSpec& m = f.spec;
    const double groups = double(hw.gpus) / hw.tp, tp = hw.tp, h = m.hidden;
    const double tokens = double(s.tokens()) / groups, all = double(s.tokens());
    const double gate = m.swiglu ? 2 : 1, act = m.swiglu ? 3 : 2;
    const double dense = f.layers - f.moeLayers, moe = f.moeLayers;
    t.phase(&OpPhases::attentionIn);
    t.memory("norms", f.layers, 4 * 2 * tokens * h); // with the residual addition
    if (dense > 0) {
        t.phase(&OpPhases::denseFfn);
        const double inner = m.ffn / tp;
        cast(t, hw, dense, tokens * h);
        t.gemm("dense ffn up", dense, 1, tokens, gate * inner, h, true);
        t.memory("activation", dense, act * 2 * tokens * inner); // with the cast of its output
        t.gemm("dense ffn down", dense, 1, tokens, h, inner, true);
    }
    if (moe > 0 && m.experts > 0) {
        t.phase(&OpPhases::gate);
        t.gemm("router", moe, 1, tokens, m.experts, h, false);
        // Top-k of the FP32 scores, writing each token's experts and weights.
        t.memory("router top-k", moe, tokens * (4.0 * m.experts + 8.0 * m.topK));
        t.phase(&OpPhases::shared);
        if (m.sharedExperts > 0) {
            const double inner = double(m.expertFfn) * m.sharedExperts / tp;
            cast(t, hw, moe, tokens * h);
            t.gemm("shared expert up", moe, 1, tokens, gate * inner, h, true);
            t.memory("activation", moe, act * 2 * tokens * inner);
            t.gemm("shared expert down", moe, 1, tokens, h, inner, true);
        }
        // Routed experts: this GPU's share of the experts, the tokens routed to them (balanced,
        // times the imbalance), as one grouped GEMM over the experts some token reached.
        const double local = std::max(1.0, double(m.experts) / hw.gpus);
        const double routed = all * m.topK * hw.moeImbalance / hw.gpus;
        const double touched = 1.0 - std::pow(1.0 - double(m.topK) / m.experts, all);
        const double used = std::max(1.0, local * touched);
        const double perExpert = routed / used, fe = m.expertFfn;
        const GemmLayout layout = s.prefillTokens > 0 ? GemmLayout::Contiguous : GemmLayout::Masked;
        t.phase(&OpPhases::routed);
        t.gemm("routed experts up", moe, used, perExpert, gate * fe, h, true, layout);
        t.memory("activation", moe, act * 2 * routed * fe);
        t.gemm("routed experts down", moe, used, perExpert, h, fe, true, layout);
        if (layout == GemmLayout::Contiguous) {
            // DeepEP's normal kernels deliver one row per token and GPU reached; the contiguous
            // grouped GEMM takes one per token and expert, in expert order: a scatter before it
            // and a gather summing each token's experts after it (the low-latency kernels of an
            // iteration that only decodes deliver and reduce by expert: the masked layout needs
            // neither). A token misses this GPU's experts with probability C(E - l, k) / C(E, k).
            double miss = 1;
            for (int i = 0; i < m.topK; ++i)
                miss *= std::max(0.0, (m.experts - local - i) / (m.experts - i));
            const double received = all * (1 - miss) * hw.moeImbalance;
            const double e = hw.weightBytesPerParameter == 1 ? 1 : 2;
            t.memory("routed scatter (prefill)", moe, (received + routed) * h * e);
            t.memory("routed gather (prefill)", moe, (routed + received) * h * 2);
        }
    }
}

} // namespace

double operationSeconds(const StepCost& cost, const StepShape& shape, std::vector<OpTime>* detail,
                        OpPhases* phases) {
    if (phases)
        *phases = {};
    if (shape.tokens() <= 0)
        return 0;
    Timer t(cost.hardware(), detail);
    if (cost.model().hasAttention)
        attentionOps(t, cost.model(), cost.hardware(), shape);
    if (cost.model().hasFfn)
        ffnOps(t, cost.model(), cost.hardware(), shape);
    if (phases)
        *phases = t.phases();
    return t.total();
}

} // namespace astrolabe::serving
