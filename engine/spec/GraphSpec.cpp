#include "spec/GraphSpec.h"

#include "core/Error.h"
#include "spec/LogicalDimensions.h"
#include "spec/PlatformSpec.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace astrolabe {

std::string GraphSpec::deviceName(int device) const {
    if (device >= 0 && device < npus)
        return "npu" + std::to_string(device);
    if (device >= npus && device < npus + switches)
        return "sw" + std::to_string(device - npus);
    return "device " + std::to_string(device);
}

const std::vector<std::string>& graphRoutingNames() {
    static const std::vector<std::string> names{"shortest", "ecmp"};
    return names;
}

const char* graphRoutingName(GraphRouting routing) {
    return graphRoutingNames()[static_cast<size_t>(routing)].c_str();
}

GraphRouting parseGraphRouting(const std::string& name) {
    const std::vector<std::string>& names = graphRoutingNames();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return static_cast<GraphRouting>(i);
    const std::string guess = closestMatch(name, names);
    throw Error(ErrorKind::Validation,
                "unknown graph routing \"" + name + "\"; expected " + joinAlternatives(names), {},
                guess.empty() ? std::string() : "did you mean \"" + guess + "\"?");
}

namespace {
uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
} // namespace

uint64_t ecmpHash(int src, int dst, int device) {
    const uint64_t flow = splitmix64((static_cast<uint64_t>(static_cast<uint32_t>(src)) << 32) |
                                     static_cast<uint32_t>(dst));
    return splitmix64(flow ^ static_cast<uint32_t>(device));
}

namespace {

/// Devices reachable from `start` following links forwards (or backwards).
std::vector<char> reachable(const GraphSpec& g, int start, bool forwards) {
    const int n = g.deviceCount();
    std::vector<std::vector<int>> next(static_cast<size_t>(n));
    for (const GraphLinkSpec& l : g.links) {
        if (l.from < 0 || l.from >= n || l.to < 0 || l.to >= n)
            continue;
        next[static_cast<size_t>(forwards ? l.from : l.to)].push_back(forwards ? l.to : l.from);
        if (l.bidirectional)
            next[static_cast<size_t>(forwards ? l.to : l.from)].push_back(forwards ? l.from : l.to);
    }
    std::vector<char> seen(static_cast<size_t>(n), 0);
    std::queue<int> todo;
    seen[static_cast<size_t>(start)] = 1;
    todo.push(start);
    while (!todo.empty()) {
        const int at = todo.front();
        todo.pop();
        for (int v : next[static_cast<size_t>(at)])
            if (!seen[static_cast<size_t>(v)]) {
                seen[static_cast<size_t>(v)] = 1;
                todo.push(v);
            }
    }
    return seen;
}

} // namespace

std::vector<GraphProblem> graphProblems(const GraphSpec& g) {
    std::vector<GraphProblem> out;
    if (g.npus < 2)
        out.push_back({-1, "a graph needs at least 2 NPUs, found " + std::to_string(g.npus)});
    if (g.switches < 0)
        out.push_back({-1, "the switch count must not be negative"});
    // In 64 bits: a stored or hand-edited graph may give counts whose int sum overflows.
    if (const int64_t devices = int64_t{g.npus} + g.switches; devices > kMaxGraphDevices)
        out.push_back({-1, "a graph may have at most " + std::to_string(kMaxGraphDevices) +
                               " NPUs and switches, found " + std::to_string(devices)});
    if (g.links.size() > kMaxGraphLinks)
        out.push_back({-1, "a graph may have at most " + std::to_string(kMaxGraphLinks) +
                               " links, found " + std::to_string(g.links.size())});
    if (!out.empty())
        return out;
    const int n = g.deviceCount();
    for (size_t i = 0; i < g.links.size(); ++i) {
        const GraphLinkSpec& l = g.links[i];
        const int index = static_cast<int>(i);
        for (int end : {l.from, l.to})
            if (end < 0 || end >= n)
                out.push_back({index, "unknown device " + std::to_string(end) + " (the graph has " +
                                          std::to_string(g.npus) + " NPUs and " +
                                          std::to_string(g.switches) + " switches)"});
        if (l.from == l.to)
            out.push_back({index, "a link from " + g.deviceName(l.from) + " to itself"});
        if (!(l.bandwidthBytesPerSecond > 0) || !std::isfinite(l.bandwidthBytesPerSecond))
            out.push_back({index, "bandwidth must be greater than zero"});
        if (!(l.latencyNs >= 0) || !std::isfinite(l.latencyNs))
            out.push_back({index, "latency must not be negative"});
    }
    if (!out.empty())
        return out;
    // Every NPU must reach every other: NPU 0 reaches all and all reach NPU 0.
    const std::vector<char> from0 = reachable(g, 0, true);
    const std::vector<char> to0 = reachable(g, 0, false);
    for (int npu = 1; npu < g.npus; ++npu) {
        if (!from0[static_cast<size_t>(npu)] || !to0[static_cast<size_t>(npu)]) {
            std::string what = g.deviceName(npu);
            what += !from0[static_cast<size_t>(npu)] ? " cannot be reached from npu0"
                                                     : " cannot reach npu0";
            out.push_back({-1, what});
            if (out.size() >= 8)
                break;
        }
    }
    return out;
}

DimensionSpec graphDimension(const GraphSpec& graph) {
    DimensionSpec d{BlockKind::Ring, graph.npus, 0, 0};
    bool first = true;
    for (const GraphLinkSpec& l : graph.links) {
        d.bandwidthBytesPerSecond =
            first ? l.bandwidthBytesPerSecond
                  : std::min(d.bandwidthBytesPerSecond, l.bandwidthBytesPerSecond);
        d.latencyNs = first ? l.latencyNs : std::min(d.latencyNs, l.latencyNs);
        first = false;
    }
    return d;
}

PlatformSpec graphPlatform(GraphSpec graph, std::string sourceFile) {
    PlatformSpec p;
    p.dimensions = {graphDimension(graph)};
    p.sourceFile = std::move(sourceFile);
    p.graph = std::move(graph);
    return p;
}

std::string logicalDimensionSizeProblem(int64_t size, int npus) {
    if (size < 2 || size > npus)
        return "expected a size of at least 2, found " + std::to_string(size);
    return {};
}

std::string logicalDimensionsProblem(const std::vector<int64_t>& sizes, int npus) {
    if (sizes.empty() || sizes.size() > kMaxLogicalDimensions)
        return "expected a list of 1 to " + std::to_string(kMaxLogicalDimensions) +
               " sizes, found " + std::to_string(sizes.size());
    int64_t product = 1;
    bool overflow = false;
    for (int64_t size : sizes) {
        if (std::string problem = logicalDimensionSizeProblem(size, npus); !problem.empty())
            return problem;
        overflow = overflow || __builtin_mul_overflow(product, size, &product);
    }
    if (overflow || product != npus) {
        std::string what = "expected sizes that multiply to the graph's ";
        what += std::to_string(npus);
        what += " NPUs, found a product of ";
        what += overflow ? "more than 2^63" : std::to_string(product);
        return what;
    }
    return {};
}

std::vector<DimensionSpec> logicalDimensions(const GraphSpec& graph,
                                             const std::vector<int64_t>& sizes) {
    std::vector<DimensionSpec> out;
    for (int64_t size : sizes) {
        DimensionSpec d = graphDimension(graph);
        d.size = static_cast<int>(size);
        out.push_back(d);
    }
    return out;
}

} // namespace astrolabe
