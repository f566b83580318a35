#include "analysis/RunExplanation.h"

#include "core/Units.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace astrolabe {

double RunExplanation::latencyNs() const {
    double sum = 0;
    for (const DimensionPart& d : dimensions)
        sum += d.latencyNs;
    return sum;
}

double RunExplanation::bandwidthNs() const {
    double sum = 0;
    for (const DimensionPart& d : dimensions)
        sum += d.bandwidthNs;
    return sum;
}

double RunExplanation::communicationNs() const {
    return latencyNs() + bandwidthNs();
}

namespace {

std::string percent(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * fraction);
    return buf;
}

int hopsOf(BlockKind kind) {
    return kind == BlockKind::Switch ? 2 : 1; // NPU -> switch -> NPU
}

/// How one NPU's collective time on a dimension divides, as fractions of that time.
struct Split {
    double latency = 0, bandwidth = 0, localMemory = 0; ///< the rest is waiting
};

/// Per dimension, from the NPU's busiest outgoing link on it over the whole run: messages x
/// hops x alpha is the latency part, its busy (serialization) time the bandwidth part, each over
/// `phaseNs`, the NPU's whole collective time on that dimension. Overlapping messages (several
/// chunks in flight) can sum past the phase time: then the two are scaled to fill it.
std::vector<Split> splits(const RunResult& r, const PlatformSpec& p, const SystemConfig* system,
                          int npu, const std::vector<double>& phaseNs) {
    const size_t dims = p.dimensions.size();
    std::vector<Split> out(dims);
    std::vector<const LinkStats*> busiest(dims, nullptr);
    for (size_t l = 0; l < r.links.size() && l < r.linkStats.size(); ++l) {
        const auto d = static_cast<size_t>(r.links[l].dimension);
        if (r.links[l].src != npu || d >= dims)
            continue;
        if (!busiest[d] || busiest[d]->busy < r.linkStats[l].busy)
            busiest[d] = &r.linkStats[l];
    }
    for (size_t d = 0; d < dims; ++d) {
        const DimensionSpec& dim = p.dimensions[d];
        if (!busiest[d] || !(phaseNs[d] > 0)) {
            out[d] = {0.5, 0.5, 0};
            continue;
        }
        const LinkStats& link = *busiest[d];
        const auto messages = static_cast<double>(link.messages);
        const double alpha = messages * hopsOf(dim.kind) * dim.latencyNs, beta = link.busy.ns();
        const double scale = std::max(phaseNs[d], alpha + beta);
        out[d] = {alpha / scale, beta / scale, 0};
        const double rest = 1 - out[d].latency - out[d].bandwidth;
        // At most every message pays the endpoint hop and a reduction (3 passes over its bytes
        // at local-mem-bw); what the model cannot put there was waiting for data.
        double localNs = phaseNs[d];
        if (system) {
            localNs = messages * static_cast<double>(system->endpointDelayNs);
            if (system->localMemBandwidthGBps > 0)
                localNs += 3 * static_cast<double>(link.bytes) / system->localMemBandwidthGBps;
        }
        out[d].localMemory = std::min(rest, localNs / phaseNs[d]);
    }
    return out;
}

/// Shares [from, to) among the dimensions whose phases run in each instant; time with no phase
/// running goes to `idle`.
void shareCollective(SimTime from, SimTime to, const std::vector<const PhaseSpan*>& phases,
                     std::vector<double>& perDimension, double& idle) {
    struct Edge {
        int64_t ps;
        size_t dimension;
        int delta;
    };
    std::vector<Edge> edges;
    const size_t dims = perDimension.size();
    for (const PhaseSpan* s : phases) {
        const SimTime start = std::max(s->start, from), end = std::min(s->end, to);
        if (!(start < end))
            continue;
        // A whole-machine ("one*") ring has no dimension of its own: it counts as dimension 0.
        const size_t d = s->dimension < 0 ? 0 : std::min<size_t>(s->dimension, dims - 1);
        edges.push_back({start.ps(), d, +1});
        edges.push_back({end.ps(), d, -1});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.ps < b.ps; });
    std::vector<int> running(dims, 0);
    int64_t cursor = from.ps();
    auto spend = [&](int64_t until) {
        const double ns = static_cast<double>(until - cursor) / 1e3;
        if (ns <= 0)
            return;
        const auto active = static_cast<double>(
            std::count_if(running.begin(), running.end(), [](int n) { return n > 0; }));
        if (active == 0) {
            idle += ns;
            return;
        }
        for (size_t d = 0; d < dims; ++d)
            if (running[d] > 0)
                perDimension[d] += ns / active;
    };
    for (const Edge& e : edges) {
        spend(e.ps);
        cursor = std::max(cursor, e.ps);
        running[e.dimension] += e.delta;
    }
    spend(to.ps());
}

void chooseBound(RunExplanation& e) {
    const double total = e.totalNs;
    const double latency = e.latencyNs(), comm = e.communicationNs();
    struct Candidate {
        BoundKind kind;
        int dimension;
        double ns;
    };
    std::vector<Candidate> candidates{{BoundKind::Compute, -1, e.computeNs},
                                      {BoundKind::Latency, -1, latency},
                                      {BoundKind::PipelineBubble, -1, e.waitingNs},
                                      {BoundKind::Memory, -1, e.memoryNs + e.localMemoryNs}};
    for (const DimensionPart& d : e.dimensions)
        candidates.push_back({BoundKind::Bandwidth, d.dimension, d.bandwidthNs});
    // The first of equals wins: the order above is the tie-break.
    const Candidate top =
        *std::max_element(candidates.begin(), candidates.end(),
                          [](const Candidate& a, const Candidate& b) { return a.ns < b.ns; });
    e.bound = top.kind;
    e.dimension = top.dimension;
    e.share = top.ns / total;
    if (e.share < 0.5 && e.computeNs > 0 && comm > 0) {
        e.bound = BoundKind::DependencyChain;
        e.dimension = -1;
        e.share = (e.computeNs + comm) / total;
    }
    const std::string where = "the critical path";
    switch (e.bound) {
    case BoundKind::Unknown:
        break;
    case BoundKind::Compute:
        e.saving = e.computeNs / 2 / total;
        e.sentence = "compute-bound: compute is " + percent(e.share) + " of " + where +
                     "; compute twice as fast would save at most " + percent(e.saving) + ".";
        break;
    case BoundKind::Bandwidth: {
        const DimensionPart& d = e.dimensions[static_cast<size_t>(e.dimension)];
        e.saving = d.bandwidthNs / 2 / total;
        e.sentence =
            "bandwidth-bound on dimension " + std::to_string(e.dimension) +
            ": moving bytes over it is " + percent(e.share) + " of " + where + " (NPU " +
            std::to_string(e.npu) + "'s busiest link on it busy " +
            percent(d.busiestLinkUtilization) + " of the run, its links " + percent(d.utilization) +
            " on average); doubling its bandwidth would save at most " + percent(e.saving) + ".";
        break;
    }
    case BoundKind::Latency: {
        const auto most = std::max_element(e.dimensions.begin(), e.dimensions.end(),
                                           [](const DimensionPart& a, const DimensionPart& b) {
                                               return a.latencyNs < b.latencyNs;
                                           });
        e.dimension = most->dimension;
        e.saving = latency / 2 / total;
        e.sentence = "latency-bound: per-message latency is " + percent(e.share) + " of " + where +
                     " (" + percent(most->latencyNs / total) + " on dimension " +
                     std::to_string(most->dimension) +
                     "), many small messages; halving every latency would save at most " +
                     percent(e.saving) + ".";
        break;
    }
    case BoundKind::PipelineBubble:
        e.saving = e.waitingNs / total;
        // Waiting that sends and receives explain is the pipeline bubble; the rest (gaps, a
        // collective with no phase running) is named as plain waiting.
        if (e.peerWaitingNs >= e.waitingNs / 2)
            e.sentence = "bound by waiting (pipeline bubble): NPU " + std::to_string(e.npu) +
                         " waits on other NPUs' sends and receives for " + percent(e.share) +
                         " of " + where + "; no waiting at all would save at most " +
                         percent(e.saving) +
                         " (more micro-batches or an interleaved schedule shrink the bubble).";
        else
            e.sentence = "bound by waiting: NPU " + std::to_string(e.npu) +
                         " waits between dependent nodes or inside collectives for " +
                         percent(e.share) + " of " + where +
                         "; no waiting at all would save at most " + percent(e.saving) + ".";
        break;
    case BoundKind::Memory: {
        e.saving = (e.memoryNs + e.localMemoryNs) / 2 / total;
        std::string parts;
        if (e.memoryNs > 0)
            parts = "remote-memory transfers " + percent(e.memoryNs / total);
        if (e.localMemoryNs > 0)
            parts += std::string(parts.empty() ? "" : " and ") +
                     "collectives' local-memory work (reductions, endpoint hops) " +
                     percent(e.localMemoryNs / total);
        const char* knob = e.memoryNs <= 0 ? "local-mem-bw"
                           : e.localMemoryNs <= 0
                               ? "the remote memory's bandwidth"
                               : "local-mem-bw and the remote memory's bandwidth";
        // Reductions overlap other chunks' transfers and the waiting for them: for local
        // memory the figure is an estimate, not a bound.
        e.sentence = "memory-bound: " + parts + " of " + where + "; doubling " + knob +
                     (e.localMemoryNs > 0 ? " would save about " : " would save at most ") +
                     percent(e.saving) + ".";
        break;
    }
    case BoundKind::DependencyChain:
        e.saving = std::min(e.computeNs, comm) / total;
        e.sentence = "bound by a dependency chain: no one resource takes half of " + where +
                     "; its " + std::to_string(e.nodes) + " nodes on NPU " + std::to_string(e.npu) +
                     " run one after another, compute " + percent(e.computeNs / total) +
                     " and communication " + percent(comm / total) +
                     "; overlapping the two fully would save at most " + percent(e.saving) + ".";
        break;
    }
}

std::string breakdownOf(const RunExplanation& e, units::TimeSpelling spelling) {
    const double total = e.totalNs;
    std::string out = "critical path on NPU " + std::to_string(e.npu) + ", " +
                      units::countOf(e.nodes, "node") + " over " +
                      units::formatTime(SimTime::fromNsRounded(total), spelling) + ": compute " +
                      percent(e.computeNs / total);
    for (const DimensionPart& d : e.dimensions) {
        if (d.latencyNs + d.bandwidthNs <= 0)
            continue;
        out += ", dimension " + std::to_string(d.dimension) + " latency ";
        out += percent(d.latencyNs / total);
        out += " + bandwidth ";
        out += percent(d.bandwidthNs / total);
    }
    if (e.localMemoryNs / total >= 0.0005) {
        out += ", local memory ";
        out += percent(e.localMemoryNs / total);
    }
    if (e.memoryNs > 0) {
        out += ", remote memory ";
        out += percent(e.memoryNs / total);
    }
    out += ", waiting ";
    out += percent(e.waitingNs / total);
    return out;
}

} // namespace

RunExplanation explainRun(const RunResult& r, const PlatformSpec& platform,
                          const SystemConfig* system, units::TimeSpelling spelling) {
    RunExplanation e;
    e.totalNs = r.endTime.ns();
    if (r.criticalPath.empty() || r.activities.empty() || !(e.totalNs > 0)) {
        e.sentence = "no explanation: the run recorded no timeline or critical path.";
        return e;
    }
    if (platform.dimensions.size() != r.dimensions.size() || platform.dimensions.empty()) {
        e.sentence = "no explanation: the platform given does not match the run's dimensions.";
        return e;
    }
    e.npu = r.criticalPath.front().first;
    e.nodes = r.criticalPath.size();
    const size_t dims = platform.dimensions.size();
    for (size_t d = 0; d < dims; ++d)
        e.dimensions.push_back({static_cast<int>(d), 0, 0, r.dimensions[d].utilization, 0});
    for (size_t l = 0; l < r.links.size() && l < r.linkStats.size(); ++l) {
        const auto d = static_cast<size_t>(r.links[l].dimension);
        if (r.links[l].src == e.npu && d < dims)
            e.dimensions[d].busiestLinkUtilization = std::max(
                e.dimensions[d].busiestLinkUtilization, r.linkStats[l].busy.ns() / e.totalNs);
    }

    std::unordered_set<uint64_t> onPath;
    for (const auto& [npu, node] : r.criticalPath)
        onPath.insert(node);
    std::unordered_map<uint64_t, const ActivityInterval*> activity;
    const auto first =
        std::lower_bound(r.activities.begin(), r.activities.end(), e.npu,
                         [](const ActivityInterval& a, int npu) { return a.npu < npu; });
    for (auto it = first; it != r.activities.end() && it->npu == e.npu; ++it)
        if (onPath.count(it->nodeId))
            activity[it->nodeId] = &*it;
    std::unordered_map<uint64_t, std::vector<const PhaseSpan*>> phases;
    for (const PhaseSpan& s : r.phases)
        if (s.npu == e.npu)
            phases[s.nodeId].push_back(&s);
    // The NPU's collective time per dimension over the whole run, on the path or not.
    std::vector<double> phaseNs(dims, 0);
    double unused = 0;
    for (auto it = first; it != r.activities.end() && it->npu == e.npu; ++it)
        if (it->nodeType == NodeType::CommColl)
            shareCollective(it->start, it->end, phases[it->nodeId], phaseNs, unused);
    const std::vector<Split> split = splits(r, platform, system, e.npu, phaseNs);
    std::vector<double> perDimension(dims, 0);
    SimTime cursor;
    for (const auto& [npu, node] : r.criticalPath) {
        const auto found = activity.find(node);
        if (found == activity.end())
            continue; // took no time
        const ActivityInterval& a = *found->second;
        if (cursor < a.start)
            e.waitingNs += (a.start - cursor).ns();
        const SimTime from = std::max(cursor, a.start);
        if (!(from < a.end))
            continue;
        const double ns = (a.end - from).ns();
        cursor = a.end;
        switch (a.nodeType) {
        case NodeType::CommColl:
            shareCollective(from, a.end, phases[node], perDimension, e.waitingNs);
            break;
        case NodeType::CommSend:
        case NodeType::CommRecv: {
            // The cheapest single message of these bytes; the rest waited for the peer.
            size_t best = 0;
            double bestNs = -1, bestLatencyNs = 0;
            for (size_t d = 0; d < dims; ++d) {
                const DimensionSpec& dim = platform.dimensions[d];
                const double latencyNs = hopsOf(dim.kind) * dim.latencyNs;
                const double t = latencyNs + static_cast<double>(a.bytes) / dim.bytesPerNs();
                if (bestNs < 0 || t < bestNs) {
                    best = d;
                    bestNs = t;
                    bestLatencyNs = latencyNs;
                }
            }
            const double transfer = std::min(ns, bestNs);
            const double latency = bestNs > 0 ? transfer * bestLatencyNs / bestNs : 0;
            e.dimensions[best].latencyNs += latency;
            e.dimensions[best].bandwidthNs += transfer - latency;
            e.waitingNs += ns - transfer;
            e.peerWaitingNs += ns - transfer;
            break;
        }
        case NodeType::MemLoad:
        case NodeType::MemStore:
            e.memoryNs += ns;
            break;
        case NodeType::Comp:
            e.computeNs += ns;
            break;
        case NodeType::Invalid:
        case NodeType::Metadata:
            e.waitingNs += ns;
            break;
        }
    }
    if (cursor < r.endTime)
        e.waitingNs += (r.endTime - cursor).ns();
    for (size_t d = 0; d < dims; ++d) {
        e.dimensions[d].latencyNs += perDimension[d] * split[d].latency;
        e.dimensions[d].bandwidthNs += perDimension[d] * split[d].bandwidth;
        e.localMemoryNs += perDimension[d] * split[d].localMemory;
        e.waitingNs +=
            perDimension[d] * (1 - split[d].latency - split[d].bandwidth - split[d].localMemory);
    }
    chooseBound(e);
    e.breakdown = breakdownOf(e, spelling);
    return e;
}

} // namespace astrolabe
