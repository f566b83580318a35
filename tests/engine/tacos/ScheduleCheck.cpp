#include "engine/tacos/ScheduleCheck.h"

#include "tacos/Evaluate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

namespace astrolabe {

namespace {

/// How many times each NPU's contribution is in a copy of a chunk.
using Counts = std::vector<uint16_t>;

bool once(const Counts& c) {
    return std::all_of(c.begin(), c.end(), [](uint16_t n) { return n == 1; });
}

bool none(const Counts& c) {
    return std::all_of(c.begin(), c.end(), [](uint16_t n) { return n == 0; });
}

std::string chunkAt(int chunk, int npu) {
    return "chunk " + std::to_string(chunk) + " on NPU " + std::to_string(npu);
}

} // namespace

std::string scheduleProblem(const Schedule& s) {
    const int n = s.npus, chunks = s.chunkCount();
    auto at = [&](int npu, int chunk) {
        return static_cast<size_t>(npu) * static_cast<size_t>(chunks) + static_cast<size_t>(chunk);
    };
    std::vector<Counts> held(static_cast<size_t>(n) * static_cast<size_t>(chunks),
                             Counts(static_cast<size_t>(n), 0));
    for (int p = 0; p < n; ++p)
        for (int k = 0; k < chunks; ++k)
            if (s.kind != SynthesisKind::AllGather || s.ownerOf(k) == p)
                held[at(p, k)][static_cast<size_t>(p)] = 1;
    std::map<int, std::vector<std::pair<double, double>>> busy;
    for (const ChunkSend& c : s.sends)
        busy[c.link].push_back({c.startNs, c.endNs});
    for (auto& [link, spans] : busy) {
        std::sort(spans.begin(), spans.end());
        for (size_t i = 1; i < spans.size(); ++i)
            if (spans[i].first < spans[i - 1].second)
                return "link " + std::to_string(link) + " carries two chunks at once";
    }
    // Arrivals before departures at equal times; a send carries what its source holds when it
    // starts.
    struct Event {
        double t;
        bool send;
        size_t i;
    };
    std::vector<Event> events;
    for (size_t i = 0; i < s.sends.size(); ++i) {
        events.push_back({s.sends[i].startNs, true, i});
        events.push_back({s.sends[i].endNs, false, i});
    }
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return a.t < b.t || (a.t == b.t && !a.send && b.send);
    });
    std::vector<Counts> carried(s.sends.size());
    for (const Event& e : events) {
        const ChunkSend& c = s.sends[e.i];
        const SynthLink& l = s.links[static_cast<size_t>(c.link)];
        const double expected = l.latencyNs + static_cast<double>(s.chunkBytes) / l.bytesPerNs;
        if (std::abs(c.endNs - c.startNs - expected) > 1e-3)
            return "a send on link " + std::to_string(c.link) + " does not take its time";
        Counts& src = held[at(l.src, c.chunk)];
        Counts& dst = held[at(l.dst, c.chunk)];
        // An all-gather step (of an all-gather, or an all-reduce's second phase) copies the chunk;
        // a reduce-scatter step adds what it carries to what the destination holds.
        const bool copies = s.kind == SynthesisKind::AllGather || c.phase == 1;
        if (e.send) {
            if (none(src))
                return chunkAt(c.chunk, l.src) + " is sent before it arrived";
            if (c.phase == 1 && !once(src))
                return "an all-gather step sends " + chunkAt(c.chunk, l.src) +
                       " not reduced exactly once from every NPU";
            carried[e.i] = src;
        } else if (copies) {
            if (s.kind == SynthesisKind::AllGather ? !none(dst) : once(dst))
                return chunkAt(c.chunk, l.dst) + " arrives twice";
            dst = carried[e.i];
        } else {
            for (int p = 0; p < n; ++p)
                dst[static_cast<size_t>(p)] += carried[e.i][static_cast<size_t>(p)];
        }
    }
    for (int p = 0; p < n; ++p)
        for (int k = 0; k < chunks; ++k) {
            const Counts& h = held[at(p, k)];
            if (s.kind == SynthesisKind::AllGather) {
                Counts owner(static_cast<size_t>(n), 0);
                owner[static_cast<size_t>(s.ownerOf(k))] = 1;
                if (h != owner)
                    return chunkAt(k, p) + " is not its owner's contribution, once";
            } else if ((s.kind == SynthesisKind::AllReduce || s.ownerOf(k) == p) && !once(h)) {
                return chunkAt(k, p) + " does not hold every NPU's contribution exactly once";
            }
        }
    if (s.finishNs * (1 + 1e-9) < bandwidthLowerBoundNs(s))
        return "the schedule finishes below the bandwidth bound";
    return {};
}

} // namespace astrolabe
