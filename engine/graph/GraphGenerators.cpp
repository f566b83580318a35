#include "graph/GraphGenerators.h"

#include "core/Error.h"
#include "core/Units.h"

#include <algorithm>

namespace astrolabe {

const std::vector<std::string>& graphGeneratorNames() {
    static const std::vector<std::string> names{"mesh2d",    "mesh3d", "torus2d", "torus3d",
                                                "hypercube", "dgx1",   "fattree", "dragonfly",
                                                "rail",      "fred"};
    return names;
}

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& hint = {}) {
    throw Error(ErrorKind::Validation, what, {}, hint);
}

class Builder {
public:
    Builder(const GraphGeneratorSpec& spec, int64_t npus, int64_t switches)
        : m_spec(spec) {
        if (npus < 2)
            fail(spec.name + " needs at least 2 NPUs, found " + std::to_string(npus));
        if (npus + switches > kMaxGraphDevices)
            fail(spec.name + " would have " + std::to_string(npus + switches) +
                 " NPUs and switches; the limit is " + std::to_string(kMaxGraphDevices));
        if (const std::string problem = units::bandwidthRangeProblem(spec.bandwidthBytesPerSecond);
            !problem.empty())
            fail("bandwidth: " + problem);
        if (spec.secondBandwidthBytesPerSecond > 0)
            if (const std::string problem =
                    units::bandwidthRangeProblem(spec.secondBandwidthBytesPerSecond);
                !problem.empty())
                fail("second bandwidth: " + problem);
        if (!(spec.latencyNs >= 0))
            fail("latency must not be negative");
        m_graph.npus = static_cast<int>(npus);
        m_graph.switches = static_cast<int>(switches);
    }
    void link(int64_t a, int64_t b, double scale = 1.0) {
        m_graph.links.push_back({static_cast<int32_t>(a), static_cast<int32_t>(b),
                                 m_spec.bandwidthBytesPerSecond * scale, m_spec.latencyNs, true,
                                 0});
    }
    void secondLink(int64_t a, int64_t b) {
        const double bw = m_spec.secondBandwidthBytesPerSecond > 0
                              ? m_spec.secondBandwidthBytesPerSecond
                              : m_spec.bandwidthBytesPerSecond;
        const double lat = m_spec.secondLatencyNs >= 0 ? m_spec.secondLatencyNs : m_spec.latencyNs;
        m_graph.links.push_back(
            {static_cast<int32_t>(a), static_cast<int32_t>(b), bw, lat, true, 0});
    }
    int npus() const { return m_graph.npus; }
    GraphSpec take(std::string description) {
        m_graph.generator = std::move(description);
        return std::move(m_graph);
    }

private:
    const GraphGeneratorSpec& m_spec;
    GraphSpec m_graph;
};

void requireSizes(const GraphGeneratorSpec& s, size_t low, size_t high, const char* form) {
    if (s.size.size() < low || s.size.size() > high)
        fail(s.name + " takes size " + form + ", found " + std::to_string(s.size.size()) +
             " numbers");
    for (int64_t v : s.size)
        if (v < 1 || v > kMaxGraphDevices)
            fail(s.name + ": every size must be between 1 and " + std::to_string(kMaxGraphDevices) +
                 ", found " + std::to_string(v));
}

std::string describe(const GraphGeneratorSpec& s) {
    std::string out = s.name;
    for (size_t i = 0; i < s.size.size(); ++i) {
        out += i == 0 ? " " : "x";
        out += std::to_string(s.size[i]);
    }
    return out;
}

GraphSpec meshOrTorus(const GraphGeneratorSpec& s, size_t axes, bool wrap) {
    requireSizes(s, axes, axes, axes == 2 ? "[x, y]" : "[x, y, z]");
    int64_t n = 1;
    for (int64_t v : s.size)
        n = std::min<int64_t>(n * v, int64_t{kMaxGraphDevices} + 1);
    Builder b(s, n, 0);
    int64_t stride = 1;
    for (size_t axis = 0; axis < axes; ++axis) {
        const int64_t size = s.size[axis];
        for (int64_t npu = 0; npu < n; ++npu) {
            const int64_t c = (npu / stride) % size;
            if (c + 1 < size)
                b.link(npu, npu + stride);
            else if (wrap && size > 2)
                b.link(npu, npu - c * stride);
        }
        stride *= size;
    }
    return b.take(describe(s));
}

GraphSpec hypercube(const GraphGeneratorSpec& s) {
    requireSizes(s, 1, 1, "[d] (2^d NPUs)");
    if (s.size[0] > 16)
        fail("hypercube: d must be at most 16, found " + std::to_string(s.size[0]));
    const int64_t n = int64_t{1} << s.size[0];
    Builder b(s, n, 0);
    for (int64_t k = 0; k < s.size[0]; ++k)
        for (int64_t i = 0; i < n; ++i)
            if ((i & (int64_t{1} << k)) == 0)
                b.link(i, i | (int64_t{1} << k));
    return b.take(describe(s));
}

GraphSpec dgx1(const GraphGeneratorSpec& s) {
    requireSizes(s, 0, 0, "[] (always 8 GPUs)");
    Builder b(s, 8, 0);
    // DGX-1V (V100) hybrid cube-mesh, as `nvidia-smi topo -m` shows it: {a, b, NVLinks}.
    static const int pairs[16][3] = {
        {0, 1, 1}, {0, 2, 1}, {0, 3, 2}, {0, 4, 2}, {1, 2, 2}, {1, 3, 1}, {1, 5, 2}, {2, 3, 2},
        {2, 6, 1}, {3, 7, 1}, {4, 5, 1}, {4, 6, 1}, {4, 7, 2}, {5, 6, 2}, {5, 7, 1}, {6, 7, 2}};
    for (const auto& p : pairs)
        b.link(p[0], p[1], p[2]);
    return b.take("dgx1");
}

GraphSpec fatTree(const GraphGeneratorSpec& s) {
    requireSizes(s, 1, 1, "[k] (k even: k pods of k/2 edge and k/2 aggregation switches)");
    const int64_t k = s.size[0];
    if (k < 2 || k % 2 != 0 || k > 64)
        fail("fattree: k must be even and between 2 and 64, found " + std::to_string(k));
    const int64_t half = k / 2;
    const int64_t hosts = k * half * half;
    Builder b(s, hosts, k * k + half * half);
    const int64_t edge0 = hosts, agg0 = hosts + k * half, core0 = hosts + k * k;
    for (int64_t h = 0; h < hosts; ++h)
        b.link(h, edge0 + h / half);
    for (int64_t pod = 0; pod < k; ++pod)
        for (int64_t e = 0; e < half; ++e)
            for (int64_t a = 0; a < half; ++a)
                b.link(edge0 + pod * half + e, agg0 + pod * half + a);
    for (int64_t pod = 0; pod < k; ++pod)
        for (int64_t a = 0; a < half; ++a)
            for (int64_t c = 0; c < half; ++c)
                b.link(agg0 + pod * half + a, core0 + a * half + c);
    return b.take(describe(s));
}

GraphSpec dragonfly(const GraphGeneratorSpec& s) {
    requireSizes(s, 3, 3,
                 "[p, a, h] (NPUs per router, routers per group, global links per "
                 "router)");
    const int64_t p = s.size[0], a = s.size[1], h = s.size[2];
    const int64_t groups = a * h + 1;
    const int64_t routers = a * groups;
    Builder b(s, std::min<int64_t>(p * routers, kMaxGraphDevices + 1), routers);
    const int64_t r0 = b.npus();
    for (int64_t r = 0; r < routers; ++r)
        for (int64_t i = 0; i < p; ++i)
            b.link(r * p + i, r0 + r);
    for (int64_t g = 0; g < groups; ++g)
        for (int64_t i = 0; i < a; ++i)
            for (int64_t j = i + 1; j < a; ++j)
                b.link(r0 + g * a + i, r0 + g * a + j);
    // Group g's link to group t leaves from router ((t - g - 1) mod groups) / h of g.
    for (int64_t g = 0; g < groups; ++g)
        for (int64_t t = g + 1; t < groups; ++t) {
            const int64_t out = ((t - g - 1) % groups + groups) % groups / h;
            const int64_t in = ((g - t - 1) % groups + groups) % groups / h;
            b.secondLink(r0 + g * a + out, r0 + t * a + in);
        }
    return b.take(describe(s));
}

GraphSpec rail(const GraphGeneratorSpec& s) {
    requireSizes(s, 1, 2, "[nodes] or [nodes, gpus per node] (8 by default)");
    const int64_t nodes = s.size[0];
    const int64_t gpus = s.size.size() > 1 ? s.size[1] : 8;
    Builder b(s, std::min<int64_t>(nodes * gpus, kMaxGraphDevices + 1), nodes + gpus);
    const int64_t nvswitch0 = b.npus(), rail0 = b.npus() + nodes;
    for (int64_t node = 0; node < nodes; ++node)
        for (int64_t g = 0; g < gpus; ++g)
            b.link(node * gpus + g, nvswitch0 + node);
    for (int64_t node = 0; node < nodes; ++node)
        for (int64_t g = 0; g < gpus; ++g)
            b.secondLink(node * gpus + g, rail0 + g);
    return b.take(describe(s));
}

/// FRED (Rashidi et al.): k NPUs under each of g level-1 switches, the level-1 switches under
/// one level-2 switch (none when g = 1).
GraphSpec fred(const GraphGeneratorSpec& s) {
    requireSizes(s, 2, 2, "[k NPUs per level-1 switch, g level-1 switches]");
    const int64_t k = s.size[0], g = s.size[1];
    Builder b(s, std::min<int64_t>(k * g, kMaxGraphDevices + 1), g + (g > 1 ? 1 : 0));
    const int64_t level1 = b.npus(), root = level1 + g;
    for (int64_t npu = 0; npu < k * g; ++npu)
        b.link(npu, level1 + npu / k);
    if (g > 1)
        for (int64_t sw = 0; sw < g; ++sw)
            b.secondLink(level1 + sw, root);
    return b.take(describe(s));
}

} // namespace

GraphSpec generateGraph(const GraphGeneratorSpec& s) {
    if (s.name == "mesh2d" || s.name == "torus2d")
        return meshOrTorus(s, 2, s.name == "torus2d");
    if (s.name == "mesh3d" || s.name == "torus3d")
        return meshOrTorus(s, 3, s.name == "torus3d");
    if (s.name == "hypercube")
        return hypercube(s);
    if (s.name == "dgx1")
        return dgx1(s);
    if (s.name == "fattree")
        return fatTree(s);
    if (s.name == "dragonfly")
        return dragonfly(s);
    if (s.name == "rail")
        return rail(s);
    if (s.name == "fred")
        return fred(s);
    std::string valid;
    for (const std::string& n : graphGeneratorNames()) {
        if (!valid.empty())
            valid += ", ";
        valid += n;
    }
    fail("unknown graph generator \"" + s.name + "\"", "valid generators: " + valid);
}

} // namespace astrolabe
