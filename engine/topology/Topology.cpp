#include "topology/Topology.h"

#include "core/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace astrolabe {

Topology::Topology(const PlatformSpec& spec)
    : m_dims(spec.dimensions) {
    if (spec.graph) {
        buildGraph(spec);
        return;
    }
    if (m_dims.empty())
        throw Error(ErrorKind::Validation, "the platform has no dimensions",
                    {spec.sourceFile, 0, 0, "platform.dimensions"},
                    "add at least one Ring, FullyConnected or Switch dimension");
    int64_t n = 1;
    for (size_t d = 0; d < m_dims.size(); ++d) {
        const DimensionSpec& dim = m_dims[d];
        const std::string key = "platform.dimensions[" + std::to_string(d) + "]";
        // One NPU alone is a platform (a trace replayed on a single rank); as one dimension of
        // several it would only repeat the others.
        const bool single = dim.size == 1 && m_dims.size() == 1;
        if (dim.size < 2 && !single)
            throw Error(ErrorKind::Validation,
                        "a dimension needs at least 2 NPUs, found " + std::to_string(dim.size),
                        {spec.sourceFile, 0, 0, key + ".size"});
        if (!(dim.bandwidthBytesPerSecond > 0))
            throw Error(ErrorKind::Validation, "bandwidth must be greater than zero",
                        {spec.sourceFile, 0, 0, key + ".bandwidth"});
        if (!(dim.latencyNs >= 0))
            throw Error(ErrorKind::Validation, "latency must not be negative",
                        {spec.sourceFile, 0, 0, key + ".latency"});
        m_strides.push_back(static_cast<int>(n));
        n *= dim.size;
        if (n > (1 << 24))
            throw Error(ErrorKind::Unsupported, "the platform has more than 16,777,216 NPUs",
                        {spec.sourceFile, 0, 0, "platform.dimensions"});
    }
    m_npus = static_cast<int>(n);
    m_devices = m_npus;

    for (size_t d = 0; d < m_dims.size(); ++d) {
        const DimensionSpec& dim = m_dims[d];
        const int size = dim.size;
        const int lines = m_npus / size;
        m_linkBase.push_back(static_cast<int>(m_links.size()));
        m_classBase.push_back(m_classCount);
        m_classCount += dim.kind == BlockKind::FullyConnected ? size - 1 : 2;
        m_switchBase.push_back(dim.kind == BlockKind::Switch ? m_devices : -1);
        if (dim.kind == BlockKind::Switch)
            m_devices += lines;
        // Enumerate lines by their first NPU, in increasing line index (see lineOf()). A single
        // NPU has no links.
        for (int line = 0; line < lines && size > 1; ++line) {
            const int low = line % m_strides[d];
            const int high = line / m_strides[d];
            const int first = low + high * m_strides[d] * size;
            auto npu = [&](int position) { return first + position * m_strides[d]; };
            const auto dimIndex = static_cast<int16_t>(d);
            const double bw = dim.bandwidthBytesPerSecond;
            switch (dim.kind) {
            case BlockKind::Ring:
                for (int i = 0; i < size; ++i) {
                    m_links.push_back({npu(i), npu((i + 1) % size), dimIndex, bw});
                    m_links.push_back({npu(i), npu((i + size - 1) % size), dimIndex, bw});
                }
                break;
            case BlockKind::FullyConnected:
                for (int i = 0; i < size; ++i)
                    for (int j = 0; j < size; ++j)
                        if (i != j)
                            m_links.push_back({npu(i), npu(j), dimIndex, bw});
                break;
            case BlockKind::Switch: {
                const int sw = m_switchBase[d] + line;
                for (int i = 0; i < size; ++i) {
                    m_links.push_back({npu(i), sw, dimIndex, bw});
                    m_links.push_back({sw, npu(i), dimIndex, bw});
                }
                break;
            }
            }
        }
    }
    m_linkLatencyNs.reserve(m_links.size());
    for (const LinkInfo& l : m_links)
        m_linkLatencyNs.push_back(m_dims[static_cast<size_t>(l.dimension)].latencyNs);
}

int Topology::linkClass(int link) const {
    if (m_graph)
        return link; // a graph has no translations: every link is its own class
    int d = dimensionCount() - 1;
    while (d > 0 && link < m_linkBase[static_cast<size_t>(d)])
        --d;
    const int offset = link - m_linkBase[static_cast<size_t>(d)];
    const int n = m_dims[static_cast<size_t>(d)].size;
    if (m_dims[static_cast<size_t>(d)].kind != BlockKind::FullyConnected)
        return m_classBase[static_cast<size_t>(d)] + offset % 2;
    const int within = offset % (n * (n - 1));
    const int i = within / (n - 1);
    const int k = within % (n - 1);
    const int j = k < i ? k : k + 1;
    return m_classBase[static_cast<size_t>(d)] + ((j - i + n) % n) - 1;
}

int Topology::translate(int a, int b) const {
    if (m_graph)
        return (a + b) % m_npus; // unused: graph runs are never symmetric (Symmetry.cpp)
    int id = 0;
    for (int d = 0; d < dimensionCount(); ++d)
        id += ((coordinate(a, d) + coordinate(b, d)) % m_dims[static_cast<size_t>(d)].size) *
              m_strides[static_cast<size_t>(d)];
    return id;
}

int Topology::neighbour(int npu, int d, int steps) const {
    const int n = m_dims[d].size;
    const int c = coordinate(npu, d);
    const int target = ((c + steps) % n + n) % n;
    return npu + (target - c) * m_strides[d];
}

int Topology::lowestDifferingDimension(int a, int b) const {
    for (int d = 0; d < dimensionCount(); ++d)
        if (coordinate(a, d) != coordinate(b, d))
            return d;
    return -1;
}

int Topology::hops(BlockKind kind, int n, int i, int j) {
    switch (kind) {
    case BlockKind::Ring: {
        const int cw = ((j - i) % n + n) % n;
        return cw < n - cw ? cw : n - cw;
    }
    case BlockKind::FullyConnected:
        return 1;
    case BlockKind::Switch:
        return 2;
    }
    return 1;
}

int Topology::lineOf(int npu, int d) const {
    const int low = npu % m_strides[d];
    const int high = npu / (m_strides[d] * m_dims[d].size);
    return low + high * m_strides[d];
}

int Topology::ringLink(int d, int line, int position, bool clockwise) const {
    return m_linkBase[d] + line * 2 * m_dims[d].size + 2 * position + (clockwise ? 0 : 1);
}

void Topology::appendRouteWithin(int d, int a, int b, std::vector<int32_t>& route) const {
    if (m_graph) {
        appendGraphRoute(a, b, route);
        return;
    }
    const int n = m_dims[d].size;
    const int line = lineOf(a, d);
    const int i = coordinate(a, d), j = coordinate(b, d);
    switch (m_dims[d].kind) {
    case BlockKind::Ring: {
        const int cw = ((j - i) % n + n) % n;
        const bool clockwise = cw <= n - cw;
        const int steps = clockwise ? cw : n - cw;
        int position = i;
        for (int s = 0; s < steps; ++s) {
            route.push_back(ringLink(d, line, position, clockwise));
            position = clockwise ? (position + 1) % n : (position + n - 1) % n;
        }
        break;
    }
    case BlockKind::FullyConnected:
        route.push_back(m_linkBase[d] + line * n * (n - 1) + i * (n - 1) + (j < i ? j : j - 1));
        break;
    case BlockKind::Switch:
        route.push_back(switchUplink(a, d));
        route.push_back(switchDownlink(b, d));
        break;
    }
}

void Topology::appendRoute(int src, int dst, std::vector<int32_t>& route) const {
    if (m_graph) {
        appendGraphRoute(src, dst, route);
        return;
    }
    int at = src;
    for (int d = 0; d < dimensionCount(); ++d) {
        const int delta = coordinate(dst, d) - coordinate(at, d);
        if (delta == 0)
            continue;
        const int next = at + delta * m_strides[d];
        appendRouteWithin(d, at, next, route);
        at = next;
    }
}

void Topology::buildGraph(const PlatformSpec& spec) {
    const GraphSpec& g = *spec.graph;
    const std::vector<GraphProblem> problems = graphProblems(g);
    if (!problems.empty()) {
        const GraphProblem& p = problems.front();
        std::string key = "platform.graph";
        if (p.link >= 0)
            key += ".links[" + std::to_string(p.link) + "]";
        const int line = p.link >= 0 ? g.links[static_cast<size_t>(p.link)].line : 0;
        throw Error(ErrorKind::Validation, p.what, {spec.sourceFile, line, 0, key},
                    p.link >= 0 ? std::string()
                                : "every NPU must reach every other NPU over the links");
    }
    m_graph = true;
    m_ecmp = g.routing == GraphRouting::Ecmp;
    // Logical dimensions: the spec's (a stack converted to a graph keeps its own, so that
    // collectives plan the same phases), or one of all NPUs.
    if (m_dims.empty())
        m_dims = {graphDimension(g)};
    int64_t product = 1;
    m_strides.clear();
    for (const DimensionSpec& dim : m_dims) {
        m_strides.push_back(static_cast<int>(product));
        product *= std::max(dim.size, 1);
        if (product > g.npus)
            break;
    }
    if (product != g.npus || m_strides.size() != m_dims.size())
        throw Error(ErrorKind::Validation,
                    "the logical dimensions of a graph must multiply to its " +
                        std::to_string(g.npus) + " NPUs",
                    {spec.sourceFile, 0, 0, "platform.graph.logical-dimensions"});
    m_npus = g.npus;
    m_devices = g.deviceCount();
    m_linkBase.assign(m_dims.size(), 0);
    m_switchBase.assign(m_dims.size(), -1);
    m_classBase.assign(m_dims.size(), 0);
    auto add = [this](int from, int to, const GraphLinkSpec& l) {
        m_links.push_back({from, to, 0, l.bandwidthBytesPerSecond});
        m_linkLatencyNs.push_back(l.latencyNs);
        m_linkLatencyPs.push_back(std::llround(l.latencyNs * 1e3));
    };
    for (const GraphLinkSpec& l : g.links) {
        add(l.from, l.to, l);
        if (l.bidirectional)
            add(l.to, l.from, l);
    }
    m_classCount = static_cast<int>(m_links.size());
    m_outLinks.resize(static_cast<size_t>(m_devices));
    m_inLinks.resize(static_cast<size_t>(m_devices));
    for (size_t id = 0; id < m_links.size(); ++id) {
        m_outLinks[static_cast<size_t>(m_links[id].src)].push_back(static_cast<int32_t>(id));
        m_inLinks[static_cast<size_t>(m_links[id].dst)].push_back(static_cast<int32_t>(id));
    }
    m_distanceTo.resize(static_cast<size_t>(m_devices));
}

const std::vector<std::pair<int64_t, int32_t>>& Topology::distancesTo(int dst) const {
    auto& dist = m_distanceTo[static_cast<size_t>(dst)];
    if (dist.empty())
        computeDistancesTo(dst, false, dist);
    return dist;
}

void Topology::computeDistancesTo(int dst, bool switchesOnly,
                                  std::vector<std::pair<int64_t, int32_t>>& dist) const {
    using Cost = std::pair<int64_t, int32_t>;
    const Cost unreachable{std::numeric_limits<int64_t>::max(), 0};
    dist.assign(static_cast<size_t>(m_devices), unreachable);
    // Dijkstra over reversed links; ties in the heap broken by device id (determinism).
    using Entry = std::pair<Cost, int32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    dist[static_cast<size_t>(dst)] = {0, 0};
    heap.push({{0, 0}, dst});
    while (!heap.empty()) {
        const auto [cost, at] = heap.top();
        heap.pop();
        if (cost != dist[static_cast<size_t>(at)])
            continue;
        for (int32_t l : m_inLinks[static_cast<size_t>(at)]) {
            const int32_t from = m_links[static_cast<size_t>(l)].src;
            if (switchesOnly && from < m_npus) // an NPU is a route's end, never a step on it
                continue;
            const Cost via{cost.first + m_linkLatencyPs[static_cast<size_t>(l)], cost.second + 1};
            if (via < dist[static_cast<size_t>(from)]) {
                dist[static_cast<size_t>(from)] = via;
                heap.push({via, from});
            }
        }
    }
}

void Topology::walkGraphRoute(int src, int dst,
                              const std::vector<std::pair<int64_t, int32_t>>& dist,
                              std::pair<int64_t, int32_t> here, bool switchesOnly,
                              std::vector<int32_t>& route) const {
    int at = src;
    while (at != dst) {
        const auto onPath = [&](int32_t l) {
            const int32_t next = m_links[static_cast<size_t>(l)].dst;
            if (switchesOnly && next < m_npus && (next != dst || at == src))
                return false;
            const auto there = dist[static_cast<size_t>(next)];
            return there.first != std::numeric_limits<int64_t>::max() &&
                   std::pair<int64_t, int32_t>{
                       there.first + m_linkLatencyPs[static_cast<size_t>(l)], there.second + 1} ==
                       here;
        };
        // m_outLinks is ascending: shortest takes the first link on a shortest path (the lowest
        // id); ECMP counts the k equal-cost links and takes number ecmpHash mod k of them.
        const std::vector<int32_t>& out = m_outLinks[static_cast<size_t>(at)];
        uint64_t skip = 0;
        if (m_ecmp) {
            const auto k = static_cast<uint64_t>(std::count_if(out.begin(), out.end(), onPath));
            skip = k > 1 ? ecmpHash(src, dst, at) % k : 0;
        }
        int32_t chosen = -1;
        for (int32_t l : out)
            if (onPath(l) && skip-- == 0) {
                chosen = l;
                break;
            }
        if (chosen < 0) // graphProblems() rules this out; never loop forever
            throw Error(ErrorKind::Internal, "no route from device " + std::to_string(src) +
                                                 " to device " + std::to_string(dst));
        route.push_back(chosen);
        at = m_links[static_cast<size_t>(chosen)].dst;
        here = dist[static_cast<size_t>(at)];
    }
}

void Topology::appendGraphRoute(int src, int dst, std::vector<int32_t>& route) const {
    if (src == dst)
        return;
    const auto& dist = distancesTo(dst);
    walkGraphRoute(src, dst, dist, dist[static_cast<size_t>(src)], false, route);
}

std::vector<std::vector<int32_t>> Topology::routesThroughSwitchesTo(int dst) const {
    std::vector<std::vector<int32_t>> routes(static_cast<size_t>(m_npus));
    if (!m_graph || m_devices == m_npus)
        return routes;
    std::vector<std::pair<int64_t, int32_t>> dist;
    computeDistancesTo(dst, true, dist);
    constexpr int64_t kUnreachable = std::numeric_limits<int64_t>::max();
    for (int src = 0; src < m_npus; ++src) {
        if (src == dst)
            continue;
        // The source's own distance leaves out a direct link to dst: the route's first step
        // is onto a switch.
        std::pair<int64_t, int32_t> best{kUnreachable, 0};
        for (int32_t l : m_outLinks[static_cast<size_t>(src)]) {
            const int32_t next = m_links[static_cast<size_t>(l)].dst;
            const auto there = dist[static_cast<size_t>(next)];
            if (next >= m_npus && there.first != kUnreachable)
                best = std::min(best, {there.first + m_linkLatencyPs[static_cast<size_t>(l)],
                                       there.second + 1});
        }
        if (best.first != kUnreachable)
            walkGraphRoute(src, dst, dist, best, true, routes[static_cast<size_t>(src)]);
    }
    return routes;
}

void Topology::appendSwitchRoute(int npu, int d, bool up, std::vector<int32_t>& route) const {
    if (!m_graph) {
        route.push_back(up ? switchUplink(npu, d) : switchDownlink(npu, d));
        return;
    }
    const int sw = graphLineSwitch(npu, d);
    appendGraphRoute(up ? npu : sw, up ? sw : npu, route);
}

int Topology::graphLineSwitch(int npu, int d) const {
    const std::pair<int, int> key{d, lineOf(npu, d)};
    if (const auto it = m_lineSwitch.find(key); it != m_lineSwitch.end())
        return it->second;
    using Cost = std::pair<int64_t, int32_t>;
    constexpr int64_t kUnreachable = std::numeric_limits<int64_t>::max();
    const int first = npu - coordinate(npu, d) * m_strides[d];
    int best = -1;
    Cost bestCost{kUnreachable, 0};
    for (int sw = m_npus; sw < m_devices; ++sw) {
        const auto& toSwitch = distancesTo(sw);
        Cost worst{0, 0};
        for (int i = 0; i < m_dims[d].size && worst.first != kUnreachable; ++i) {
            const int member = first + i * m_strides[d];
            worst = std::max({worst, toSwitch[static_cast<size_t>(member)],
                              distancesTo(member)[static_cast<size_t>(sw)]});
        }
        if (worst.first != kUnreachable && worst < bestCost) {
            bestCost = worst;
            best = sw;
        }
    }
    if (best < 0)
        throw Error(ErrorKind::Unsupported,
                    "inSwitch on logical dimension " + std::to_string(d) +
                        " of a graph needs a switch that every NPU of its line (NPU " +
                        std::to_string(first) + " and the " + std::to_string(m_dims[d].size - 1) +
                        " others) reaches and is reached from, and this graph has none",
                    {}, "use ring, direct or halvingDoubling on this dimension, or add a switch");
    m_lineSwitch.emplace(key, best);
    return best;
}

PlatformSpec stackAsGraph(const PlatformSpec& stack) {
    PlatformSpec p = stack;
    p.graph = graphOfStack(stack);
    return p;
}

GraphSpec graphOfStack(const PlatformSpec& stack) {
    const Topology t(stack);
    GraphSpec g;
    g.npus = t.npuCount();
    g.switches = t.deviceCount() - t.npuCount();
    g.generator = "dimension stack";
    for (int l = 0; l < t.linkCount(); ++l) {
        const LinkInfo& info = t.link(l);
        g.links.push_back(
            {info.src, info.dst, info.bandwidthBytesPerSecond, t.linkLatencyNs(l), false, 0});
    }
    return g;
}

} // namespace astrolabe
