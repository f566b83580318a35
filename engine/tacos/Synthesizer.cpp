#include "tacos/Synthesizer.h"

#include "core/Collectives.h"
#include "core/Error.h"
#include "core/Units.h"
#include "topology/Topology.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <queue>
#include <random>

namespace astrolabe {

const char* synthesisKindName(SynthesisKind kind) {
    switch (kind) {
    case SynthesisKind::AllGather:
        return collectiveKindName(CollectiveKind::AllGather);
    case SynthesisKind::ReduceScatter:
        return collectiveKindName(CollectiveKind::ReduceScatter);
    case SynthesisKind::AllReduce:
        break;
    }
    return collectiveKindName(CollectiveKind::AllReduce);
}

std::vector<std::string> synthesisKindNames() {
    std::vector<std::string> names;
    for (SynthesisKind k :
         {SynthesisKind::AllGather, SynthesisKind::ReduceScatter, SynthesisKind::AllReduce})
        names.emplace_back(synthesisKindName(k));
    return names;
}

SynthesisKind parseSynthesisKind(const std::string& name) {
    const std::vector<std::string> names = synthesisKindNames();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end())
        return static_cast<SynthesisKind>(it - names.begin());
    throw Error(ErrorKind::Validation,
                "unknown collective \"" + name + "\": expected " + joinAlternatives(names),
                {{}, 0, 0, "collective"});
}

namespace {

/// About 2 GB of schedule (4,096 NPUs at 1 chunk per NPU for an all-gather is 16.8 million).
constexpr uint64_t kMaxScheduledSends = 50'000'000;
/// Links through switches (one per ordered pair of NPUs at most, each with its route, about
/// 60 bytes): 2,048 NPUs, about 250 MB.
constexpr uint64_t kMaxSwitchedLinks = 2048ull * 2047ull;

/// A link's occupancy per chunk in integer picoseconds, so that event times compare exactly.
/// A schedule takes at most `sends` occupancies one after another: when that could pass what
/// a picosecond count holds (about 106 days), the size is refused before any time is added.
std::vector<int64_t> linkCostsPs(const std::vector<SynthLink>& links, uint64_t chunkBytes,
                                 uint64_t sends) {
    std::vector<int64_t> cost(links.size());
    const double limitPs = static_cast<double>(std::numeric_limits<int64_t>::max()) /
                           static_cast<double>(std::max<uint64_t>(sends, 1));
    for (size_t i = 0; i < links.size(); ++i) {
        const double ps =
            (links[i].latencyNs + static_cast<double>(chunkBytes) / links[i].bytesPerNs) * 1000.0;
        if (!(ps < limitPs))
            throw Error(ErrorKind::Validation,
                        "a chunk of " + units::formatSize(chunkBytes) + " takes " +
                            units::formatPlain(ps / 1e12, 3) + " s on link " +
                            std::to_string(links[i].src) + " -> " + std::to_string(links[i].dst) +
                            ": " + std::to_string(sends) +
                            " such sends could pass the longest simulated time (about 106 days)",
                        {{}, 0, 0, "size"}, "synthesize a smaller collective");
        cost[i] = std::max<int64_t>(1, std::llround(ps));
    }
    return cost;
}

/// The links a synthesis matches chunks to, with the physical links each one occupies.
struct SynthNetwork {
    std::vector<SynthLink> links;
    /// Link l occupies physical links hops[start[l] .. start[l + 1]) (Topology's link ids: the
    /// GraphSpec's links in order, a bidirectional one as two, forward first).
    std::vector<uint32_t> start{0};
    std::vector<int32_t> hops;
    size_t physicalLinks = 0;
    std::vector<double> egress, ingress; ///< per NPU, bytes per ns of its physical links

    void add(const SynthLink& link, const std::vector<int32_t>& route) {
        links.push_back(link);
        hops.insert(hops.end(), route.begin(), route.end());
        start.push_back(static_cast<uint32_t>(hops.size()));
    }
};

/// Direct links in GraphSpec order (forward first), then one link through switches per ordered
/// pair of NPUs that has a switch-only path, by destination then source.
SynthNetwork synthNetwork(const GraphSpec& graph) {
    SynthNetwork net;
    net.egress.assign(static_cast<size_t>(graph.npus), 0);
    net.ingress = net.egress;
    std::vector<SynthLink> physical;
    for (const GraphLinkSpec& l : graph.links) {
        const double beta = l.bandwidthBytesPerSecond / 1e9;
        physical.push_back({l.from, l.to, l.latencyNs, beta, 0});
        if (l.bidirectional)
            physical.push_back({l.to, l.from, l.latencyNs, beta, 0});
    }
    net.physicalLinks = physical.size();
    for (size_t p = 0; p < physical.size(); ++p) {
        const SynthLink& l = physical[p];
        if (l.src < graph.npus)
            net.egress[static_cast<size_t>(l.src)] += l.bytesPerNs;
        if (l.dst < graph.npus)
            net.ingress[static_cast<size_t>(l.dst)] += l.bytesPerNs;
        if (l.src < graph.npus && l.dst < graph.npus)
            net.add(l, {static_cast<int32_t>(p)});
    }
    if (graph.switches == 0)
        return net;
    const Topology topology(graphPlatform(graph));
    for (int dst = 0; dst < graph.npus; ++dst) {
        const std::vector<std::vector<int32_t>> routes = topology.routesThroughSwitchesTo(dst);
        for (int src = 0; src < graph.npus; ++src) {
            const std::vector<int32_t>& route = routes[static_cast<size_t>(src)];
            if (route.empty())
                continue;
            // Latencies summed in whole picoseconds, as the engine's congestion-unaware model.
            int64_t latencyPs = 0;
            double beta = std::numeric_limits<double>::infinity();
            for (int32_t p : route) {
                latencyPs += std::llround(topology.linkLatencyNs(p) * 1e3);
                beta = std::min(beta, topology.linkBytesPerNs(p));
            }
            net.add({src, dst, static_cast<double>(latencyPs) / 1e3, beta,
                     static_cast<int32_t>(route.size() - 1)},
                    route);
        }
    }
    return net;
}

/// For each NPU, the physical links on the route of every link in `in[npu]` (none when it has
/// no incoming link, or links that share no physical link).
std::vector<std::vector<int32_t>> commonHops(const std::vector<std::vector<int32_t>>& in,
                                             const SynthNetwork& net) {
    std::vector<std::vector<int32_t>> common(in.size());
    std::vector<int32_t> seen(net.physicalLinks, 0);
    for (size_t d = 0; d < in.size(); ++d) {
        if (in[d].empty())
            continue;
        // A route never passes a physical link twice, so a link on all routes is counted once
        // per incoming link.
        for (int32_t l : in[d])
            for (uint32_t h = net.start[size_t(l)]; h < net.start[size_t(l) + 1]; ++h)
                ++seen[static_cast<size_t>(net.hops[h])];
        for (int32_t l : in[d])
            for (uint32_t h = net.start[size_t(l)]; h < net.start[size_t(l) + 1]; ++h) {
                int32_t& count = seen[static_cast<size_t>(net.hops[h])];
                if (count == static_cast<int32_t>(in[d].size()))
                    common[d].push_back(net.hops[h]);
                count = 0;
            }
    }
    return common;
}

struct Arrival {
    int64_t timePs;
    int32_t npu;
    int32_t chunk;
    bool operator>(const Arrival& o) const { return timePs > o.timePs; }
};

/// The all-gather over `links` (TEN with greedy link-chunk matching, see the header). Appends
/// its sends (phase 0) to `out` in start order and returns the finish time in ps.
/// `progress` (may be empty) hears out.size() against `totalSends` every 64 time steps.
int64_t synthesizeAllGather(int npus, int chunksPerNpu, const std::vector<SynthLink>& links,
                            const SynthNetwork& net, const std::vector<int64_t>& costPs,
                            uint64_t seed, std::vector<ChunkSend>& out,
                            const std::function<void(uint64_t, uint64_t)>& progress,
                            uint64_t totalSends) {
    const int chunks = npus * chunksPerNpu;
    const size_t words = (static_cast<size_t>(chunks) + 63) / 64;
    // claimed: held or on its way (a destination never receives a chunk twice); has: arrived.
    std::vector<uint64_t> has(static_cast<size_t>(npus) * words, 0);
    std::vector<uint64_t> claimed(has.size(), 0);
    std::vector<int> claimedCount(static_cast<size_t>(npus), chunksPerNpu);
    for (int c = 0; c < chunks; ++c) {
        const size_t at = static_cast<size_t>(c / chunksPerNpu) * words + size_t(c) / 64;
        has[at] |= uint64_t{1} << (c % 64);
        claimed[at] |= uint64_t{1} << (c % 64);
    }
    std::vector<std::vector<int32_t>> inLinks(static_cast<size_t>(npus));
    for (size_t l = 0; l < links.size(); ++l)
        inLinks[static_cast<size_t>(links[l].dst)].push_back(static_cast<int32_t>(l));
    // When each physical link is free; a link is free when every link on its route is.
    std::vector<int64_t> physicalFree(net.physicalLinks, 0);
    // Per destination, the physical links that every one of its incoming links occupies (on a
    // fat-tree or a star, its one downlink, or in a reduce-scatter its one uplink): while one
    // of them is busy nothing can reach it, so it is passed over without looking at its links.
    const std::vector<std::vector<int32_t>> gates = commonHops(inLinks, net);
    const auto gateBusy = [&](int32_t d, int64_t now) {
        for (int32_t p : gates[static_cast<size_t>(d)])
            if (physicalFree[static_cast<size_t>(p)] > now)
                return true;
        return false;
    };
    const auto isFree = [&](int32_t l, int64_t now) {
        for (uint32_t h = net.start[size_t(l)]; h < net.start[size_t(l) + 1]; ++h)
            if (physicalFree[static_cast<size_t>(net.hops[h])] > now)
                return false;
        return true;
    };
    std::vector<int32_t> order(static_cast<size_t>(npus));
    for (int i = 0; i < npus; ++i)
        order[static_cast<size_t>(i)] = i;
    const size_t total = static_cast<size_t>(npus) * static_cast<size_t>(chunks - chunksPerNpu);
    std::vector<Arrival> heapStore;
    heapStore.reserve(links.size());
    std::priority_queue<Arrival, std::vector<Arrival>, std::greater<>> arrivals(
        std::greater<>{}, std::move(heapStore));
    out.reserve(out.size() + total);
    std::mt19937_64 rng(seed);
    size_t remaining = total;
    int64_t t = 0;
    int32_t step = 0;
    int64_t finish = 0;
    for (uint64_t rounds = 1; remaining > 0; ++rounds) {
        if (progress && rounds % 64 == 0)
            progress(out.size(), totalSends);
        while (!arrivals.empty() && arrivals.top().timePs <= t) {
            const Arrival a = arrivals.top();
            arrivals.pop();
            has[static_cast<size_t>(a.npu) * words + size_t(a.chunk) / 64] |= uint64_t{1}
                                                                              << (a.chunk % 64);
            --remaining;
            finish = std::max(finish, a.timePs);
        }
        if (remaining == 0)
            break;
        bool sent = false;
        std::shuffle(order.begin(), order.end(), rng);
        for (int32_t d : order) {
            if (claimedCount[static_cast<size_t>(d)] == chunks || gateBusy(d, t))
                continue;
            std::vector<int32_t>& in = inLinks[static_cast<size_t>(d)];
            std::shuffle(in.begin(), in.end(), rng);
            uint64_t* want = &claimed[static_cast<size_t>(d) * words];
            for (int32_t l : in) {
                if (!isFree(l, t))
                    continue;
                const uint64_t* src = &has[static_cast<size_t>(links[size_t(l)].src) * words];
                int candidates = 0;
                for (size_t w = 0; w < words; ++w)
                    candidates += std::popcount(src[w] & ~want[w]);
                if (candidates == 0)
                    continue;
                auto pick = static_cast<int>(rng() % static_cast<uint64_t>(candidates));
                int chunk = -1;
                for (size_t w = 0; w < words && chunk < 0; ++w) {
                    uint64_t bits = src[w] & ~want[w];
                    const int n = std::popcount(bits);
                    if (pick >= n) {
                        pick -= n;
                        continue;
                    }
                    for (; pick > 0; --pick)
                        bits &= bits - 1;
                    chunk = static_cast<int>(w * 64) + std::countr_zero(bits);
                }
                want[size_t(chunk) / 64] |= uint64_t{1} << (chunk % 64);
                const int64_t end = t + costPs[static_cast<size_t>(l)];
                for (uint32_t h = net.start[size_t(l)]; h < net.start[size_t(l) + 1]; ++h)
                    physicalFree[static_cast<size_t>(net.hops[h])] = end;
                arrivals.push({end, d, chunk});
                out.push_back({chunk, l, step, 0, static_cast<double>(t) / 1000.0,
                               static_cast<double>(end) / 1000.0});
                sent = true;
                if (++claimedCount[static_cast<size_t>(d)] == chunks || gateBusy(d, t))
                    break; // the rest of its links are busy now: nothing more would move
            }
        }
        if (sent)
            ++step;
        if (arrivals.empty())
            throw Error(ErrorKind::Internal,
                        "TACOS: no chunk can move although " + std::to_string(remaining) +
                            " deliveries are missing (the graph should have been refused)");
        t = arrivals.top().timePs;
    }
    return finish;
}

/// Renumbers steps by distinct start time after sends were sorted by start.
int renumberSteps(std::vector<ChunkSend>& sends, size_t from) {
    int step = -1;
    double last = -1;
    for (size_t i = from; i < sends.size(); ++i) {
        if (step < 0 || sends[i].startNs != last) {
            ++step;
            last = sends[i].startNs;
        }
        sends[i].step = step;
    }
    return step + 1;
}

/// The number of chunk sends the schedule will have. Refuses, before any memory is taken, more
/// than kMaxScheduledSends of them, or a graph with switches whose links through them would
/// exceed kMaxSwitchedLinks.
uint64_t checkSize(const GraphSpec& graph, SynthesisKind kind, int chunksPerNpu) {
    // Every NPU receives every chunk it lacks once per phase: the schedule's size is known.
    const uint64_t pairs = uint64_t(graph.npus) * uint64_t(graph.npus - 1);
    const uint64_t sends =
        pairs * uint64_t(chunksPerNpu) * (kind == SynthesisKind::AllReduce ? 2 : 1);
    if (sends > kMaxScheduledSends)
        throw Error(ErrorKind::Validation,
                    "a " + std::string(synthesisKindName(kind)) + " on " +
                        std::to_string(graph.npus) + " NPUs with " + std::to_string(chunksPerNpu) +
                        " chunks per NPU needs " + std::to_string(sends) +
                        " chunk sends; the limit is " + std::to_string(kMaxScheduledSends),
                    {{}, 0, 0, "chunks"}, "about 40 bytes per send; use fewer chunks per NPU");
    if (graph.switches > 0 && pairs > kMaxSwitchedLinks) {
        throw Error(ErrorKind::Validation,
                    std::string("TACOS on a graph with switches gives up to one link per ordered "
                                "pair of NPUs: ") +
                        std::to_string(pairs) + " for " + std::to_string(graph.npus) +
                        " NPUs; the limit is " + std::to_string(kMaxSwitchedLinks) +
                        " (2,048 NPUs)",
                    {{}, 0, 0, "graph.npus"}, "synthesize on a smaller graph");
    }
    return sends;
}

Schedule synthesizeWith(const GraphSpec& graph, const SynthNetwork& net,
                        const SynthesisOptions& options, int chunksPerNpu) {
    Schedule s;
    s.kind = options.kind;
    s.npus = graph.npus;
    s.chunksPerNpu = chunksPerNpu;
    s.bytes = options.bytes;
    const uint64_t pieces = static_cast<uint64_t>(chunksPerNpu) *
                            (options.kind == SynthesisKind::AllGather ? 1 : uint64_t(graph.npus));
    s.chunkBytes = options.bytes / pieces;
    if (s.chunkBytes == 0)
        throw Error(ErrorKind::Validation,
                    "a " + std::to_string(options.bytes) + " B " + synthesisKindName(options.kind) +
                        " cut into " + std::to_string(pieces) + " chunks leaves chunks of 0 B",
                    {{}, 0, 0, "chunks"}, "use fewer chunks per NPU or a larger size");
    const uint64_t sends = checkSize(graph, options.kind, chunksPerNpu);
    s.links = net.links;
    s.egressBytesPerNs = net.egress;
    s.ingressBytesPerNs = net.ingress;
    const std::vector<int64_t> cost = linkCostsPs(s.links, s.chunkBytes, sends);
    int64_t rsFinish = 0;
    if (options.kind != SynthesisKind::AllGather) {
        // Reduce-scatter: the all-gather of the transposed graph, backwards in time (a
        // transposed link occupies its original's route: the occupancy is mirrored in time).
        std::vector<SynthLink> transposed = s.links;
        for (SynthLink& l : transposed)
            std::swap(l.src, l.dst);
        rsFinish = synthesizeAllGather(s.npus, chunksPerNpu, transposed, net, cost, options.seed,
                                       s.sends, options.progress, sends);
        const double end = static_cast<double>(rsFinish) / 1000.0;
        for (ChunkSend& c : s.sends) {
            const double start = end - c.endNs;
            c.endNs = end - c.startNs;
            c.startNs = start;
        }
        std::stable_sort(
            s.sends.begin(), s.sends.end(),
            [](const ChunkSend& a, const ChunkSend& b) { return a.startNs < b.startNs; });
        s.steps = renumberSteps(s.sends, 0);
    }
    if (options.kind != SynthesisKind::ReduceScatter) {
        const size_t first = s.sends.size();
        const int64_t agFinish =
            synthesizeAllGather(s.npus, chunksPerNpu, s.links, net, cost, options.seed + 1, s.sends,
                                options.progress, sends);
        const double offset = static_cast<double>(rsFinish) / 1000.0;
        for (size_t i = first; i < s.sends.size(); ++i) {
            ChunkSend& c = s.sends[i];
            c.phase = options.kind == SynthesisKind::AllReduce ? 1 : 0;
            c.step += s.steps;
            c.startNs += offset;
            c.endNs += offset;
        }
        s.steps = s.sends.empty() ? s.steps : s.sends.back().step + 1;
        rsFinish += agFinish;
    }
    s.finishNs = static_cast<double>(rsFinish) / 1000.0;
    return s;
}

} // namespace

Schedule synthesize(const GraphSpec& graph, const SynthesisOptions& options) {
    const std::vector<GraphProblem> problems = graphProblems(graph);
    if (!problems.empty()) {
        const GraphProblem& p = problems.front();
        std::string where = "graph";
        std::string what = "TACOS cannot synthesize on this graph: ";
        if (p.link >= 0 && static_cast<size_t>(p.link) < graph.links.size()) {
            const GraphLinkSpec& l = graph.links[static_cast<size_t>(p.link)];
            where = "links[" + std::to_string(p.link) + "]";
            what += "link " + std::to_string(p.link) + " (" + graph.deviceName(l.from) + " -> " +
                    graph.deviceName(l.to) + "): ";
        }
        throw Error(ErrorKind::Validation, what + p.what, {{}, 0, 0, where});
    }
    if (!options.automaticChunks && options.chunksPerNpu < 1)
        throw Error(ErrorKind::Validation,
                    "chunks per NPU must be at least 1, found " +
                        std::to_string(options.chunksPerNpu),
                    {{}, 0, 0, "chunks"}, "or let the chunk size be chosen automatically");
    checkSize(graph, options.kind, options.automaticChunks ? 1 : options.chunksPerNpu);
    const SynthNetwork net = synthNetwork(graph);
    if (!options.automaticChunks)
        return synthesizeWith(graph, net, options, options.chunksPerNpu);
    // Automatic: the fastest of 1, 2 and 4 chunks per NPU (ties to fewer, smaller schedules).
    Schedule best = synthesizeWith(graph, net, options, 1);
    for (int c : {2, 4}) {
        const uint64_t pieces =
            uint64_t(c) * (options.kind == SynthesisKind::AllGather ? 1 : uint64_t(graph.npus));
        if (options.bytes / pieces == 0)
            break;
        Schedule s = synthesizeWith(graph, net, options, c);
        if (s.finishNs < best.finishNs)
            best = std::move(s);
    }
    return best;
}

} // namespace astrolabe
