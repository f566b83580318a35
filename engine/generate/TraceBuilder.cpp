#include "generate/TraceBuilder.h"

#include "generate/ModelStates.h"
#include "generate/PipelineOrder.h"
#include "generate/TraceEmitter.h"
#include "generate/TraceTensors.h"
#include "generate/TransformerKernels.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace astrolabe::generate {

namespace {

using trace_emitter::addDep;
using trace_emitter::Deps;
using trace_emitter::depsOf;
using trace_emitter::Emitter;

struct Bucket {
    uint64_t bytes = 0;
    GroupKind group = GroupKind::Dp;
    std::vector<int> layers; ///< the layers whose gradients it holds (program indices)
};

/// An offloaded layer's gradient store, waiting for the reductions of its gradients.
struct GradientStore {
    std::string name;
    double bytes = 0;
    Deps deps;
    int waiting = 0; ///< bucket reductions still to be issued
    bool issued = false;
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
    const uint64_t g = uint64_t(m_spec.training.gradientBytes());
    const RankCoordinates here = m_layout.coordinates(rank);
    const int stage = here.pp;
    auto stageRank = [&](int chunk) {
        RankCoordinates c = here;
        c.pp = chunk % p;
        return m_layout.rank(c);
    };

    WorkloadTrace trace;
    trace.schemaVersion = "0.0.4";
    Emitter out(trace, m_layout, m_spec.compute, rank, m_spec.training.bytesPerElement);
    const std::vector<PipelineOp> order = pipelineOrder(par.schedule, p, v, m, stage);
    // Index of each local chunk's last backward pass: its gradients are final there.
    std::vector<size_t> lastBackward(size_t(v), 0);
    for (size_t i = 0; i < order.size(); ++i)
        if (!order[i].forward)
            lastBackward[size_t(order[i].chunk)] = i;

    // ZeRO-3: a layer's weight shards all-gathered over each parameter's group, after `deps`.
    auto gatherLayer = [&](const LayerProgram& layer, const std::string& prefix, Deps deps) {
        std::vector<std::pair<GroupKind, uint64_t>> ids;
        for (const ParamShare& share : layer.params) {
            const uint64_t members = uint64_t(m_layout.groupSize(share.group));
            const uint64_t shard = (share.elements * e + members - 1) / members;
            if (auto id = out.coll(prefix + "zero.ag." + groupKindName(share.group),
                                   CollectiveType::AllGather, shard, share.group, deps))
                ids.emplace_back(share.group, *id);
        }
        return ids;
    };

    std::optional<uint64_t> cursor;
    Deps reductions;             // gradient collectives the optimizer waits for
    std::vector<Bucket> gathers; // ZeRO 1/2: weights to all-gather after the step
    uint64_t bucketCount = 0;
    const bool zero3 = par.zeroStage == 3;

    const bool tensors = m_spec.output.tensors; // tensor lists (generate/TraceTensors.h)

    // Offload (ZeRO-Infinity): tier names label the MEM_LOAD / MEM_STORE nodes.
    const OffloadSpec& offload = m_spec.offload;
    const bool offloadParameters = offload.parameters != OffloadTier::None;
    const bool offloadGradients = offload.gradients != OffloadTier::None;
    const bool offloadOptimizer = offload.optimizer != OffloadTier::None;
    std::vector<GradientStore> stores;
    std::map<GroupKind, std::vector<size_t>> waitingOn; // bucket group -> stores
    Deps stored;                                        // issued gradient stores
    auto storeGradients = [&](GradientStore& store) {
        if (store.issued)
            return;
        store.issued = true;
        stored.push_back(out.mem(store.name, NodeType::MemStore, store.bytes, store.deps));
    };
    // A bucket reduction (or, without one, `done`) releases the stores waiting for it.
    auto release = [&](GroupKind group, std::optional<uint64_t> done) {
        const auto it = waitingOn.find(group);
        if (it == waitingOn.end())
            return;
        for (size_t i : it->second) {
            addDep(stores[i].deps, done);
            if (--stores[i].waiting == 0)
                storeGradients(stores[i]);
        }
        waitingOn.erase(it);
    };

    std::map<GroupKind, uint64_t> pending;
    std::map<GroupKind, std::vector<int>> pendingLayers; // the layers in each pending bucket
    auto flush = [&](GroupKind group, std::optional<uint64_t> after) {
        uint64_t& bytes = pending[group];
        std::vector<int> layers = std::move(pendingLayers[group]);
        pendingLayers[group].clear();
        std::optional<uint64_t> done = after;
        if (bytes > 0) {
            const std::string name =
                std::string("grad.") + groupKindName(group) + ".b" + std::to_string(bucketCount++);
            const CollectiveType type =
                par.zeroStage == 0 ? CollectiveType::AllReduce : CollectiveType::ReduceScatter;
            if (auto id = out.coll(name, type, bytes, group, depsOf(after))) {
                reductions.push_back(*id);
                if (par.zeroStage > 0) // the updated e-byte weights of the bucket's gradients
                    gathers.push_back({bytes / g * e, group, std::move(layers)});
                done = id;
            }
            bytes = 0;
        }
        release(group, done);
    };

    for (size_t opIndex = 0; opIndex < order.size(); ++opIndex) {
        const PipelineOp& op = order[opIndex];
        const int j = op.chunk * p + stage;
        const std::string pass = (op.forward ? "F" : "B") + std::to_string(op.microBatch);
        const std::optional<uint64_t> passStart = cursor;
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
        // Offloaded parameters: the load of the layer `prefetch` positions ahead is issued when a
        // layer starts (the first ones when the pass starts); a layer starts after its own load.
        std::map<size_t, uint64_t> loads;
        auto loadParameters = [&](size_t position, Deps deps) {
            if (!offloadParameters || position >= layers.size())
                return;
            const LayerProgram& layer = m_program.layers[size_t(layers[position])];
            const double bytes = layerStateBytes(m_spec, layer).weights;
            if (bytes > 0)
                loads[position] = out.mem(pass + "." + layer.name + ".param.load." +
                                              offloadTierName(offload.parameters),
                                          NodeType::MemLoad, bytes, std::move(deps));
        };
        const size_t prefetch = size_t(std::max(0, offload.prefetch));
        for (size_t position = 0; position < std::min(prefetch, layers.size()); ++position)
            loadParameters(position, depsOf(passStart));
        std::optional<uint64_t> previousLayerStart = cursor;
        std::vector<std::pair<GroupKind, uint64_t>> prefetched; // ZeRO-3 gathers issued early
        size_t prefetchedFor = layers.size();                   // for this position
        for (size_t position = 0; position < layers.size(); ++position) {
            const int index = layers[position];
            const LayerProgram& layer = m_program.layers[size_t(index)];
            const std::string prefix = pass + "." + layer.name + ".";
            if (prefetch == 0)
                loadParameters(position, depsOf(cursor));
            std::optional<uint64_t> loaded;
            if (const auto it = loads.find(position); it != loads.end())
                loaded = it->second;
            // ZeRO-3: this layer's weight gathers, unless the previous layer prefetched them.
            Deps gathered;
            if (zero3 && prefetchedFor == position)
                for (const auto& [group, id] : prefetched)
                    gathered.push_back(id);
            else if (zero3)
                for (const auto& [group, id] :
                     gatherLayer(layer, prefix, depsOf(previousLayerStart, loaded)))
                    gathered.push_back(id);
            addDep(gathered, loaded);
            // ZeRO-3 prefetch as FSDP issues it: the next layer's gathers are enqueued when this
            // layer may start (after its first node if that is a collective, which would queue
            // behind them), ahead of this layer's reduce-scatters: one communicator runs its
            // collectives in order, so a LIFO queue may not let a reduce-scatter overtake them.
            prefetched.clear();
            prefetchedFor = layers.size();
            const auto nextLoad = loads.find(position + 1);
            auto prefetchNext = [&](Deps deps) {
                const LayerProgram& next = m_program.layers[size_t(layers[position + 1])];
                if (nextLoad != loads.end())
                    deps.push_back(nextLoad->second);
                std::string nextPrefix = pass;
                nextPrefix.append(".").append(next.name).append(".");
                prefetched = gatherLayer(next, nextPrefix, std::move(deps));
                prefetchedFor = position + 1;
            };
            const bool recomputes = !op.forward && par.recompute && layer.recomputable;
            const std::vector<Step>& leading =
                recomputes || op.forward ? layer.forward : layer.backward;
            bool prefetchAfterFirst = false;
            if (zero3 && position + 1 < layers.size() &&
                (!offloadParameters || nextLoad != loads.end())) {
                prefetchAfterFirst =
                    !leading.empty() && leading.front().kind != Step::Kind::Compute;
                if (!prefetchAfterFirst) {
                    Deps deps = depsOf(cursor); // what this layer's first node waits for
                    deps.insert(deps.end(), gathered.begin(), gathered.end());
                    prefetchNext(std::move(deps));
                }
            }
            std::optional<uint64_t> layerStart;
            std::optional<uint64_t> firstCompute;
            std::optional<uint64_t> lastCompute; // the layer's gradients exist once it is done
            // Collectives that run beside the next step (Step::overlapsNext), and those the step
            // after it must also wait for.
            Deps beside, join;
            auto emit = [&](const Step& step, const std::string& name) {
                Deps deps = depsOf(cursor);
                if (!layerStart)
                    deps.insert(deps.end(), gathered.begin(), gathered.end());
                if (step.overlapsNext) {
                    if (auto id = out.coll(name, step.collective, step.commBytes, step.group, deps))
                        beside.push_back(*id);
                    return;
                }
                deps.insert(deps.end(), join.begin(), join.end());
                join = std::move(beside);
                beside.clear();
                std::optional<uint64_t> id =
                    step.kind == Step::Kind::Compute
                        ? std::optional<uint64_t>(
                              out.comp(name, step.flops, step.bytes, deps, step.kernels))
                        : out.coll(name, step.collective, step.commBytes, step.group, deps);
                if (id) {
                    cursor = id;
                    if (step.kind == Step::Kind::Compute) {
                        lastCompute = id;
                        if (!firstCompute)
                            firstCompute = id;
                    }
                    if (!layerStart) {
                        layerStart = id;
                        if (prefetchAfterFirst)
                            prefetchNext(depsOf(id));
                    }
                }
            };
            if (recomputes)
                for (const Step& step : layer.forward) // "RB0.L1.attn" for "B0.L1.attn"
                    emit(step, std::string("R").append(prefix, 1).append(step.name));
            for (const Step& step : op.forward ? layer.forward : layer.backward)
                emit(step, prefix + step.name);
            previousLayerStart = layerStart ? layerStart : cursor;
            if (prefetch > 0)
                loadParameters(position + prefetch, depsOf(previousLayerStart));
            if (tensors && firstCompute)
                useLayerTensors(m_spec, m_program, trace, layer, op, *firstCompute, *lastCompute,
                                j == chunks - 1 && index == m_program.chunks[size_t(j)].back());

            if (op.forward)
                continue;
            const std::optional<uint64_t> gradsReady = lastCompute ? lastCompute : cursor;
            // Offloaded gradients: stored once the iteration's reductions of them are issued.
            std::optional<size_t> store;
            if (offloadGradients && finalGrads) {
                const double bytes = layerStateBytes(m_spec, layer).gradients;
                if (bytes > 0) {
                    stores.push_back({prefix + "grad.store." + offloadTierName(offload.gradients),
                                      bytes, depsOf(gradsReady), 0});
                    store = stores.size() - 1;
                }
            }
            for (const ParamShare& share : layer.params) {
                if (zero3) {
                    Deps deps = depsOf(gradsReady);
                    for (const auto& [group, id] : prefetched)
                        if (group == share.group)
                            deps.push_back(id);
                    if (auto id = out.coll(prefix + "zero.rs." + groupKindName(share.group),
                                           CollectiveType::ReduceScatter, share.elements * g,
                                           share.group, std::move(deps))) {
                        reductions.push_back(*id);
                        if (store)
                            addDep(stores[*store].deps, id);
                    }
                } else if (finalGrads && share.group != GroupKind::None) {
                    if (store) {
                        std::vector<size_t>& waiting = waitingOn[share.group];
                        if (std::find(waiting.begin(), waiting.end(), *store) == waiting.end()) {
                            waiting.push_back(*store);
                            ++stores[*store].waiting;
                        }
                    }
                    std::vector<int>& inBucket = pendingLayers[share.group];
                    if (inBucket.empty() || inBucket.back() != index)
                        inBucket.push_back(index);
                    pending[share.group] += share.elements * g;
                    if (pending[share.group] >= par.bucketBytes)
                        flush(share.group, gradsReady);
                }
            }
            if (store && stores[*store].waiting == 0)
                storeGradients(stores[*store]);
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
    // gradient (g bytes) and fp32 master weight, m and v, writes them back and the e-byte weight.
    double shardElements = 0, castBytes = 0; // FP8: this rank's weights cast once an iteration
    for (int c = 0; c < v; ++c)
        for (int index : m_program.chunks[size_t(c * p + stage)]) {
            castBytes += fp8WeightCastBytes(m_spec, m_program.layers[size_t(index)]);
            for (const ParamShare& share : m_program.layers[size_t(index)].params)
                shardElements += double(share.elements) /
                                 (par.zeroStage >= 1 ? m_layout.groupSize(share.group) : 1);
        }
    const double stateBytes = e < 4 ? 24 : 16;
    Deps stepDeps = depsOf(cursor);
    stepDeps.insert(stepDeps.end(), reductions.begin(), reductions.end());
    stepDeps.insert(stepDeps.end(), stored.begin(), stored.end());
    // Tied embeddings: first and last stage sum their copies' gradients once the data-parallel
    // reduction is done (Megatron's finalize step), then both step.
    if (m_program.tiedEmbeddingGradientBytes > 0 && (stage == 0 || stage == p - 1))
        if (auto id =
                out.coll("grad.embedding", CollectiveType::AllReduce,
                         m_program.tiedEmbeddingGradientBytes, GroupKind::Embedding, stepDeps))
            stepDeps = {*id};
    std::optional<uint64_t> lastStep;
    std::map<int, uint64_t> layerSteps; // offloaded optimizer: each layer's own step
    if (offloadOptimizer) {
        // Offloaded optimizer states: per layer, load the states (fp32 master weights, m, v),
        // step, store them back; the steps run one after another, the loads as soon as the
        // gradients are reduced.
        const std::string tier = offloadTierName(offload.optimizer);
        for (int c = 0; c < v; ++c)
            for (int index : m_program.chunks[size_t(c * p + stage)]) {
                const LayerProgram& layer = m_program.layers[size_t(index)];
                double elements = 0;
                for (const ParamShare& share : layer.params)
                    elements += double(share.elements) /
                                (par.zeroStage >= 1 ? m_layout.groupSize(share.group) : 1);
                const double states = layerStateBytes(m_spec, layer).optimizer;
                if (elements <= 0)
                    continue;
                std::string name = "optimizer.";
                name += layer.name;
                const uint64_t load =
                    out.mem(name + ".load." + tier, NodeType::MemLoad, states, stepDeps);
                const double stepBytes = elements * (double(e + g) + stateBytes);
                lastStep = offload.step == StepDevice::Cpu
                               ? out.cpu(name + ".step", stepBytes, offload.cpuGBps,
                                         depsOf(load, lastStep))
                               : out.comp(name + ".step", 0, stepBytes, depsOf(load, lastStep));
                layerSteps[index] = *lastStep;
                if (tensors)
                    useModelStates(m_spec, trace.nodes[size_t(*lastStep)], layer, true, true,
                                   false);
                out.mem(name + ".store." + tier, NodeType::MemStore, states, {*lastStep});
            }
    }
    const uint64_t step =
        lastStep ? *lastStep
                 : out.comp("optimizer.step", 0,
                            shardElements * (double(e + g) + stateBytes) + castBytes, stepDeps);
    if (tensors && !lastStep)
        for (int c = 0; c < v; ++c)
            for (int index : m_program.chunks[size_t(c * p + stage)])
                useModelStates(m_spec, trace.nodes[size_t(step)], m_program.layers[size_t(index)],
                               true, true, true);
    std::map<int, Deps> gatheredLayers; // ZeRO 1/2: the all-gathers bringing a layer's weights
    for (size_t i = 0; i < gathers.size(); ++i) {
        const uint64_t size = uint64_t(m_layout.groupSize(gathers[i].group));
        const std::optional<uint64_t> id =
            out.coll("zero.ag.b" + std::to_string(i), CollectiveType::AllGather,
                     (gathers[i].bytes + size - 1) / size, gathers[i].group, {step});
        for (int index : gathers[i].layers)
            addDep(gatheredLayers[index], id);
    }
    if (offloadParameters) {
        // Write-back: each layer's updated parameters go back to their tier, the bytes its
        // loads read (ModelStates.h), once its step has updated them (ZeRO-1/2: and the
        // all-gathers have brought the other ranks' updated shards). Nothing waits for them;
        // the iteration ends when they are done.
        const std::string tier = offloadTierName(offload.parameters);
        for (int c = 0; c < v; ++c)
            for (int index : m_program.chunks[size_t(c * p + stage)]) {
                const LayerProgram& layer = m_program.layers[size_t(index)];
                const double bytes = layerStateBytes(m_spec, layer).weights;
                if (bytes <= 0)
                    continue;
                const auto own = layerSteps.find(index);
                Deps deps = {own != layerSteps.end() ? own->second : step};
                for (uint64_t gather : gatheredLayers[index])
                    addDep(deps, gather);
                std::string name = "optimizer.";
                name += layer.name;
                name += ".param.store.";
                name += tier;
                out.mem(std::move(name), NodeType::MemStore, bytes, std::move(deps));
            }
    }
    return trace;
}

} // namespace astrolabe::generate
