#include "generate/TransformerProgram.h"

#include "generate/ActivationMemory.h"
#include "generate/TransformerCounts.h"
#include "generate/TransformerKernels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::generate {

namespace {

uint64_t toCount(double value) {
    return static_cast<uint64_t>(std::llround(value));
}

/// "L12". Formatted into a buffer: string concatenation here trips a GCC 12 -Wrestrict false
/// positive.
std::string layerName(int index) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "L%d", index);
    return buffer;
}

/// Shared per-micro-batch quantities on one rank.
struct Shape {
    double tokens = 0; ///< B*s / cp
    int cp = 1;
    double kvShardBytes = 0; ///< cp > 1: this rank's keys and values of one micro-batch
    double h = 0;
    double e = 0; ///< bytes per element
    int tp = 1;
    int ep = 1;
    bool sp = false;
    double elementwiseDivisor = 1; ///< norms, dropout and residuals are split over tp with sp
    KernelShape kernels;           ///< the same micro-batch, for the operation model

    uint64_t fullBytes() const { return toCount(tokens * h * e); }
    uint64_t shardBytes() const { return toCount(tokens * h * e / tp); }
};

/// Megatron's f / g operators around a tensor-parallel compute block.
void tpBlock(const Shape& x, LayerProgram& layer, const std::string& name, double flops,
             double bytes, bool inputOp, bool outputOp, const std::vector<Kernel>& kernels = {}) {
    const bool comm = x.tp > 1;
    const CollectiveType outType = x.sp ? CollectiveType::ReduceScatter : CollectiveType::AllReduce;
    const std::string outName = x.sp ? "tp.rs" : "tp.ar";
    if (comm && x.sp && inputOp)
        layer.forward.push_back(
            Step::coll(name + ".tp.ag", CollectiveType::AllGather, x.shardBytes(), GroupKind::Tp));
    layer.forward.push_back(Step::compute(name, flops, bytes, kernels));
    if (comm && outputOp)
        layer.forward.push_back(
            Step::coll(name + "." + outName, outType, x.fullBytes(), GroupKind::Tp));

    std::vector<Step> back;
    if (comm && x.sp && outputOp)
        back.push_back(
            Step::coll(name + ".tp.ag", CollectiveType::AllGather, x.shardBytes(), GroupKind::Tp));
    back.push_back(Step::compute(name + ".bwd", 2 * flops, 2 * bytes, backwardKernels(kernels)));
    if (comm && inputOp)
        back.push_back(Step::coll(name + "." + outName, outType, x.fullBytes(), GroupKind::Tp));
    // Backward blocks run in reverse order: prepend this block's steps.
    layer.backward.insert(layer.backward.begin(), back.begin(), back.end());
}

double kernelFlops(const std::vector<Kernel>& kernels) {
    double flops = 0;
    for (const Kernel& g : kernels)
        flops += g.kind == Kernel::Kind::Gemm ? 2 * g.batch * g.m * g.n * g.k : g.flops;
    return flops;
}

/// The attention block under context parallelism: the block's kernels split around the
/// FlashAttention core, and the ring's key/value exchange (an all-gather of this rank's K and V
/// over the cp group: each rank sends cp - 1 shards to its ring neighbour, as Megatron's P2P
/// ring does) running beside the core. Backward: K and V go round again beside the core's
/// backward, and dK, dV come back (a reduce-scatter of cp shards). The roofline's FLOPs and
/// bytes are split over the three parts by their kernels' FLOPs.
void cpAttentionBlock(const Shape& x, LayerProgram& layer, double flops, double bytes,
                      const std::vector<Kernel>& kernels) {
    size_t core = 0;
    while (core < kernels.size() && kernels[core].kind != Kernel::Kind::Flash)
        ++core;
    const std::vector<Kernel> before(kernels.begin(), kernels.begin() + long(core));
    const std::vector<Kernel> inner(kernels.begin() + long(core),
                                    kernels.begin() + long(std::min(core + 1, kernels.size())));
    const std::vector<Kernel> after(kernels.begin() + long(std::min(core + 1, kernels.size())),
                                    kernels.end());
    const double total = std::max(1.0, kernelFlops(kernels));
    auto part = [&](const std::string& name, const std::vector<Kernel>& list) {
        const double share = kernelFlops(list) / total;
        return Step::compute(name, flops * share, bytes * share, list);
    };
    const bool comm = x.tp > 1;
    const CollectiveType outType = x.sp ? CollectiveType::ReduceScatter : CollectiveType::AllReduce;
    const std::string outName = x.sp ? "tp.rs" : "tp.ar";
    const uint64_t kv = toCount(x.kvShardBytes);
    Step gather = Step::coll("attn.cp.kv", CollectiveType::AllGather, kv, GroupKind::Cp);
    gather.overlapsNext = true;
    if (comm && x.sp)
        layer.forward.push_back(
            Step::coll("attn.tp.ag", CollectiveType::AllGather, x.shardBytes(), GroupKind::Tp));
    layer.forward.push_back(part("attn.qkv", before));
    layer.forward.push_back(gather);
    layer.forward.push_back(part("attn.core", inner));
    layer.forward.push_back(part("attn.out", after));
    if (comm)
        layer.forward.push_back(
            Step::coll("attn." + outName, outType, x.fullBytes(), GroupKind::Tp));

    std::vector<Step> back;
    if (comm && x.sp)
        back.push_back(
            Step::coll("attn.tp.ag", CollectiveType::AllGather, x.shardBytes(), GroupKind::Tp));
    auto backward = [&](const std::string& name, const std::vector<Kernel>& list) {
        Step s = part(name, list);
        s.flops *= 2;
        s.bytes *= 2;
        s.kernels = backwardKernels(list);
        return s;
    };
    back.push_back(backward("attn.out.bwd", after));
    gather.name = "attn.cp.kv.bwd";
    back.push_back(gather);
    Step grads = Step::coll("attn.cp.dkv", CollectiveType::ReduceScatter, kv * uint64_t(x.cp),
                            GroupKind::Cp);
    grads.overlapsNext = true;
    back.push_back(grads);
    back.push_back(backward("attn.core.bwd", inner));
    back.push_back(backward("attn.qkv.bwd", before));
    if (comm)
        back.push_back(Step::coll("attn." + outName, outType, x.fullBytes(), GroupKind::Tp));
    layer.backward.insert(layer.backward.begin(), back.begin(), back.end());
}

void moeBlock(const GeneratorSpec& spec, const Shape& x, LayerProgram& layer) {
    const ModelSpec& m = spec.model;
    const FfnCounts expert = ffnCounts(m, m.expertFfn);
    const double tokens = x.tokens / x.tp; // token-parallel over tp
    const double fe = m.expertFfn, inner = m.swiglu ? 6 : 4;
    const double routerFlops =
        tokens * (2.0 * x.h * m.experts + m.sharedExperts * expert.flopsPerToken);
    const double routerBytes =
        (x.h * m.experts + m.sharedExperts * expert.matrixParams) * x.e + tokens * x.h * x.e * 3 +
        m.sharedExperts * tokens * fe * x.e * inner + tokens * m.experts * 4.0 * 2;
    const double expertFlops = tokens * m.topK * expert.flopsPerToken;
    const double expertBytes = double(m.experts) / x.ep * expert.matrixParams * x.e +
                               tokens * m.topK * (2 * x.h + inner * fe) * x.e;
    const uint64_t a2aBytes = toCount(tokens * m.topK * x.h * x.e);
    const bool a2a = x.ep > 1;
    const bool gather = x.tp > 1 && !x.sp;

    std::vector<Step>& f = layer.forward;
    const std::vector<Kernel> router = routerKernels(m, x.kernels);
    const std::vector<Kernel> experts = expertKernels(m, x.kernels);
    f.push_back(Step::compute("router", routerFlops, routerBytes, router));
    if (a2a)
        f.push_back(Step::coll("ep.dispatch", CollectiveType::AllToAll, a2aBytes, GroupKind::Ep));
    f.push_back(Step::compute("experts", expertFlops, expertBytes, experts));
    if (a2a)
        f.push_back(Step::coll("ep.combine", CollectiveType::AllToAll, a2aBytes, GroupKind::Ep));
    if (gather)
        f.push_back(
            Step::coll("moe.tp.ag", CollectiveType::AllGather, x.shardBytes(), GroupKind::Tp));

    std::vector<Step> back;
    if (a2a)
        back.push_back(
            Step::coll("ep.combine.bwd", CollectiveType::AllToAll, a2aBytes, GroupKind::Ep));
    back.push_back(
        Step::compute("experts.bwd", 2 * expertFlops, 2 * expertBytes, backwardKernels(experts)));
    if (a2a)
        back.push_back(
            Step::coll("ep.dispatch.bwd", CollectiveType::AllToAll, a2aBytes, GroupKind::Ep));
    back.push_back(
        Step::compute("router.bwd", 2 * routerFlops, 2 * routerBytes, backwardKernels(router)));
    if (gather)
        back.push_back(
            Step::coll("moe.tp.ag.bwd", CollectiveType::AllGather, x.shardBytes(), GroupKind::Tp));
    layer.backward.insert(layer.backward.begin(), back.begin(), back.end());

    layer.params.push_back(
        {toCount(double(m.experts) / x.ep *
                 (expert.matrixParams + expert.biasParamsSplit + expert.biasParamsReplicated)),
         GroupKind::ExpertDp});
    layer.params.push_back(
        {toCount(x.h * m.experts + m.sharedExperts * (expert.matrixParams + expert.biasParamsSplit +
                                                      expert.biasParamsReplicated)),
         GroupKind::StageDp});
}

LayerProgram transformerLayer(const GeneratorSpec& spec, const Shape& x, int index) {
    const ModelSpec& m = spec.model;
    const double t = x.tp;
    LayerProgram layer;
    layer.name = layerName(index);
    layer.activationBytes = layerActivationBytes(spec, m.isMoeLayer(index));

    const AttentionCounts attn = attentionCounts(m);
    const double qkv = (m.heads + 2.0 * m.kvHeadCount()) * m.headSize();
    const double attnOut = double(m.heads) * m.headSize();
    const double elementwise = 6 * x.tokens * x.h * x.e / x.elementwiseDivisor;
    const double attnFlops = x.tokens * (attn.flopsPerToken + attn.coreFlopsPerToken) / t;
    const double attnBytes = attn.matrixParams / t * x.e + 2 * x.tokens * x.h * x.e +
                             2 * x.tokens * (qkv + attnOut) * x.e / t + elementwise;
    if (x.cp > 1)
        cpAttentionBlock(x, layer, attnFlops, attnBytes, attentionKernels(m, x.kernels));
    else
        tpBlock(x, layer, "attn", attnFlops, attnBytes, true, true, attentionKernels(m, x.kernels));
    if (spec.parallel.selectiveRecompute && !spec.parallel.recompute) {
        // Selective recomputation: the attention core's forward (Q K^T, softmax, dropout, A V)
        // runs again before the attention's backward pass, on the roofline: Q, K and V read, the
        // context written and Korthikanti's 5as/h bytes per sbh of scores written and read back
        // (none with fused attention).
        const double scores = spec.training.flashAttention
                                  ? 0
                                  : 2 * 5.0 * m.heads * m.sequence * x.tokens / t * x.e / 2;
        Step core = Step::compute("attn.core.recompute", x.tokens * attn.coreFlopsPerToken / t,
                                  x.tokens * (qkv + attnOut) * x.e / t + scores);
        core.recomputed = true;
        layer.backward.insert(layer.backward.begin(), core);
    }
    layer.params.push_back(
        {toCount((attn.matrixParams + attn.biasParamsSplit) / t + attn.biasParamsReplicated),
         GroupKind::Dp});

    if (m.isMoeLayer(index)) {
        moeBlock(spec, x, layer);
        return layer;
    }
    const FfnCounts ffn = ffnCounts(m, m.ffn);
    const double mlpFlops = x.tokens * ffn.flopsPerToken / t;
    const double mlpBytes = ffn.matrixParams / t * x.e + 2 * x.tokens * x.h * x.e +
                            (m.swiglu ? 6 : 4) * x.tokens * m.ffn * x.e / t + elementwise;
    // Backward steps are prepended block by block, so build the MLP after the attention.
    LayerProgram mlp;
    tpBlock(x, mlp, "mlp", mlpFlops, mlpBytes, true, true, mlpKernels(m, x.kernels));
    layer.forward.insert(layer.forward.end(), mlp.forward.begin(), mlp.forward.end());
    layer.backward.insert(layer.backward.begin(), mlp.backward.begin(), mlp.backward.end());
    layer.params.push_back(
        {toCount((ffn.matrixParams + ffn.biasParamsSplit) / t + ffn.biasParamsReplicated),
         GroupKind::Dp});
    return layer;
}

LayerProgram embedding(const GeneratorSpec& spec, const Shape& x) {
    const ModelSpec& m = spec.model;
    LayerProgram layer;
    layer.name = "embed";
    layer.recomputable = false;
    // Vocabulary-parallel lookup: a g operator only (partial rows, all-reduce the output).
    tpBlock(x, layer, "lookup", 0, 2 * x.tokens * x.h * x.e, false, true);
    const double positions = m.learnedPositions ? double(m.sequence) * x.h : 0;
    layer.params.push_back({toCount(double(m.vocabulary) * x.h / x.tp + positions), GroupKind::Dp});
    return layer;
}

LayerProgram head(const GeneratorSpec& spec, const Shape& x) {
    const ModelSpec& m = spec.model;
    LayerProgram layer;
    layer.name = "head";
    layer.recomputable = false;
    const double v = m.vocabulary;
    const double logits = x.tokens * v / x.tp;
    // Logits are written and read in fp32 by the fused cross-entropy (3 passes).
    const double bytes = v * x.h / x.tp * x.e + x.tokens * x.h * x.e + 3 * 4 * logits;
    tpBlock(x, layer, "logits", 2 * logits * x.h, bytes, true, false, headKernels(m, x.kernels));
    if (x.tp > 1) // max, target logit and sum of exponentials, one fp32 each per token
        layer.forward.push_back(Step::coll("loss.tp.ar", CollectiveType::AllReduce,
                                           toCount(x.tokens * 3 * 4), GroupKind::Tp));
    const double norm = m.biases ? 2 * x.h : x.h;
    // Tied embeddings: with pp > 1 the last stage keeps its own copy of the table (Megatron);
    // with pp = 1 the head reuses the embedding's parameters.
    const double weights = m.tiedEmbeddings && spec.parallel.pp == 1 ? 0 : v * x.h / x.tp;
    layer.params.push_back({toCount(weights + norm), GroupKind::Dp});
    return layer;
}

} // namespace

ModelProgram buildTransformerProgram(const GeneratorSpec& spec) {
    const ModelSpec& m = spec.model;
    const ParallelSpec& p = spec.parallel;
    Shape x;
    x.cp = p.cp;
    x.tokens = double(spec.training.microBatch) * m.sequence / p.cp;
    // K and V of this rank's tokens; with kvHeads < tp each rank keeps one head.
    x.kvShardBytes = 2 * x.tokens * std::max(1.0, double(m.kvHeadCount()) / p.tp) * m.headSize() *
                     spec.training.bytesPerElement;
    x.h = m.hidden;
    x.e = spec.training.bytesPerElement;
    x.tp = p.tp;
    x.ep = p.ep;
    x.sp = p.sequenceParallel && p.tp > 1;
    x.elementwiseDivisor = x.sp ? p.tp : 1;
    x.kernels = kernelShape(spec);

    ModelProgram program;
    program.layers.push_back(embedding(spec, x));
    program.layers.reserve(size_t(m.layers) + 2);
    for (int l = 0; l < m.layers; ++l) {
        // transformerLayer reads its index only for the name and the MoE pattern: a layer of
        // the kind of the one before is that layer renamed (the planner builds many programs).
        if (l > 0 && m.isMoeLayer(l) == m.isMoeLayer(l - 1)) {
            LayerProgram copy = program.layers.back();
            copy.name = layerName(l);
            program.layers.push_back(std::move(copy));
        } else {
            program.layers.push_back(transformerLayer(spec, x, l));
        }
    }
    program.layers.push_back(head(spec, x));

    // Split the layers over pp * v chunks; a remainder goes to the chunks after the first, which
    // already carries the embedding.
    const int chunks = p.pp * p.virtualStages;
    const int base = m.layers / chunks, rest = m.layers % chunks;
    int next = 1;
    for (int j = 0; j < chunks; ++j) {
        std::vector<int> members;
        if (j == 0)
            members.push_back(0);
        const int count = base + (j >= 1 && j <= rest ? 1 : 0);
        for (int i = 0; i < count; ++i)
            members.push_back(next++);
        if (j == chunks - 1)
            members.push_back(m.layers + 1);
        program.chunks.push_back(std::move(members));
    }
    program.boundaryBytes = x.sp ? x.shardBytes() : x.fullBytes();
    if (m.tiedEmbeddings && p.pp > 1)
        program.tiedEmbeddingGradientBytes =
            toCount(double(m.vocabulary) * x.h / x.tp * spec.training.gradientBytes());
    // Megatron's cross-entropy casts the logits to fp32 and keeps that copy (turned into the
    // softmax, then its gradient) for the backward; the 16-bit logits stay alive while the loss
    // runs, and the gradient is cast back to 16 bits before the copy is freed.
    const double logits = x.tokens * m.vocabulary / x.tp;
    program.extraActivationBytesLastStage = logits * 4;
    program.transientBytesLastStage = x.e < 4 ? logits * x.e : 0;
    return program;
}

} // namespace astrolabe::generate
