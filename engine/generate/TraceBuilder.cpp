#include "generate/TraceBuilder.h"

#include "generate/PipelineOrder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace astrolabe::generate {

namespace {

using Deps = std::vector<uint64_t>;

/// Appends nodes to one rank's trace with consecutive ids from 0.
class Emitter {
public:
    Emitter(WorkloadTrace& trace, const RankLayout& layout, const ComputeSpec& compute, int rank)
        : m_trace(trace)
        , m_layout(layout)
        , m_compute(compute)
        , m_rank(rank) {}

    uint64_t comp(std::string name, double flops, double bytes, Deps data) {
        WorkloadNode& n = add(std::move(name), NodeType::Comp, std::move(data));
        n.hasNumOps = n.hasTensorSize = true;
        n.numOps = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(flops)));
        n.tensorSize = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(bytes)));
        const double seconds =
            std::max(flops / (m_compute.peakTflops * 1e12), bytes / (m_compute.hbmGBps * 1e9)) /
            m_compute.efficiency;
        n.durationMicros = static_cast<uint64_t>(std::llround(seconds * 1e6));
        return n.id;
    }

    /// Returns no node when the group has a single member (nothing to communicate).
    std::optional<uint64_t> coll(std::string name, CollectiveType type, uint64_t bytes,
                                 GroupKind group, Deps data) {
        if (m_layout.groupSize(group) <= 1)
            return std::nullopt;
        WorkloadNode& n = add(std::move(name), NodeType::CommColl, std::move(data));
        n.hasCommType = n.hasCommSize = true;
        n.commType = type;
        n.commSize = bytes;
        const int id = m_layout.groupId(group, m_rank);
        n.pgName = id > 0 ? std::to_string(id) : std::string();
        return n.id;
    }

    uint64_t send(std::string name, int dst, uint32_t tag, uint64_t bytes, Deps data) {
        WorkloadNode& n = add(std::move(name), NodeType::CommSend, std::move(data));
        setPeer(n, m_rank, dst, tag, bytes);
        return n.id;
    }

    uint64_t recv(std::string name, int src, uint32_t tag, uint64_t bytes, Deps ctrl) {
        WorkloadNode& n = add(std::move(name), NodeType::CommRecv, {});
        n.ctrlDeps = std::move(ctrl);
        setPeer(n, src, m_rank, tag, bytes);
        return n.id;
    }

private:
    WorkloadNode& add(std::string name, NodeType type, Deps data) {
        WorkloadNode& n = m_trace.nodes.emplace_back();
        n.id = m_trace.nodes.size() - 1;
        n.name = std::move(name);
        n.type = type;
        n.dataDeps = std::move(data);
        return n;
    }
    static void setPeer(WorkloadNode& n, int src, int dst, uint32_t tag, uint64_t bytes) {
        n.hasCommSrc = n.hasCommDst = n.hasCommTag = n.hasCommSize = true;
        n.commSrc = static_cast<uint32_t>(src);
        n.commDst = static_cast<uint32_t>(dst);
        n.commTag = tag;
        n.commSize = bytes;
    }

    WorkloadTrace& m_trace;
    const RankLayout& m_layout;
    const ComputeSpec& m_compute;
    int m_rank;
};

Deps depsOf(std::optional<uint64_t> a, std::optional<uint64_t> b = std::nullopt) {
    Deps d;
    if (a)
        d.push_back(*a);
    if (b && b != a)
        d.push_back(*b);
    return d;
}

struct Bucket {
    uint64_t bytes = 0;
    GroupKind group = GroupKind::Dp;
};

} // namespace

TraceBuilder::TraceBuilder(const GeneratorSpec& spec, const ModelProgram& program,
                           const RankLayout& layout)
    : m_spec(spec)
    , m_program(program)
    , m_layout(layout)
    , m_microBatches(spec.microBatches()) {}

uint32_t TraceBuilder::forwardTag(int chunk, int microBatch) const {
    return static_cast<uint32_t>(1 + 2 * (int64_t(chunk) * m_microBatches + microBatch));
}

WorkloadTrace TraceBuilder::buildRank(int rank) const {
    const ParallelSpec& par = m_spec.parallel;
    const int p = par.pp, v = par.virtualStages, m = m_microBatches;
    const int chunks = int(m_program.chunks.size());
    const uint64_t e = uint64_t(m_spec.training.bytesPerElement);
    const RankCoordinates here = m_layout.coordinates(rank);
    const int stage = here.pp;
    auto stageRank = [&](int chunk) {
        RankCoordinates c = here;
        c.pp = chunk % p;
        return m_layout.rank(c);
    };

    WorkloadTrace trace;
    trace.schemaVersion = "0.0.4";
    Emitter out(trace, m_layout, m_spec.compute, rank);
    const std::vector<PipelineOp> order = pipelineOrder(par.schedule, p, v, m, stage);
    // Index of each local chunk's last backward pass: its gradients are final there.
    std::vector<size_t> lastBackward(size_t(v), 0);
    for (size_t i = 0; i < order.size(); ++i)
        if (!order[i].forward)
            lastBackward[size_t(order[i].chunk)] = i;

    std::optional<uint64_t> cursor;
    Deps reductions;             // gradient collectives the optimizer waits for
    std::vector<Bucket> gathers; // ZeRO 1/2: weights to all-gather after the step
    uint64_t bucketCount = 0;
    const bool zero3 = par.zeroStage == 3;

    std::map<GroupKind, uint64_t> pending;
    auto flush = [&](GroupKind group, std::optional<uint64_t> after) {
        uint64_t& bytes = pending[group];
        if (bytes == 0)
            return;
        const std::string name =
            std::string("grad.") + groupKindName(group) + ".b" + std::to_string(bucketCount++);
        const CollectiveType type =
            par.zeroStage == 0 ? CollectiveType::AllReduce : CollectiveType::ReduceScatter;
        if (auto id = out.coll(name, type, bytes, group, depsOf(after))) {
            reductions.push_back(*id);
            if (par.zeroStage > 0)
                gathers.push_back({bytes, group});
        }
        bytes = 0;
    };

    for (size_t opIndex = 0; opIndex < order.size(); ++opIndex) {
        const PipelineOp& op = order[opIndex];
        const int j = op.chunk * p + stage;
        const std::string pass = (op.forward ? "F" : "B") + std::to_string(op.microBatch);
        std::optional<uint64_t> received;
        if (op.forward && j > 0)
            received = out.recv(pass + ".recv", stageRank(j - 1), forwardTag(j - 1, op.microBatch),
                                m_program.boundaryBytes, depsOf(cursor));
        else if (!op.forward && j < chunks - 1)
            received = out.recv(pass + ".recv", stageRank(j + 1), backwardTag(j, op.microBatch),
                                m_program.boundaryBytes, depsOf(cursor));
        if (received) // the receive itself follows the previous pass (its ctrl dep)
            cursor = received;

        std::vector<int> layers = m_program.chunks[size_t(j)];
        if (!op.forward)
            std::reverse(layers.begin(), layers.end());
        const bool finalGrads = !op.forward && opIndex == lastBackward[size_t(op.chunk)];
        std::optional<uint64_t> previousLayerStart = cursor;
        for (int index : layers) {
            const LayerProgram& layer = m_program.layers[size_t(index)];
            const std::string prefix = pass + "." + layer.name + ".";
            Deps gathered;
            if (zero3)
                for (const ParamShare& share : layer.params) {
                    const uint64_t shard =
                        (share.elements * e + uint64_t(m_layout.groupSize(share.group)) - 1) /
                        uint64_t(m_layout.groupSize(share.group));
                    if (auto id = out.coll(prefix + "zero.ag." + groupKindName(share.group),
                                           CollectiveType::AllGather, shard, share.group,
                                           depsOf(previousLayerStart)))
                        gathered.push_back(*id);
                }
            std::optional<uint64_t> layerStart;
            std::optional<uint64_t> lastCompute; // the layer's gradients exist once it is done
            auto emit = [&](const Step& step, const std::string& name) {
                Deps deps = depsOf(cursor);
                if (!layerStart)
                    deps.insert(deps.end(), gathered.begin(), gathered.end());
                std::optional<uint64_t> id =
                    step.kind == Step::Kind::Compute
                        ? std::optional<uint64_t>(out.comp(name, step.flops, step.bytes, deps))
                        : out.coll(name, step.collective, step.commBytes, step.group, deps);
                if (id) {
                    cursor = id;
                    if (step.kind == Step::Kind::Compute)
                        lastCompute = id;
                    if (!layerStart)
                        layerStart = id;
                }
            };
            if (!op.forward && par.recompute && layer.recomputable)
                for (const Step& step : layer.forward)
                    emit(step, "R" + prefix.substr(1) + step.name);
            for (const Step& step : op.forward ? layer.forward : layer.backward)
                emit(step, prefix + step.name);
            previousLayerStart = layerStart ? layerStart : cursor;

            if (op.forward)
                continue;
            const std::optional<uint64_t> gradsReady = lastCompute ? lastCompute : cursor;
            for (const ParamShare& share : layer.params) {
                if (zero3) {
                    if (auto id = out.coll(prefix + "zero.rs." + groupKindName(share.group),
                                           CollectiveType::ReduceScatter, share.elements * e,
                                           share.group, depsOf(gradsReady)))
                        reductions.push_back(*id);
                } else if (finalGrads && share.group != GroupKind::None) {
                    pending[share.group] += share.elements * e;
                    if (pending[share.group] >= par.bucketBytes)
                        flush(share.group, gradsReady);
                }
            }
        }
        if (finalGrads && !zero3)
            for (auto& [group, bytes] : pending)
                flush(group, cursor);

        if (op.forward && j < chunks - 1)
            out.send(pass + ".send", stageRank(j + 1), forwardTag(j, op.microBatch),
                     m_program.boundaryBytes, depsOf(cursor));
        else if (!op.forward && j > 0)
            out.send(pass + ".send", stageRank(j - 1), backwardTag(j - 1, op.microBatch),
                     m_program.boundaryBytes, depsOf(cursor));
    }

    // Optimizer step over this rank's parameters (its shard with ZeRO >= 1): Adam reads the
    // gradient and fp32 master weight, m and v, writes them back and the 16-bit weight.
    double shardElements = 0;
    for (int c = 0; c < v; ++c)
        for (int index : m_program.chunks[size_t(c * p + stage)])
            for (const ParamShare& share : m_program.layers[size_t(index)].params)
                shardElements += double(share.elements) /
                                 (par.zeroStage >= 1 ? m_layout.groupSize(share.group) : 1);
    const double stateBytes = e < 4 ? 24 : 16;
    Deps stepDeps = depsOf(cursor);
    stepDeps.insert(stepDeps.end(), reductions.begin(), reductions.end());
    // Tied embeddings: first and last stage sum their copies' gradients once the data-parallel
    // reduction is done (Megatron's finalize step), then both step.
    if (m_program.tiedEmbeddingGradientBytes > 0 && (stage == 0 || stage == p - 1))
        if (auto id =
                out.coll("grad.embedding", CollectiveType::AllReduce,
                         m_program.tiedEmbeddingGradientBytes, GroupKind::Embedding, stepDeps))
            stepDeps = {*id};
    const uint64_t step =
        out.comp("optimizer.step", 0, shardElements * (2.0 * double(e) + stateBytes), stepDeps);
    for (size_t i = 0; i < gathers.size(); ++i) {
        const uint64_t size = uint64_t(m_layout.groupSize(gathers[i].group));
        out.coll("zero.ag.b" + std::to_string(i), CollectiveType::AllGather,
                 (gathers[i].bytes + size - 1) / size, gathers[i].group, {step});
    }
    return trace;
}

} // namespace astrolabe::generate
