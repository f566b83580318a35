#include "generate/TransformerKernels.h"

#include "generate/TransformerCounts.h"

namespace astrolabe::generate {

KernelShape kernelShape(const GeneratorSpec& spec) {
    const ParallelSpec& p = spec.parallel;
    KernelShape x;
    x.microBatch = spec.training.microBatch;
    x.sequence = spec.model.sequence;
    x.tokens = x.microBatch * x.sequence / p.cp; // context parallelism: 1 / cp of each sequence
    x.h = spec.model.hidden;
    x.e = spec.training.bytesPerElement;
    x.tp = p.tp;
    x.ep = p.ep;
    x.elementwiseDivisor = p.sequenceParallel && p.tp > 1 ? p.tp : 1;
    x.flash = spec.training.flashAttention;
    x.fp8 = spec.compute.fp8Gemms;
    return x;
}

namespace {

/// Norm: read x, write y. Dropout + residual: read two, write one, a one-byte mask.
double normBytes(const KernelShape& x) {
    return 2 * x.e * x.tokens * x.h / x.elementwiseDivisor;
}
double dropoutAddBytes(const KernelShape& x) {
    return (3 * x.e + 1) * x.tokens * x.h / x.elementwiseDivisor;
}

/// FP8 GEMMs: before each (unbatched) GEMM, its m x k activation input is scaled and cast:
/// an amax pass (read), the cast (read, one-byte write) and the transposed copy the weight
/// gradient uses (one-byte write). Weights are cast once per iteration (fp8WeightCastBytes).
std::vector<Kernel> withCasts(std::vector<Kernel> kernels, const KernelShape& x) {
    if (!x.fp8)
        return kernels;
    std::vector<Kernel> out;
    for (const Kernel& g : kernels) {
        if (g.kind == Kernel::Kind::Gemm && g.batch == 1 && !g.bf16)
            out.push_back(Kernel::memory((2 * x.e + 2) * g.m * g.k));
        out.push_back(g);
    }
    return out;
}

} // namespace

std::vector<Kernel> attentionKernels(const ModelSpec& m, const KernelShape& x) {
    const double t = x.tp, s = x.sequence, d = m.headSize();
    const double heads = double(m.heads) / t; // per rank
    std::vector<Kernel> out{Kernel::memory(normBytes(x))};
    if (m.kvLoraRank > 0) // latent attention: its projections as one GEMM of the same FLOPs
        out.push_back(
            Kernel::gemm(x.tokens, attentionCounts(m).matrixParams / (x.h * t) - heads * d, x.h));
    else
        out.push_back(Kernel::gemm(x.tokens, (m.heads + 2.0 * m.kvHeadCount()) * d / t, x.h));
    const double coreFlops = x.tokens * attentionCounts(m).coreFlopsPerToken / t;
    if (x.flash) {
        out.push_back(Kernel::flash(coreFlops / 2)); // causal: the masked half is skipped
    } else {
        // Megatron-LM 2021: Q K^T and A V as batched GEMMs over the full s x s square; between
        // them the fused scale-mask-softmax (read and write the scores) and the dropout (read,
        // write, a one-byte mask).
        const double batch = x.microBatch * heads, scores = batch * s * s;
        const double kq = coreFlops / (4 * batch * s * s); // head size (+ rotary part)
        out.push_back(Kernel::gemm(s, s, kq, batch));
        out.push_back(Kernel::memory(2 * x.e * scores));
        out.push_back(Kernel::memory((2 * x.e + 1) * scores));
        out.push_back(Kernel::gemm(s, kq, s, batch));
    }
    out.push_back(Kernel::gemm(x.tokens, x.h, heads * d));
    out.push_back(Kernel::memory(dropoutAddBytes(x)));
    return withCasts(std::move(out), x);
}

std::vector<Kernel> mlpKernels(const ModelSpec& m, const KernelShape& x) {
    const double f = m.ffn / x.tp;
    // bias + GeLU: read and write the inner activations; SwiGLU: read two, write one.
    const double activation = (m.swiglu ? 3 : 2) * x.e * x.tokens * f;
    return withCasts({Kernel::memory(normBytes(x)),
                      Kernel::gemm(x.tokens, (m.swiglu ? 2 : 1) * f, x.h),
                      Kernel::memory(activation), Kernel::gemm(x.tokens, x.h, f),
                      Kernel::memory(dropoutAddBytes(x))},
                     x);
}

std::vector<Kernel> routerKernels(const ModelSpec& m, const KernelShape& x) {
    const double tokens = x.tokens / x.tp, fe = m.expertFfn, gate = m.swiglu ? 2 : 1;
    std::vector<Kernel> out{Kernel::memory(normBytes(x)), Kernel::gemm(tokens, m.experts, x.h)};
    if (m.sharedExperts > 0) {
        out.push_back(Kernel::gemm(tokens, gate * fe * m.sharedExperts, x.h));
        out.push_back(Kernel::memory((m.swiglu ? 3 : 2) * x.e * tokens * fe * m.sharedExperts));
        out.push_back(Kernel::gemm(tokens, x.h, fe * m.sharedExperts));
    }
    out.push_back(Kernel::memory(dropoutAddBytes(x)));
    return withCasts(std::move(out), x);
}

std::vector<Kernel> expertKernels(const ModelSpec& m, const KernelShape& x) {
    // Grouped GEMM over this rank's experts, the routed tokens spread evenly over them.
    const double local = double(m.experts) / x.ep;
    const double routed = x.tokens / x.tp * m.topK;
    const double perExpert = routed / local, fe = m.expertFfn;
    return {Kernel::gemm(perExpert, (m.swiglu ? 2 : 1) * fe, x.h, local),
            Kernel::memory((m.swiglu ? 3 : 2) * x.e * routed * fe),
            Kernel::gemm(perExpert, x.h, fe, local)};
}

std::vector<Kernel> headKernels(const ModelSpec& m, const KernelShape& x) {
    const double v = m.vocabulary / x.tp;
    // The output layer stays in BF16 in Megatron's FP8 recipes (TransformerEngine's fp8_autocast
    // leaves it out): no cast, the BF16 GEMM rate.
    return {Kernel::memory(normBytes(x)), Kernel::bf16Gemm(x.tokens, v, x.h),
            Kernel::memory(3 * 4 * x.tokens * v)};
}

double fp8WeightCastBytes(const GeneratorSpec& spec, const LayerProgram& layer) {
    if (!spec.compute.fp8Gemms || layer.name == "embed" || layer.name == "head")
        return 0;
    double elements = 0;
    for (const ParamShare& share : layer.params)
        elements += double(share.elements);
    return (2.0 * spec.training.bytesPerElement + 2) * elements;
}

std::vector<Kernel> backwardKernels(const std::vector<Kernel>& forward) {
    std::vector<Kernel> out;
    out.reserve(2 * forward.size());
    for (const Kernel& g : forward)
        switch (g.kind) {
        case Kernel::Kind::Gemm:
            out.push_back(Kernel::gemm(g.m, g.k, g.n, g.batch)); // input gradient
            out.back().bf16 = g.bf16;
            out.push_back(Kernel::gemm(g.k, g.n, g.m, g.batch)); // weight gradient
            out.back().bf16 = g.bf16;
            break;
        case Kernel::Kind::Memory:
            out.push_back(Kernel::memory(2 * g.bytes));
            break;
        case Kernel::Kind::Flash:
            out.push_back(Kernel::flash(2.5 * g.flops));
            break;
        }
    return out;
}

} // namespace astrolabe::generate
