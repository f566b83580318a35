// Graph platforms (docs/graph-platforms.md): validation, shortest-path routing with its
// tie-break, and the generators' node, link and degree counts.
#include "core/Error.h"
#include "graph/GraphGenerators.h"
#include "topology/Topology.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <vector>

using namespace astrolabe;

namespace {

GraphLinkSpec bi(int a, int b, double gbps = 50, double ns = 500) {
    return GraphLinkSpec{a, b, gbps * 1e9, ns, true, 0};
}

std::vector<int32_t> route(const Topology& t, int a, int b) {
    std::vector<int32_t> r;
    t.appendRoute(a, b, r);
    return r;
}

/// Devices visited by a route, from its source.
std::vector<int> path(const Topology& t, int a, int b) {
    std::vector<int> out{a};
    for (int32_t l : route(t, a, b))
        out.push_back(t.link(l).dst);
    return out;
}

GraphSpec generate(const std::string& name, std::vector<int64_t> size) {
    GraphGeneratorSpec s;
    s.name = name;
    s.size = std::move(size);
    s.bandwidthBytesPerSecond = 100e9;
    s.latencyNs = 100;
    return generateGraph(s);
}

/// Undirected degree of every device (each generated link is bidirectional).
std::vector<int> degrees(const GraphSpec& g) {
    std::vector<int> d(static_cast<size_t>(g.deviceCount()), 0);
    for (const GraphLinkSpec& l : g.links) {
        ++d[static_cast<size_t>(l.from)];
        ++d[static_cast<size_t>(l.to)];
    }
    return d;
}

} // namespace

TEST(GraphTopology, BidirectionalLinksBecomeTwoAndNpusComeFirst) {
    GraphSpec g{2, 1, {bi(0, 2), bi(1, 2)}, {}};
    const Topology t(graphPlatform(g));
    EXPECT_TRUE(t.isGraph());
    EXPECT_EQ(t.npuCount(), 2);
    EXPECT_EQ(t.deviceCount(), 3);
    EXPECT_EQ(t.linkCount(), 4);
    EXPECT_EQ(t.dimensionCount(), 1);
    EXPECT_EQ(t.size(0), 2);
    EXPECT_EQ(path(t, 0, 1), (std::vector<int>{0, 2, 1}));
    EXPECT_EQ(t.link(0).src, 0);
    EXPECT_EQ(t.link(1).src, 2) << "the reverse direction follows the forward one";
}

TEST(GraphTopology, ShortestPathByLatencyThenHops) {
    // 0 -> 1 directly costs 1000 ns; 0 -> 2 -> 1 costs 2 x 100 ns: latency wins over hops.
    GraphSpec g{3, 0, {bi(0, 1, 50, 1000), bi(0, 2, 50, 100), bi(2, 1, 50, 100)}, {}};
    const Topology t(graphPlatform(g));
    EXPECT_EQ(path(t, 0, 1), (std::vector<int>{0, 2, 1}));
    // Equal latency: fewer hops wins.
    GraphSpec h{3, 0, {bi(0, 1, 50, 200), bi(0, 2, 50, 100), bi(2, 1, 50, 100)}, {}};
    const Topology u(graphPlatform(h));
    EXPECT_EQ(path(u, 0, 1), (std::vector<int>{0, 1}));
}

TEST(GraphTopology, TiesGoToTheLowestLinkId) {
    // A 4-ring listed as 0-1, 1-2, 2-3, 3-0: from 0 to 2 both ways are 2 hops; the link 0->1
    // (id 0) comes before 0->3 (id 7), so the route goes through 1. From 2 to 0 the first
    // candidate is 2->1 (id 3) before 2->3 (id 4).
    GraphSpec g{4, 0, {bi(0, 1), bi(1, 2), bi(2, 3), bi(3, 0)}, {}};
    const Topology t(graphPlatform(g));
    EXPECT_EQ(path(t, 0, 2), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(path(t, 2, 0), (std::vector<int>{2, 1, 0}));
    EXPECT_EQ(path(t, 1, 3), (std::vector<int>{1, 0, 3})) << "1->0 is link 1, 1->2 is link 2";
}

TEST(GraphTopology, DirectionalLinksAreRoutedOneWay) {
    // A one-way ring 0 -> 1 -> 2 -> 0: from 1 to 0 goes through 2.
    GraphSpec g{3, 0, {}, {}};
    for (int i = 0; i < 3; ++i)
        g.links.push_back({i, (i + 1) % 3, 1e9, 10, false, 0});
    const Topology t(graphPlatform(g));
    EXPECT_EQ(t.linkCount(), 3);
    EXPECT_EQ(path(t, 1, 0), (std::vector<int>{1, 2, 0}));
}

TEST(GraphTopology, BadGraphsAreRefusedWithTheLinkNamed) {
    auto problem = [](GraphSpec g) {
        const auto p = graphProblems(g);
        return p.empty() ? std::string() : p.front().what;
    };
    EXPECT_EQ(problem({2, 0, {bi(0, 1)}, {}}), "");
    EXPECT_NE(problem({2, 0, {bi(0, 5)}, {}}).find("unknown device 5"), std::string::npos);
    EXPECT_NE(problem({2, 0, {bi(0, 0), bi(0, 1)}, {}}).find("npu0 to itself"), std::string::npos);
    EXPECT_NE(problem({2, 0, {bi(0, 1, 0)}, {}}).find("bandwidth"), std::string::npos);
    EXPECT_NE(problem({2, 0, {bi(0, 1, 50, -1)}, {}}).find("latency"), std::string::npos);
    EXPECT_NE(problem({3, 0, {bi(0, 1)}, {}}).find("npu2 cannot be reached"), std::string::npos);
    EXPECT_NE(problem({2, 0, {{0, 1, 1e9, 0, false, 0}}, {}}).find("npu1 cannot reach npu0"),
              std::string::npos);
    EXPECT_NE(problem({1, 0, {}, {}}).find("at least 2 NPUs"), std::string::npos);
    GraphSpec bad{3, 0, {bi(0, 1), {1, 1, 1e9, 0, true, 17}}, {}};
    try {
        Topology t(graphPlatform(bad, "p.yaml"));
        FAIL() << "accepted a link to itself";
    } catch (const Error& e) {
        EXPECT_EQ(e.where().line, 17);
        EXPECT_EQ(e.where().keyPath, "platform.graph.links[1]");
    }
}

TEST(GraphTopology, StackAsGraphKeepsLinkIdsAndRoutes) {
    // Every (src, dst) of a Ring x Switch x FullyConnected stack: the graph made from it routes
    // over the same link ids (dimension order, shorter ring direction, ties clockwise).
    PlatformSpec stack{{{BlockKind::Ring, 4, 50e9, 500},
                        {BlockKind::Switch, 3, 25e9, 700},
                        {BlockKind::FullyConnected, 2, 10e9, 100}},
                       {}};
    const Topology s(stack);
    const Topology g(graphPlatform(graphOfStack(stack)));
    ASSERT_EQ(s.linkCount(), g.linkCount());
    ASSERT_EQ(s.deviceCount(), g.deviceCount());
    for (int a = 0; a < s.npuCount(); ++a)
        for (int b = 0; b < s.npuCount(); ++b)
            EXPECT_EQ(route(s, a, b), route(g, a, b)) << a << " -> " << b;
    for (int l = 0; l < s.linkCount(); ++l) {
        EXPECT_EQ(s.linkLatencyNs(l), g.linkLatencyNs(l));
        EXPECT_EQ(s.linkBytesPerNs(l), g.linkBytesPerNs(l));
    }
}

TEST(GraphGenerators, MeshAndTorusCounts) {
    const GraphSpec m = generate("mesh2d", {4, 3});
    EXPECT_EQ(m.npus, 12);
    EXPECT_EQ(m.links.size(), 3u * 3 + 4u * 2);
    auto d = degrees(m);
    EXPECT_EQ(std::count(d.begin(), d.end(), 2), 4) << "corners";
    EXPECT_EQ(std::count(d.begin(), d.end(), 4), 2) << "interior";
    const GraphSpec t = generate("torus2d", {4, 4});
    EXPECT_EQ(t.links.size(), 32u);
    d = degrees(t);
    EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](int x) { return x == 4; }));
    const GraphSpec t3 = generate("torus3d", {4, 4, 2});
    EXPECT_EQ(t3.npus, 32);
    EXPECT_EQ(t3.links.size(), 32u + 32u + 16u) << "an axis of 2 has no wrap-around link";
    d = degrees(t3);
    EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](int x) { return x == 5; }));
    const GraphSpec m3 = generate("mesh3d", {2, 2, 2});
    EXPECT_EQ(m3.links.size(), 12u);
    EXPECT_TRUE(graphProblems(m3).empty());
    // Routing on a mesh: Manhattan distance in hops.
    const Topology topo(graphPlatform(generate("mesh2d", {4, 4})));
    std::vector<int32_t> r;
    topo.appendRoute(0, 15, r);
    EXPECT_EQ(r.size(), 6u);
}

TEST(GraphGenerators, HypercubeAndDgx1) {
    const GraphSpec h = generate("hypercube", {4});
    EXPECT_EQ(h.npus, 16);
    EXPECT_EQ(h.links.size(), 32u);
    auto d = degrees(h);
    EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](int x) { return x == 4; }));
    const GraphSpec x = generate("dgx1", {});
    EXPECT_EQ(x.npus, 8);
    EXPECT_EQ(x.links.size(), 16u);
    d = degrees(x);
    EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](int v) { return v == 4; }));
    // Six NVLinks per V100: the per-GPU bandwidth is 6 x the per-NVLink bandwidth.
    std::vector<double> perGpu(8, 0.0);
    for (const GraphLinkSpec& l : x.links) {
        perGpu[static_cast<size_t>(l.from)] += l.bandwidthBytesPerSecond;
        perGpu[static_cast<size_t>(l.to)] += l.bandwidthBytesPerSecond;
    }
    for (double b : perGpu)
        EXPECT_DOUBLE_EQ(b, 6 * 100e9);
}

TEST(GraphGenerators, FatTreeDragonflyRail) {
    const GraphSpec f = generate("fattree", {4});
    EXPECT_EQ(f.npus, 16);
    EXPECT_EQ(f.switches, 20);
    EXPECT_EQ(f.links.size(), 48u);
    auto d = degrees(f);
    for (int i = 0; i < f.deviceCount(); ++i)
        EXPECT_EQ(d[static_cast<size_t>(i)], i < 16 ? 1 : 4) << i;
    const Topology ft(graphPlatform(f));
    std::vector<int32_t> r;
    ft.appendRoute(0, 15, r); // different pods: host-edge-agg-core-agg-edge-host
    EXPECT_EQ(r.size(), 6u);

    const GraphSpec df = generate("dragonfly", {2, 4, 2}); // p=2, a=4, h=2: g=9 groups
    EXPECT_EQ(df.npus, 2 * 4 * 9);
    EXPECT_EQ(df.switches, 36);
    EXPECT_EQ(df.links.size(), 72u + 9u * 6 + 36u);
    d = degrees(df);
    for (int i = df.npus; i < df.deviceCount(); ++i)
        EXPECT_EQ(d[static_cast<size_t>(i)], 2 + 3 + 2) << "p + (a-1) + h at router " << i;
    EXPECT_TRUE(graphProblems(df).empty());

    const GraphSpec rl = generate("rail", {4});
    EXPECT_EQ(rl.npus, 32);
    EXPECT_EQ(rl.switches, 4 + 8);
    EXPECT_EQ(rl.links.size(), 64u);
    d = degrees(rl);
    for (int i = 0; i < rl.deviceCount(); ++i)
        EXPECT_EQ(d[static_cast<size_t>(i)], i < 32 ? 2 : (i < 36 ? 8 : 4)) << i;
    const Topology rt(graphPlatform(rl));
    r.clear();
    rt.appendRoute(0, 8, r); // GPU 0 of node 0 to GPU 0 of node 1: over rail switch 0
    EXPECT_EQ(r.size(), 2u);
    EXPECT_EQ(rt.link(r[0]).dst, 36);
}

TEST(GraphGenerators, BadParametersNameTheProblem) {
    auto message = [](const std::string& name, std::vector<int64_t> size) {
        try {
            generate(name, std::move(size));
        } catch (const Error& e) {
            return e.message() + " | " + e.hint();
        }
        return std::string();
    };
    EXPECT_NE(message("mesh", {4, 4}).find("valid generators: mesh2d"), std::string::npos);
    EXPECT_NE(message("mesh2d", {4}).find("size [x, y]"), std::string::npos);
    EXPECT_NE(message("fattree", {3}).find("even"), std::string::npos);
    EXPECT_NE(message("mesh2d", {1000, 1000}).find("limit"), std::string::npos);
}

// ECMP (docs/graph-platforms.md, "Routing"): every route is still a shortest one, of the same
// total latency and hop count as the lowest-id route; on a k = 4 fat-tree, all-pairs traffic
// under shortest routing leaves each edge switch by its lowest uplink only (some links carry
// nothing), while ECMP's per-flow hash reaches every link.
TEST(GraphTopology, EcmpRoutesAreShortestAndSpreadOverEveryFatTreeLink) {
    const std::vector<std::pair<std::string, std::vector<int64_t>>> graphs{
        {"fattree", {4}}, {"torus2d", {4, 4}}, {"dgx1", {}}, {"hypercube", {4}}};
    for (const auto& [name, size] : graphs) {
        GraphSpec g = generate(name, size);
        const Topology shortest(graphPlatform(g));
        g.routing = GraphRouting::Ecmp;
        const Topology ecmp(graphPlatform(g));
        std::set<int32_t> usedShortest, usedEcmp;
        bool differs = false;
        for (int a = 0; a < g.npus; ++a)
            for (int b = 0; b < g.npus; ++b) {
                const std::vector<int32_t> r1 = route(shortest, a, b), r2 = route(ecmp, a, b);
                ASSERT_EQ(r1.size(), r2.size()) << name << " " << a << "->" << b;
                double l1 = 0, l2 = 0;
                for (size_t i = 0; i < r1.size(); ++i) {
                    l1 += shortest.linkLatencyNs(r1[i]);
                    l2 += ecmp.linkLatencyNs(r2[i]);
                }
                EXPECT_EQ(l1, l2) << name << " " << a << "->" << b;
                EXPECT_EQ(path(ecmp, a, b).back(), b);
                differs = differs || r1 != r2;
                usedShortest.insert(r1.begin(), r1.end());
                usedEcmp.insert(r2.begin(), r2.end());
            }
        EXPECT_TRUE(differs) << name << ": every graph here has equal-cost alternatives";
        if (name == "fattree") {
            EXPECT_LT(static_cast<int>(usedShortest.size()), shortest.linkCount());
            EXPECT_EQ(static_cast<int>(usedEcmp.size()), ecmp.linkCount());
        }
    }
}

TEST(GraphTopology, RoutingNamesParseAndUnknownNamesAreRefused) {
    EXPECT_EQ(parseGraphRouting("ecmp"), GraphRouting::Ecmp);
    EXPECT_EQ(parseGraphRouting("shortest"), GraphRouting::Shortest);
    EXPECT_STREQ(graphRoutingName(GraphRouting::Ecmp), "ecmp");
    try {
        parseGraphRouting("ecpm");
        FAIL() << "ecpm was accepted";
    } catch (const Error& e) {
        EXPECT_NE(e.message().find("expected shortest or ecmp"), std::string::npos) << e.message();
    }
    GraphSpec a = generate("torus2d", {4, 4}), b = a;
    b.routing = GraphRouting::Ecmp;
    EXPECT_FALSE(a == b) << "routing changes results, so it is part of the graph's identity";
}
