#include "serving/ServingRun.h"

#include "core/Error.h"
#include "core/EventQueue.h"
#include "serving/Deployment.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace astrolabe::serving {
namespace {

SimTime timeOf(double seconds) {
    return SimTime::fromPsRounded(seconds * 1e12);
}

class Runner {
public:
    Runner(const SimulationSpec& spec, Deployment deployment, std::vector<Request> requests)
        : m_spec(spec.serving)
        , m_deployment(std::move(deployment))
        , m_requests(std::move(requests)) {
        for (size_t p = 0; p < m_deployment.pools.size(); ++p) {
            const Pool& pool = m_deployment.pools[p];
            m_poolFirst.push_back(int(m_replicas.size()));
            for (int i = 0; i < pool.replicas; ++i) {
                m_replicas.emplace_back(pool.limits);
                m_poolOf.push_back(int(p));
                ReplicaStats stats;
                stats.role = pool.role;
                stats.gpus = pool.gpusPerReplica;
                m_stats.push_back(stats);
            }
        }
        m_linkFree.assign(m_replicas.size(), SimTime::zero());
        m_closedLoop = m_spec.arrival == "concurrency" && m_spec.trace.empty();
        if (m_closedLoop) {
            m_random.seed(static_cast<uint64_t>(m_spec.seed) ^ 0x9e3779b97f4a7c15ULL);
            m_input = std::make_unique<LengthDistribution>(m_spec.input, "serving.input");
            m_output = std::make_unique<LengthDistribution>(m_spec.output, "serving.output");
        }
        const double horizon = m_requests.empty() ? 1.0 : m_requests.back().arrivalSeconds;
        m_sampleEvery = std::max(std::max(horizon, m_spec.durationNs * 1e-9) / 500.0, 1e-3);
    }

    ServingResult run() {
        for (const Request& r : m_requests)
            checkFits(r);
        m_records.reserve(m_requests.size());
        if (!m_requests.empty())
            m_queue.schedule(timeOf(m_requests.front().arrivalSeconds), [this] { arrive(); });
        m_queue.schedule(SimTime::zero(), [this] { sample(); });
        SimTime at;
        EventQueue::Callback callback;
        while (m_queue.pop(at, callback)) {
            m_now = at;
            callback();
        }
        for (const Replica& r : m_replicas)
            if (!r.idle())
                throw Error(ErrorKind::Internal, "a serving replica stopped with requests left");
        ServingResult result;
        sampleNow();
        result.summary = summarize(m_records, m_itl, m_samples, m_spec.ttftSloNs * 1e-9,
                                   m_spec.tpotSloNs * 1e-9);
        ServingSummary& s = result.summary;
        s.iterations = m_iterations;
        s.gpus = m_deployment.gpus;
        const Pool& first = m_deployment.pools.front();
        const Pool& last = m_deployment.pools.back();
        s.prefillGpus = first.replicas * first.gpusPerReplica;
        s.decodeGpus = last.replicas * last.gpusPerReplica;
        if (!m_deployment.disaggregated())
            s.prefillGpus = s.decodeGpus = s.gpus;
        s.outputTokensPerGpuSecond = s.outputTokensPerSecond / s.gpus;
        s.goodputPerGpu = s.goodputRequestsPerSecond / s.gpus;
        result.requests = std::move(m_records);
        result.occupancy = std::move(m_samples);
        result.replicas = std::move(m_stats);
        result.linkBytesPerSecond = m_deployment.link.bytesPerSecond;
        result.linkLatencySeconds = m_deployment.link.latencySeconds;
        result.kvBytesPerToken = m_deployment.kvBytesPerToken;
        return result;
    }

private:
    double now() const { return m_now.seconds(); }

    void checkFits(const Request& r) const {
        const Pool& last = m_deployment.pools.back();
        const int64_t need = int64_t(r.promptTokens) + r.outputTokens;
        const bool fitsFirst = Replica(m_deployment.pools.front().limits).fits(r.promptTokens);
        if (!Replica(last.limits).fits(need) || !fitsFirst)
            throw Error(ErrorKind::Validation,
                        "request " + std::to_string(r.id) + " needs a KV cache of " +
                            std::to_string(need) + " tokens, more than a replica holds (" +
                            std::to_string(last.limits.kvBlocks * last.limits.blockTokens) +
                            " tokens)",
                        SourceLocation{{}, 0, 0, "serving.kv-memory-fraction"},
                        "shorten the requests, or give each replica more GPUs or memory");
    }

    int leastLoaded(int pool) const {
        const int from = m_poolFirst[size_t(pool)];
        const int to = from + m_deployment.pools[size_t(pool)].replicas;
        int best = from;
        for (int r = from + 1; r < to; ++r)
            if (m_replicas[size_t(r)].load() < m_replicas[size_t(best)].load())
                best = r;
        return best;
    }

    void admit(const Request& r) { kick(enqueue(r)); }

    /// Records the request and queues it at the least-loaded replica of the first pool.
    int enqueue(const Request& r) {
        RequestRecord rec;
        rec.arrival = now();
        rec.promptTokens = r.promptTokens;
        rec.outputTokens = r.outputTokens;
        m_records.push_back(rec);
        Sequence s;
        s.request = int32_t(m_records.size() - 1);
        s.prompt = r.promptTokens;
        s.output = r.outputTokens;
        s.computed = r.cachedTokens;
        s.target = r.promptTokens;
        const int replica = leastLoaded(0);
        m_records.back().prefillReplica = m_records.back().decodeReplica = replica;
        ++m_stats[size_t(replica)].requests;
        m_replicas[size_t(replica)].enqueue(s);
        return replica;
    }

    /// Every request arriving at this instant joins its queue before any replica schedules, so
    /// requests that arrive together can share the first iteration.
    void arrive() {
        const SimTime at = timeOf(m_requests[m_nextArrival].arrivalSeconds);
        std::vector<int> touched;
        while (m_nextArrival < m_requests.size() &&
               timeOf(m_requests[m_nextArrival].arrivalSeconds) == at)
            touched.push_back(enqueue(m_requests[m_nextArrival++]));
        for (int replica : touched)
            kick(replica);
        if (m_nextArrival < m_requests.size())
            m_queue.schedule(timeOf(m_requests[m_nextArrival].arrivalSeconds),
                             [this] { arrive(); });
    }

    void kick(int replica) {
        Replica& r = m_replicas[size_t(replica)];
        if (r.busy() || r.idle())
            return;
        const StepShape shape = r.schedule();
        if (shape.tokens() == 0) {
            if (r.running() == 0)
                throw Error(ErrorKind::Internal, "a serving replica cannot admit its queue head");
            return;
        }
        const Pool& pool = m_deployment.pools[size_t(m_poolOf[size_t(replica)])];
        const SimTime start = m_now;
        m_stats[size_t(replica)].tokens += shape.tokens();
        m_queue.schedule(m_now + timeOf(pool.timing->stepSeconds(shape)),
                         [this, replica, start] { stepDone(replica, start); });
    }

    void stepDone(int replica, SimTime start) {
        ++m_iterations;
        ReplicaStats& stats = m_stats[size_t(replica)];
        ++stats.iterations;
        stats.busySeconds += (m_now - start).seconds();
        m_replicas[size_t(replica)].complete(m_events);
        const double t = now();
        for (const StepEvent& e : m_events) {
            RequestRecord& rec = m_records[size_t(e.sequence.request)];
            if (rec.firstScheduled < 0)
                rec.firstScheduled = start.seconds();
            if (e.emitted) {
                if (rec.generated == 0)
                    rec.firstToken = t;
                else
                    m_itl.push_back(float(t - rec.lastToken));
                rec.lastToken = t;
                rec.generated = e.sequence.generated;
                ++m_tokensSinceSample;
            }
            if (e.finished)
                finished();
            else if (e.handedOff)
                transfer(replica, e.sequence);
        }
        kick(replica);
    }

    void finished() {
        ++m_completed;
        if (m_closedLoop && m_now.seconds() < m_spec.durationNs * 1e-9) {
            Request r = closedLoopRequest(m_spec, int64_t(m_records.size()), now(), m_random,
                                          *m_input, *m_output);
            checkFits(r);
            admit(r);
        }
    }

    void transfer(int from, Sequence s) {
        const Pool& prefill = m_deployment.pools[size_t(m_poolOf[size_t(from)])];
        const int to = leastLoaded(1);
        const double bytes = double(s.computed) * m_deployment.kvBytesPerToken;
        const double serial =
            bytes / (m_deployment.link.bytesPerSecond * std::max(1, prefill.kvHolders));
        const SimTime begin = std::max(m_now, m_linkFree[size_t(to)]);
        m_linkFree[size_t(to)] = begin + timeOf(serial);
        RequestRecord& rec = m_records[size_t(s.request)];
        rec.decodeReplica = to;
        rec.transferStart = now();
        rec.transferEnd =
            (m_linkFree[size_t(to)] + timeOf(m_deployment.link.latencySeconds)).seconds();
        ++m_stats[size_t(to)].requests;
        s.blocks = 0;
        s.scheduled = 0;
        ++m_inTransfer;
        m_queue.schedule(m_linkFree[size_t(to)] + timeOf(m_deployment.link.latencySeconds),
                         [this, to, s] {
                             --m_inTransfer;
                             m_replicas[size_t(to)].enqueue(s);
                             kick(to);
                         });
    }

    void sampleNow() {
        OccupancySample o;
        o.seconds = now();
        int64_t used = 0, total = 0, preemptions = 0;
        for (const Replica& r : m_replicas) {
            used += r.usedBlocks();
            total += r.totalBlocks();
            preemptions += r.preemptions();
            o.running += int64_t(r.running());
            o.waiting += int64_t(r.waiting());
        }
        o.kvOccupancy = total > 0 ? double(used) / double(total) : 0;
        o.preemptions = preemptions - m_preemptionsSeen;
        o.outputTokens = m_tokensSinceSample;
        m_tokensSinceSample = 0;
        m_preemptionsSeen = preemptions;
        m_samples.push_back(o);
    }

    void sample() {
        sampleNow();
        const bool more = m_nextArrival < m_requests.size() || m_inTransfer > 0 ||
                          std::any_of(m_replicas.begin(), m_replicas.end(),
                                      [](const Replica& r) { return !r.idle(); });
        if (more)
            m_queue.schedule(m_now + timeOf(m_sampleEvery), [this] { sample(); });
    }

    const ServingSpec& m_spec;
    Deployment m_deployment;
    std::vector<Request> m_requests;
    std::vector<Replica> m_replicas;
    std::vector<int> m_poolOf, m_poolFirst;
    std::vector<SimTime> m_linkFree; ///< per decode replica: its incoming link is free
    std::vector<RequestRecord> m_records;
    std::vector<float> m_itl;
    std::vector<OccupancySample> m_samples;
    std::vector<ReplicaStats> m_stats; ///< parallel to m_replicas
    int64_t m_tokensSinceSample = 0;
    std::vector<StepEvent> m_events;
    EventQueue m_queue;
    SimTime m_now;
    size_t m_nextArrival = 0;
    int64_t m_completed = 0, m_iterations = 0, m_inTransfer = 0, m_preemptionsSeen = 0;
    double m_sampleEvery = 1;
    bool m_closedLoop = false;
    std::mt19937_64 m_random;
    std::unique_ptr<LengthDistribution> m_input, m_output;
};

int typicalPrompt(const std::vector<Request>& requests) {
    if (requests.empty())
        return 1;
    double sum = 0;
    for (const Request& r : requests)
        sum += r.promptTokens;
    return std::max(1, int(std::lround(sum / double(requests.size()))));
}

} // namespace

bool isServingProject(const SimulationSpec& spec) {
    return spec.serving.enabled && spec.workload.kind == WorkloadSource::Kind::Microbenchmark &&
           spec.workload.microbenchmark.sizeBytes == 0;
}

ServingResult runServing(const SimulationSpec& spec, std::vector<Request> requests) {
    const auto started = std::chrono::steady_clock::now();
    if (!spec.serving.enabled)
        throw Error(ErrorKind::Validation, "the project has no serving: section",
                    SourceLocation{spec.sourceFile, 0, 0, "serving"},
                    "add serving: {model: llama3-8b, gpu: h100, rate: 1} (docs/serving.md)");
    for (size_t i = 1; i < requests.size(); ++i)
        if (requests[i].arrivalSeconds < requests[i - 1].arrivalSeconds)
            throw Error(ErrorKind::Validation, "request " + std::to_string(requests[i].id) +
                                                   " arrives before the one "
                                                   "before it");
    Deployment deployment = buildDeployment(spec, typicalPrompt(requests));
    std::vector<std::string> warnings;
    const ServingSpec& s = spec.serving;
    if (s.tpotSloNs * 1e-9 < deployment.loneDecodeSeconds)
        warnings.push_back("serving.tpot-slo: " + std::to_string(s.tpotSloNs / 1e6) +
                           " ms is below one decode step of a lone request (" +
                           std::to_string(deployment.loneDecodeSeconds * 1e3) +
                           " ms): no request can meet it");
    if (s.ttftSloNs * 1e-9 < deployment.lonePrefillSeconds)
        warnings.push_back("serving.ttft-slo: " + std::to_string(s.ttftSloNs / 1e6) +
                           " ms is below the prefill of a typical prompt alone (" +
                           std::to_string(deployment.lonePrefillSeconds * 1e3) + " ms)");
    Runner runner(spec, std::move(deployment), std::move(requests));
    ServingResult result = runner.run();
    result.warnings = std::move(warnings);
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

ServingResult runServing(const SimulationSpec& spec) {
    std::vector<std::string> warnings;
    std::vector<Request> requests =
        spec.serving.trace.empty()
            ? syntheticRequests(spec.serving)
            : readRequestTrace(spec.serving.trace, spec.serving.traceFormat,
                               spec.serving.durationNs * 1e-9, spec.serving.prefixReuse, &warnings);
    ServingResult result = runServing(spec, std::move(requests));
    result.warnings.insert(result.warnings.begin(), warnings.begin(), warnings.end());
    return result;
}

} // namespace astrolabe::serving
