#include "topology/GraphLayout.h"

#include "topology/NetworkLayout.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

namespace astrolabe::widgets {

namespace {
constexpr double P = kGraphPitch;

struct Generated {
    std::string name;
    std::vector<int> size;
};

// "mesh2d 4x4" -> {mesh2d, {4, 4}} (GraphGenerators' description of what it made).
Generated parseGenerator(const std::string& text) {
    Generated g;
    std::istringstream in(text);
    in >> g.name;
    std::string sizes;
    in >> sizes;
    std::replace(sizes.begin(), sizes.end(), 'x', ' ');
    std::istringstream s(sizes);
    for (int v = 0; s >> v;)
        g.size.push_back(v);
    return g;
}

std::vector<std::vector<int>> neighbours(const GraphSpec& g) {
    std::vector<std::vector<int>> adj(static_cast<size_t>(g.deviceCount()));
    for (const GraphLinkSpec& l : g.links) {
        if (l.from < 0 || l.to < 0 || l.from >= g.deviceCount() || l.to >= g.deviceCount())
            continue; // a dangling link (shown as a problem) has no place
        adj[static_cast<size_t>(l.from)].push_back(l.to);
        adj[static_cast<size_t>(l.to)].push_back(l.from);
    }
    return adj;
}

// A grid of x by y; with z layers (3-D), an oblique view: layer c is the grid shifted by c steps
// of half a pitch right and up, and the grid's pitch is z + 1 such steps, so the layers
// interleave. Then a link between layers is one short diagonal step, a link within a layer runs
// along a row (or column) that holds only that layer's devices, half a pitch from the others,
// and every diagonal leaves a free step before the next cell (where a torus' wrap-around
// stubs point). Side by side tiles instead made every link between layers cross a row of
// devices.
bool gridLayout(const GraphSpec& g, const std::vector<int>& size, std::vector<QPointF>& out) {
    const int x = size.empty() ? 0 : size[0];
    const int y = size.size() > 1 ? size[1] : 1;
    const int z = size.size() > 2 ? size[2] : 1;
    if (x < 1 || y < 1 || z < 1 || static_cast<long long>(x) * y * z != g.npus || g.switches != 0)
        return false;
    const double step = z > 1 ? P / 2 : 0;
    const double pitch = z > 1 ? (z + 1) * step : P;
    for (int i = 0; i < g.npus; ++i) {
        const int a = i % x, b = (i / x) % y, c = i / (x * y);
        out.emplace_back(a * pitch + c * step, b * pitch - c * step);
    }
    return true;
}

// Hypercubes of 3 to 5 dimensions as a projection: device i sits at the sum of one vector per
// set bit, dimension k's links are all that vector. Dimensions 0-2 are a cube in oblique view
// (as DGX-1's), each next group of three the same cube twice as large and turned a little, so
// that no link's line meets a device it does not join (searched over the vectors' scale, tilt
// and turn; GraphLayoutTest checks every link's clearance). The whole is scaled so that
// devices are a pitch apart and links pass devices at least 3/8 of a pitch away. From 6
// dimensions no such projection stays compact (a 6-cube spreads over ~35 pitches), and the
// grid is kept.
bool hypercubeLayout(const GraphSpec& g, std::vector<QPointF>& out) {
    int d = 0;
    while ((1 << d) < g.npus)
        ++d;
    if ((1 << d) != g.npus || g.switches != 0)
        return false;
    if (d < 3 || d > 5)
        return gridLayout(g, {1 << ((d + 1) / 2), 1 << (d / 2)}, out);
    std::vector<QPointF> v;
    const double depth = std::atan2(-0.3, 0.5), depthLength = std::hypot(0.5, 0.3);
    for (int k = 0; k < d; ++k) {
        const int level = k / 3;
        const double scale = std::pow(2.0, level), tilt = 0.2 * level, turn = 0.1 * level;
        if (k % 3 == 0)
            v.emplace_back(scale, scale * tilt);
        else if (k % 3 == 1)
            v.emplace_back(-scale * tilt, scale);
        else
            v.emplace_back(scale * depthLength * std::cos(depth + turn),
                           scale * depthLength * std::sin(depth + turn));
    }
    for (int i = 0; i < g.npus; ++i) {
        QPointF p;
        for (int k = 0; k < d; ++k)
            if (i & (1 << k))
                p += v[static_cast<size_t>(k)];
        out.push_back(p);
    }
    // Scale: closest devices a pitch apart, every link at least 3/8 of a pitch from the devices
    // it does not join.
    double closest = 1e300, clearance = 1e300;
    for (size_t i = 0; i < out.size(); ++i)
        for (size_t j = i + 1; j < out.size(); ++j)
            closest =
                std::min(closest, std::hypot(out[i].x() - out[j].x(), out[i].y() - out[j].y()));
    for (int i = 0; i < g.npus; ++i)
        for (int k = 0; k < d; ++k) {
            const int j = i ^ (1 << k);
            if (j < i)
                continue;
            const QPointF a = out[static_cast<size_t>(i)], ab = v[static_cast<size_t>(k)];
            const double len2 = QPointF::dotProduct(ab, ab);
            for (int c = 0; c < g.npus; ++c) {
                if (c == i || c == j)
                    continue;
                const QPointF ac = out[static_cast<size_t>(c)] - a;
                const double t = std::clamp(QPointF::dotProduct(ac, ab) / len2, 0.0, 1.0);
                const QPointF off = ac - ab * t;
                clearance = std::min(clearance, std::hypot(off.x(), off.y()));
            }
        }
    const double scale = std::max(P / closest, 0.375 * P / clearance);
    for (QPointF& p : out)
        p *= scale;
    return true;
}

bool cubeLayout(const GraphSpec& g, std::vector<QPointF>& out) {
    if (g.npus != 8 || g.switches != 0)
        return false;
    // A cube in oblique projection: front face 0 1 / 2 3, back face 4 5 / 6 7 shifted up and
    // right, so the cube's edges join i and i + 4 and no face diagonal runs through a device.
    const double s = 3 * P;
    const QPointF front[] = {{0, 0}, {s, 0}, {0, s}, {s, s}};
    const QPointF back(0.5 * s, -0.3 * s);
    for (const QPointF& p : front)
        out.push_back(p);
    for (const QPointF& p : front)
        out.push_back(p + back);
    return true;
}

bool railLayout(const GraphSpec& g, const std::vector<int>& size, std::vector<QPointF>& out) {
    const int nodes = size.empty() ? 0 : size[0];
    const int gpus = size.size() > 1 ? size[1] : 8;
    if (nodes < 1 || nodes * gpus != g.npus || g.switches != nodes + gpus)
        return false;
    const auto npuX = [&](int i) { return (i + (i / gpus) * 0.5) * P; };
    for (int i = 0; i < g.npus; ++i)
        out.emplace_back(npuX(i), 0);
    for (int n = 0; n < nodes; ++n) // NVSwitch of node n under its GPUs
        out.emplace_back((npuX(n * gpus) + npuX(n * gpus + gpus - 1)) / 2, 3 * P);
    // Rail switches spread above, high enough (a quarter of the width) that a rail link leaving
    // a GPU towards a far switch clears the GPU next to it by a quarter pitch.
    const double width = npuX(g.npus - 1);
    const double height = std::max(4 * P, width / 4);
    for (int r = 0; r < gpus; ++r)
        out.emplace_back(gpus == 1 ? width / 2 : width * r / (gpus - 1), -height);
    return true;
}

bool stackLayout(const PlatformSpec& platform, std::vector<QPointF>& out) {
    PlatformSpec stack;
    stack.dimensions = platform.dimensions;
    const NetworkLayout layout(stack);
    const GraphSpec& g = *platform.graph;
    if (!layout.drawable() || layout.npuCount() != g.npus)
        return false;
    const double scale = P / NetworkLayout::kGridPitch;
    for (int i = 0; i < g.npus; ++i)
        out.push_back(layout.npuPosition(i) * scale);
    const auto adj = neighbours(g);
    for (int s = g.npus; s < g.deviceCount(); ++s) {
        QPointF sum;
        int count = 0;
        for (int n : adj[static_cast<size_t>(s)])
            if (n < g.npus) {
                sum += out[static_cast<size_t>(n)];
                ++count;
            }
        out.push_back(count ? sum / count : QPointF());
    }
    return true;
}

// Layer = hop distance from the nearest NPU; layer 0 in id order, each next layer ordered by the
// mean position of its neighbours one layer down, spread over the width of layer 0.
void layeredLayout(const GraphSpec& g, std::vector<QPointF>& out) {
    const auto adj = neighbours(g);
    const size_t n = static_cast<size_t>(g.deviceCount());
    std::vector<int> layer(n, -1);
    std::vector<int> queue;
    for (int i = 0; i < g.npus; ++i) {
        layer[static_cast<size_t>(i)] = 0;
        queue.push_back(i);
    }
    for (size_t q = 0; q < queue.size(); ++q)
        for (int m : adj[static_cast<size_t>(queue[q])])
            if (layer[static_cast<size_t>(m)] < 0) {
                layer[static_cast<size_t>(m)] = layer[static_cast<size_t>(queue[q])] + 1;
                queue.push_back(m);
            }
    int top = 0;
    for (int& l : layer) {
        if (l < 0)
            l = 1; // unreachable switches sit with the first layer of switches
        top = std::max(top, l);
    }
    out.assign(n, QPointF());
    const double width = std::max(1, g.npus - 1) * P;
    // Wide trees get taller layers, so that the picture is at most about 3:1.
    const double gap = std::max(3 * P, width / (3.0 * std::max(1, top)));
    for (int l = 0; l <= top; ++l) {
        std::vector<std::pair<double, int>> order;
        for (size_t i = 0; i < n; ++i) {
            if (layer[i] != l)
                continue;
            double sum = 0;
            int count = 0;
            for (int m : adj[i])
                if (layer[static_cast<size_t>(m)] == l - 1) {
                    sum += out[static_cast<size_t>(m)].x();
                    ++count;
                }
            order.emplace_back(count ? sum / count : static_cast<double>(i), static_cast<int>(i));
        }
        std::stable_sort(order.begin(), order.end());
        const size_t k = order.size();
        for (size_t j = 0; j < k; ++j)
            out[static_cast<size_t>(order[j].second)] =
                QPointF(k == 1 ? width / 2 : width * static_cast<double>(j) / (k - 1), -gap * l);
    }
}

// Fruchterman-Reingold from a circle: repulsion k^2/d between all pairs, attraction d^2/k along
// links, a temperature falling linearly to zero. No random numbers: the same graph always gets
// the same picture.
void forceLayout(const GraphSpec& g, std::vector<QPointF>& out) {
    const size_t n = static_cast<size_t>(g.deviceCount());
    const auto adj = neighbours(g);
    const double radius = P * std::max(1.0, n / (2 * std::numbers::pi));
    out.clear();
    for (size_t i = 0; i < n; ++i) {
        const double a = 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(n);
        out.emplace_back(radius * std::cos(a), radius * std::sin(a));
    }
    const double pairs = static_cast<double>(n) * static_cast<double>(n);
    // At most ~3 * 10^7 pair visits in all: 300 rounds for small graphs, 28 at 1,024 devices,
    // 1 at 4,096, none (the circle) beyond about 5,500.
    const int iterations = std::min(300, static_cast<int>(3e7 / std::max(1.0, pairs)));
    const double k = P;
    std::vector<QPointF> move(n);
    for (int it = 0; it < iterations; ++it) {
        const double temperature = radius * 0.2 * (1.0 - static_cast<double>(it) / iterations);
        std::fill(move.begin(), move.end(), QPointF());
        for (size_t i = 0; i < n; ++i)
            for (size_t j = i + 1; j < n; ++j) {
                QPointF d = out[i] - out[j];
                double len2 = d.x() * d.x() + d.y() * d.y();
                if (len2 < 1e-6) {
                    d = QPointF(1e-3 * static_cast<double>(i + 1), 1e-3);
                    len2 = d.x() * d.x() + d.y() * d.y();
                }
                const QPointF f = d * (k * k / len2);
                move[i] += f;
                move[j] -= f;
            }
        for (size_t i = 0; i < n; ++i)
            for (int j : adj[i]) {
                const QPointF d = out[i] - out[static_cast<size_t>(j)];
                move[i] -= d * (std::hypot(d.x(), d.y()) / k);
            }
        for (size_t i = 0; i < n; ++i) {
            const double len = std::hypot(move[i].x(), move[i].y());
            if (len > 0)
                out[i] += move[i] * (std::min(len, temperature) / len);
        }
    }
}

// Nudges devices that landed on one point apart, then centres the picture on (0, 0).
void finish(std::vector<QPointF>& out) {
    std::vector<size_t> order(out.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto key = [&](size_t i) { return std::make_pair(out[i].x(), out[i].y()); };
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    for (size_t i = 1; i < order.size(); ++i)
        if (std::abs(out[order[i]].x() - out[order[i - 1]].x()) < 1e-6 &&
            std::abs(out[order[i]].y() - out[order[i - 1]].y()) < 1e-6)
            out[order[i]] = out[order[i - 1]] + QPointF(P / 3, P / 3);
    const QPointF centre = pointsBounds(out).center();
    for (QPointF& p : out)
        p -= centre;
}
} // namespace

QRectF pointsBounds(const std::vector<QPointF>& points) {
    if (points.empty())
        return {};
    double left = points[0].x(), right = left, top = points[0].y(), bottom = top;
    for (const QPointF& p : points) {
        left = std::min(left, p.x());
        right = std::max(right, p.x());
        top = std::min(top, p.y());
        bottom = std::max(bottom, p.y());
    }
    return QRectF(QPointF(left, top), QPointF(right, bottom));
}

std::vector<QPointF> givenPositions(const GraphSpec& graph) {
    std::vector<QPointF> points;
    points.reserve(graph.positions.size());
    for (const GraphPoint& p : graph.positions)
        points.emplace_back(p.x, p.y);
    return points;
}

GraphLayoutResult layoutGraph(const PlatformSpec& platform) {
    GraphLayoutResult r;
    if (!platform.graph || platform.graph->deviceCount() == 0)
        return r;
    const GraphSpec& g = *platform.graph;
    const Generated gen = parseGenerator(g.generator);
    auto& out = r.positions;
    const auto attempt = [&](GraphArrangement a, bool ok) {
        if (ok)
            r.arrangement = a;
        else
            out.clear();
        return ok;
    };
    const bool grid = gen.name.starts_with("mesh") || gen.name.starts_with("torus");
    (grid && attempt(GraphArrangement::Grid, gridLayout(g, gen.size, out))) ||
        (gen.name == "hypercube" && attempt(GraphArrangement::Grid, hypercubeLayout(g, out))) ||
        (gen.name == "dgx1" && attempt(GraphArrangement::Cube, cubeLayout(g, out))) ||
        (gen.name == "rail" && attempt(GraphArrangement::Rail, railLayout(g, gen.size, out))) ||
        (platform.dimensions.size() > 1 &&
         attempt(GraphArrangement::Stack, stackLayout(platform, out)));
    if (out.empty()) {
        if (g.switches > 0) {
            layeredLayout(g, out);
            r.arrangement = GraphArrangement::Layered;
        } else {
            forceLayout(g, out);
            r.arrangement = GraphArrangement::Force;
        }
    }
    finish(out);
    return r;
}

std::vector<char> wrapLinks(const GraphSpec& graph, const std::vector<QPointF>& positions) {
    std::vector<char> wrap(graph.links.size(), 0);
    if (!graph.generator.starts_with("torus"))
        return wrap;
    // By the torus' own coordinates: a link is a wrap-around link when it joins the two ends of
    // a row, column or line through the layers (more than one step apart on an axis), wherever
    // the layout put them.
    const Generated gen = parseGenerator(graph.generator);
    if (gen.size.empty() || positions.size() < static_cast<size_t>(graph.npus))
        return wrap;
    const auto coordinate = [&](int device, size_t axis) {
        int rest = device;
        for (size_t a = 0; a < axis; ++a)
            rest /= gen.size[a];
        return rest % gen.size[axis];
    };
    for (size_t i = 0; i < graph.links.size(); ++i) {
        const GraphLinkSpec& l = graph.links[i];
        if (l.from < 0 || l.to < 0 || l.from >= graph.npus || l.to >= graph.npus)
            continue;
        for (size_t axis = 0; axis < gen.size.size(); ++axis)
            if (std::abs(coordinate(l.from, axis) - coordinate(l.to, axis)) > 1)
                wrap[i] = 1;
    }
    return wrap;
}

} // namespace astrolabe::widgets
