#include "collective/CollectiveEngine.h"

#include "core/Error.h"

#include <algorithm>
#include <cmath>

namespace astrolabe {

namespace {
constexpr uint64_t kCollectiveTagBit = 1ULL << 63;
constexpr int kPhaseBits = 6;
constexpr int kGroupShift = 48;
constexpr int64_t kLocalRingEndpointDelayNs = 10;
} // namespace

CollectiveEngine::CollectiveEngine(Simulator& sim, Transport& transport, const Topology& topology,
                                   const SimulationSpec& spec, RunResult* record)
    : m_sim(sim)
    , m_transport(transport)
    , m_topology(topology)
    , m_spec(spec)
    , m_record(record)
    , m_timing{spec.options.timing}
    , m_queuesPerDim(std::max(1, spec.options.numQueuesPerDim))
    , m_endpointDelay(SimTime::fromNs(spec.system.endpointDelayNs))
    , m_npus(static_cast<size_t>(topology.npuCount()))
    , m_switches(transport) {
    const int active = std::max(1, spec.system.activeChunksPerDimension);
    m_queueThreshold = (active + m_queuesPerDim - 1) / m_queuesPerDim;
    std::vector<DimensionSpec> dimensions;
    for (int d = 0; d < topology.dimensionCount(); ++d)
        dimensions.push_back(topology.dimension(d));
    auto themisPlans = std::make_shared<DimensionScheduler::Plans>(); // one per run, all NPUs
    m_queueCount = static_cast<size_t>(topology.dimensionCount() * m_queuesPerDim);
    for (NpuState& npu : m_npus) {
        if (spec.system.interDimensionScheduling != InterDimensionScheduling::Ascending)
            npu.scheduler = std::make_unique<DimensionScheduler>(
                spec.system.interDimensionScheduling, dimensions, spec.system, themisPlans,
                spec.options.backend == NetworkBackend::CongestionAware);
    }
}

CollectiveEngine::~CollectiveEngine() {
    for (NpuState& npu : m_npus)
        for (Collective* c : npu.active)
            delete c; // unfinished at the end of a failed or cancelled run
}

SimTime CollectiveEngine::endpointDelayFor(const PhaseSpec& phase) const {
    if (phase.ring.local && phase.algorithm.kind != AlgorithmKind::DoubleBinaryTree)
        return SimTime::fromNs(kLocalRingEndpointDelayNs);
    return m_endpointDelay;
}

void CollectiveEngine::start(const CollectiveRequest& request, std::function<void()> onDone) {
    m_finished.clear();
    NpuState& npu = m_npus[static_cast<size_t>(request.npu)];
    const int64_t total = m_topology.npuCount();
    const int splits = m_spec.system.preferredDatasetSplits;
    if (splits <= 0)
        throw Error(ErrorKind::Validation,
                    "preferred-dataset-splits must be at least 1 (ASTRA-sim divides by it)",
                    {m_spec.system.sourceFile, 0, 0, "preferred-dataset-splits"});

    // Chunking, spec §5.1: every chunk carries exactly C bytes, even the last.
    uint64_t size = request.bytes;
    uint64_t chunk = size / static_cast<uint64_t>(splits);
    if (request.kind != CollectiveKind::AllGather && chunk < static_cast<uint64_t>(total)) {
        chunk = static_cast<uint64_t>(total);
        size = static_cast<uint64_t>(splits) * static_cast<uint64_t>(total);
    }
    if (chunk == 0)
        throw Error(ErrorKind::Validation,
                    std::string(collectiveKindName(CollectiveKind::AllGather)) + " of " +
                        std::to_string(request.bytes) + " bytes split into " +
                        std::to_string(splits) + " chunks leaves empty chunks",
                    {}, "use a larger comm_size or fewer preferred-dataset-splits");
    const auto chunks =
        static_cast<int>(std::ceil(static_cast<double>(size) / static_cast<double>(chunk)));

    const std::vector<int>* members = nullptr;
    if (request.group != 0) {
        const auto it = m_spec.commGroups.find(request.group);
        if (it == m_spec.commGroups.end())
            throw Error(ErrorKind::Validation,
                        "NPU " + std::to_string(request.npu) + " node " +
                            std::to_string(request.nodeId) + ": communicator group " +
                            std::to_string(request.group) + " not found",
                        {}, "define it in the comm-group configuration");
        if (static_cast<int64_t>(it->second.size()) != total)
            members = &it->second;
    }

    int64_t priority = 0;
    switch (m_spec.system.schedulingPolicy) {
    case SchedulingPolicy::LIFO:
        priority = ++npu.priorityCounter;
        break;
    case SchedulingPolicy::FIFO:
        priority = --npu.priorityCounter;
        break;
    case SchedulingPolicy::Explicit:
        priority = request.priority;
        break;
    }

    auto collective = std::make_unique<Collective>();
    collective->request = request;
    collective->onDone = std::move(onDone);
    collective->start = m_sim.now();
    collective->chunkBytes = chunk;
    if (const std::string source = customSourceFor(request); !source.empty()) {
        startCustom(std::move(collective), source, members);
        return;
    }
    uint64_t& counter = npu.streamCounter[request.group];
    if (npu.scheduler)
        npu.scheduler->beginCollective(chunks);
    for (int c = 0; c < chunks; ++c) {
        auto stream = std::make_unique<Stream>();
        stream->owner = collective.get();
        stream->chunk = c;
        stream->priority = priority;
        PlanInput in{request.npu,           request.kind, chunk,
                     &request.involvedDims, members,      members ? nullptr : npu.scheduler.get()};
        stream->phases = planPhases(in, m_topology, m_spec.system, m_queuesPerDim, npu.cursor);
        for (PhaseSpec& p : stream->phases)
            if (p.algorithm.kind == AlgorithmKind::DoubleBinaryTree)
                p.rootMax =
                    npu.treeCounter[static_cast<int>(p.kind) * 64 + p.dimension + 1]++ % 2 == 0;
        if (stream->phases.empty() && members && members->size() < 2)
            throw Error(ErrorKind::Validation,
                        "NPU " + std::to_string(request.npu) + " node " +
                            std::to_string(request.nodeId) + ": the " +
                            collectiveTypeName(request.chakraType) +
                            " runs over communicator group " + std::to_string(request.group) +
                            ", which has one NPU: it moves nothing and could never complete",
                        {}, "give the group two or more NPUs, or take the collective out");
        if (stream->phases.empty())
            throw Error(ErrorKind::Validation,
                        "NPU " + std::to_string(request.npu) + " node " +
                            std::to_string(request.nodeId) + ": the " +
                            collectiveTypeName(request.chakraType) +
                            " involves no dimension with more than one NPU, so it can never "
                            "complete (ASTRA-sim hangs here)",
                        {}, "check involved_dim and the platform's dimension sizes");
        collective->streams.push_back(std::move(stream));
    }
    collective->firstTag = kCollectiveTagBit |
                           (static_cast<uint64_t>(request.group) << kGroupShift) |
                           (counter << kPhaseBits);
    counter += static_cast<uint64_t>(chunks);
    collective->remaining = chunks;
    Collective& ref = *collective;
    npu.active.push_back(collective.release());
    for (auto& stream : ref.streams)
        enqueue(*stream);
}

std::string CollectiveEngine::customSourceFor(const CollectiveRequest& request) const {
    for (const auto& [nodeId, source] : m_spec.system.perNodeCustom)
        if (nodeId == request.nodeId)
            return source;
    return m_spec.system.customPrefix(request.kind);
}

void CollectiveEngine::startCustom(std::unique_ptr<Collective> collective,
                                   const std::string& source, const std::vector<int>* members) {
    const CollectiveRequest& r = collective->request;
    if (!m_customTraces)
        throw Error(ErrorKind::Internal, "no custom collective provider is attached");
    // The ET of an algorithm rank: the NPU id, or its position in the (sorted) group.
    int position = r.npu;
    if (members) {
        std::vector<int> sorted = *members;
        std::sort(sorted.begin(), sorted.end());
        position =
            static_cast<int>(std::find(sorted.begin(), sorted.end(), r.npu) - sorted.begin());
    }
    const WorkloadTrace& trace = m_customTraces(source, position, r.bytes);
    Collective& ref = *collective;
    ref.remaining = 1;
    ref.custom = std::make_unique<CustomCollective>(m_sim, m_transport, r.npu, trace, members,
                                                    r.bytes, r.kind == CollectiveKind::AllGather,
                                                    [this, &ref] { finishCollective(ref); });
    if (m_record && m_spec.options.recordTransfers) {
        ChunkTransfer identity;
        identity.nodeId = r.nodeId;
        identity.algorithm = ChunkTransfer::kCustomAlgorithm;
        ref.custom->recordTo(&m_record->transfers, identity);
    }
    m_npus[static_cast<size_t>(r.npu)].active.push_back(collective.release());
    ref.custom->start();
}

void CollectiveEngine::enqueue(Stream& stream) {
    const PhaseSpec& phase = stream.phases[stream.current];
    NpuState& npu = m_npus[static_cast<size_t>(stream.owner->request.npu)];
    if (npu.queues.empty())
        npu.queues.resize(m_queueCount);
    Queue& queue = npu.queues[static_cast<size_t>(phase.queue)];
    if (queue.running < m_queueThreshold) {
        ++queue.running;
        startPhase(stream);
        return;
    }
    queue.waiting.insert(insertionPoint(queue.waiting, stream), &stream);
}

std::deque<CollectiveEngine::Stream*>::iterator
CollectiveEngine::insertionPoint(std::deque<Stream*>& waiting, const Stream& stream) const {
    // The priority rule: behind every waiting stream of at least the same priority.
    auto byPriority = [&] {
        auto it = waiting.begin();
        while (it != waiting.end() && (*it)->priority >= stream.priority)
            ++it;
        return it;
    };
    const PhaseSpec& phase = stream.phases[stream.current];
    // Intra-dimension policies apply only to reduce-scatter and all-gather phases after a
    // chunk's first phase (spec §5.10); the rest keeps the priority rule.
    const bool policyApplies = stream.current > 0 && (phase.kind == CollectiveKind::ReduceScatter ||
                                                      phase.kind == CollectiveKind::AllGather);
    if (!policyApplies)
        return byPriority();
    auto remaining = [](const Stream* s) { return s->phases.size() - s->current; };
    auto footprint = [](const Stream* s) {
        const PhaseSpec& p = s->phases[s->current];
        return std::max(p.inputBytes, phaseOutputBytes(p.kind, p.ring.size, p.inputBytes));
    };
    switch (m_spec.system.intraDimensionScheduling) {
    case IntraDimensionScheduling::FIFO:
        return byPriority();
    case IntraDimensionScheduling::SmallestFirst: {
        if (remaining(&stream) == 1)
            return waiting.end(); // chunks on their last phase go to the back
        auto it = waiting.begin();
        while (it != waiting.end() && remaining(*it) > 1 && footprint(*it) <= footprint(&stream))
            ++it;
        return it;
    }
    case IntraDimensionScheduling::LessRemainingPhaseFirst: {
        auto it = waiting.begin();
        while (it != waiting.end() && remaining(*it) <= remaining(&stream))
            ++it;
        return it;
    }
    case IntraDimensionScheduling::RG: {
        // Keep reduce-scatters and all-gathers in runs: go right behind the last waiting
        // stream of the same kind, else to the back.
        for (auto it = waiting.end(); it != waiting.begin();) {
            --it;
            if ((*it)->phases[(*it)->current].kind == phase.kind)
                return it + 1;
        }
        return waiting.end();
    }
    }
    return byPriority();
}

void CollectiveEngine::startPhase(Stream& stream) {
    const PhaseSpec& phase = stream.phases[stream.current];
    const Collective& owner = *stream.owner;
    PhaseContext ctx;
    ctx.sim = &m_sim;
    ctx.transport = &m_transport;
    ctx.timing = m_timing;
    ctx.npu = owner.request.npu;
    ctx.tag = owner.firstTag + (static_cast<uint64_t>(stream.chunk) << kPhaseBits) + stream.current;
    ctx.endpointDelay = endpointDelayFor(phase);
    ctx.bandwidthFactor = m_spec.system.bandwidthFactor[static_cast<size_t>(owner.request.kind)];
    ctx.localMemBandwidthGBps = m_spec.system.localMemBandwidthGBps;
    ctx.systemFile = &m_spec.system.sourceFile;
    ctx.symmetric = m_symmetric;
    ctx.switches = &m_switches;
    ctx.onDone = [this, &stream] { phaseDone(stream); };
    if (m_record && m_spec.options.recordTransfers) {
        ctx.transfers = &m_record->transfers;
        ctx.transferTemplate.nodeId = owner.request.nodeId;
        ctx.transferTemplate.chunk = stream.chunk;
        ctx.transferTemplate.phase = static_cast<int16_t>(stream.current);
        ctx.transferTemplate.dimension = static_cast<int16_t>(phase.dimension);
        ctx.transferTemplate.algorithm = static_cast<uint8_t>(phase.algorithm.kind);
    }
    stream.phaseStart = m_sim.now();
    stream.running = makePhase(phase, std::move(ctx));
    stream.running->start();
}

void CollectiveEngine::phaseDone(Stream& stream) {
    const PhaseSpec& phase = stream.phases[stream.current];
    Collective& owner = *stream.owner;
    if (m_record && m_spec.options.recordTimeline) {
        PhaseSpan span;
        span.start = stream.phaseStart;
        span.end = m_sim.now();
        span.npu = owner.request.npu;
        span.nodeId = owner.request.nodeId;
        span.chunk = stream.chunk;
        span.phase = static_cast<int16_t>(stream.current);
        span.dimension = static_cast<int16_t>(phase.dimension);
        span.phaseKind = static_cast<uint8_t>(phase.kind);
        span.algorithm = static_cast<uint8_t>(phase.algorithm.kind);
        span.inputBytes = phase.inputBytes;
        m_record->phases.push_back(span);
    }
    // The phase object is still on the call stack; keep it alive until we return.
    const std::unique_ptr<Phase> finished = std::move(stream.running);
    NpuState& npu = m_npus[static_cast<size_t>(owner.request.npu)];
    Queue& queue = npu.queues[static_cast<size_t>(phase.queue)];
    --queue.running;
    if (!queue.waiting.empty()) {
        Stream* next = queue.waiting.front();
        queue.waiting.pop_front();
        ++queue.running;
        startPhase(*next);
    }
    if (++stream.current < stream.phases.size()) {
        enqueue(stream);
        return;
    }
    if (--owner.remaining != 0)
        return;
    // The collective's own fixed cost (system.<collective>-latency), once, after its last chunk.
    const double latencyNs =
        m_spec.system.collectiveLatencyNs[static_cast<size_t>(owner.request.kind)];
    if (latencyNs > 0)
        m_sim.scheduleIn(m_timing.fromNs(latencyNs), [this, &owner] { finishCollective(owner); });
    else
        finishCollective(owner);
}

void CollectiveEngine::finishCollective(Collective& collective) {
    const CollectiveRequest& r = collective.request;
    if (m_record && m_spec.options.recordTimeline) {
        CollectiveSpan span;
        span.start = collective.start;
        span.end = m_sim.now();
        span.npu = r.npu;
        span.nodeId = r.nodeId;
        span.type = r.chakraType;
        span.sizeBytes = r.bytes;
        span.chunks = static_cast<int32_t>(collective.streams.size());
        span.commGroup = r.group;
        m_record->collectives.push_back(span);
    }
    NpuState& npu = m_npus[static_cast<size_t>(r.npu)];
    for (auto it = npu.active.begin(); it != npu.active.end(); ++it)
        if (*it == &collective) {
            // Freed on the next start(): a phase of it may still be on the call stack.
            m_finished.emplace_back(*it);
            npu.active.erase(it);
            break;
        }
    const std::function<void()> done = std::move(collective.onDone);
    done();
}

std::vector<std::string> CollectiveEngine::describePending(int npu) const {
    std::vector<std::string> out;
    for (const Collective* c : m_npus[static_cast<size_t>(npu)].active) {
        std::string line = std::string(collectiveTypeName(c->request.chakraType)) + " (node " +
                           std::to_string(c->request.nodeId) + ", " +
                           std::to_string(c->request.bytes) + " bytes): ";
        if (c->custom) {
            out.push_back(line + c->custom->waitingFor());
            continue;
        }
        int shown = 0;
        for (const auto& s : c->streams) {
            if (s->current >= s->phases.size())
                continue;
            if (shown++ > 0)
                line += "; ";
            line += "chunk " + std::to_string(s->chunk) + " ";
            line += s->running ? s->running->waitingFor() : "waiting for a queue slot";
            if (shown >= 3)
                break;
        }
        out.push_back(line);
    }
    return out;
}

bool CollectiveEngine::chunksWaitForQueueSlots() const {
    for (const NpuState& npu : m_npus)
        for (const Collective* c : npu.active)
            if (!c->custom)
                for (const auto& s : c->streams)
                    if (s->current < s->phases.size() && !s->running)
                        return true;
    return false;
}

} // namespace astrolabe
