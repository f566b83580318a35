// The graph editor's automatic layout (GraphLayout.h): every device gets its own place inside the
// scene, the arrangements follow the generator (a mesh is a grid at one pitch, DGX-1 a cube), the
// force layout of 1,024 devices stays well under a second, and screenshots of DGX-1 and a 16 x 16
// mesh (saved under screenshots/ for review).
#include "topology/GraphLayout.h"

#include "GeneratedGraph.h"
#include "graph/GraphGenerators.h"
#include "support/MachineTime.h"
#include "topology/GraphEditor.h"
#include "topology/GraphView.h"
#include "topology/Topology.h"
#include "topology/TopologyEditor.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
// Smallest distance between two devices, by sorting on x and scanning a band (O(n log n) for
// the spread layouts tested here).
double closestPair(const std::vector<QPointF>& points) {
    std::vector<QPointF> p = points;
    std::sort(p.begin(), p.end(), [](QPointF a, QPointF b) { return a.x() < b.x(); });
    double best = 1e300;
    for (size_t i = 0; i < p.size(); ++i)
        for (size_t j = i + 1; j < p.size() && p[j].x() - p[i].x() < best; ++j)
            best = std::min(best, std::hypot(p[j].x() - p[i].x(), p[j].y() - p[i].y()));
    return best;
}

void expectSpreadInside(const PlatformSpec& platform, GraphArrangement expected) {
    const GraphLayoutResult r = layoutGraph(platform);
    ASSERT_EQ(r.positions.size(), static_cast<size_t>(platform.graph->deviceCount()));
    EXPECT_EQ(static_cast<int>(r.arrangement), static_cast<int>(expected))
        << platform.graph->generator;
    EXPECT_GT(closestPair(r.positions), 5.0) << platform.graph->generator;
    GraphView view;
    view.setGraph(*platform.graph, r.positions, {});
    const QRectF scene = view.sceneRect();
    for (size_t i = 0; i < r.positions.size(); ++i)
        ASSERT_TRUE(scene.contains(r.positions[i])) << platform.graph->generator << " device " << i;
}

QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}
} // namespace

TEST(GraphLayout, EveryGeneratorGetsDistinctPositionsInsideTheScene) {
    using A = GraphArrangement;
    expectSpreadInside(graphPlatform(generatedGraph("mesh2d", {16, 16})), A::Grid);
    expectSpreadInside(graphPlatform(generatedGraph("torus2d", {32, 32})), A::Grid);
    expectSpreadInside(graphPlatform(generatedGraph("mesh3d", {4, 4, 4})), A::Grid);
    expectSpreadInside(graphPlatform(generatedGraph("torus3d", {8, 8, 16})), A::Grid);
    expectSpreadInside(graphPlatform(generatedGraph("hypercube", {7})), A::Grid);
    expectSpreadInside(graphPlatform(generatedGraph("dgx1", {})), A::Cube);
    expectSpreadInside(graphPlatform(generatedGraph("fattree", {4})), A::Layered);
    expectSpreadInside(graphPlatform(generatedGraph("fattree", {16})), A::Layered);
    expectSpreadInside(graphPlatform(generatedGraph("dragonfly", {2, 4, 2})), A::Layered);
    expectSpreadInside(graphPlatform(generatedGraph("rail", {4})), A::Rail);
    expectSpreadInside(graphPlatform(generatedGraph("rail", {128, 8})), A::Rail);
    PlatformSpec stack;
    stack.dimensions = {{BlockKind::Ring, 4, 50e9, 100},
                        {BlockKind::Switch, 4, 25e9, 500},
                        {BlockKind::FullyConnected, 2, 10e9, 700}};
    expectSpreadInside(stackAsGraph(stack), A::Stack);
}

TEST(GraphLayout, AMeshIsAGridAtOnePitchAndDgx1ACube) {
    const GraphLayoutResult mesh = layoutGraph(graphPlatform(generatedGraph("mesh2d", {16, 16})));
    for (int i = 0; i + 1 < 256; ++i) {
        const QPointF d =
            mesh.positions[static_cast<size_t>(i + 1)] - mesh.positions[static_cast<size_t>(i)];
        if ((i + 1) % 16 != 0) { // neighbours along x: one pitch to the right
            EXPECT_DOUBLE_EQ(d.x(), kGraphPitch);
            EXPECT_DOUBLE_EQ(d.y(), 0.0);
        }
    }
    // DGX-1: GPU i + 4 sits at GPU i moved by one vector: the cube's edges are parallel.
    const GraphLayoutResult cube = layoutGraph(graphPlatform(generatedGraph("dgx1", {})));
    const QPointF depth = cube.positions[4] - cube.positions[0];
    EXPECT_GT(std::hypot(depth.x(), depth.y()), kGraphPitch);
    for (int i = 1; i < 4; ++i) {
        const QPointF d =
            cube.positions[static_cast<size_t>(i + 4)] - cube.positions[static_cast<size_t>(i)];
        EXPECT_NEAR(d.x(), depth.x(), 1e-9);
        EXPECT_NEAR(d.y(), depth.y(), 1e-9);
    }
}

// Readable: no link (drawn as a line) runs through a device it does not join (its line passes at
// least a device's radius plus a pixel from every other device's centre).
TEST(GraphLayout, NoLinkRunsThroughAnotherDevice) {
    const GraphSpec graphs[] = {
        generatedGraph("mesh2d", {16, 16}),   generatedGraph("torus2d", {8, 8}),
        generatedGraph("torus2d", {5, 3}),    generatedGraph("dgx1", {}),
        generatedGraph("fattree", {4}),       generatedGraph("rail", {4}),
        generatedGraph("mesh3d", {4, 4, 4}),  generatedGraph("mesh3d", {8, 2, 6}),
        generatedGraph("torus3d", {4, 4, 3}), generatedGraph("hypercube", {3}),
        generatedGraph("hypercube", {4}),     generatedGraph("hypercube", {5})};
    for (const GraphSpec& g : graphs) {
        const std::vector<QPointF> p = layoutGraph(graphPlatform(g)).positions;
        // A torus' wrap-around links are drawn as stubs: exactly one per row and column.
        const std::vector<char> wrap = wrapLinks(g, p);
        const size_t wraps = static_cast<size_t>(std::count(wrap.begin(), wrap.end(), 1));
        if (g.generator == "torus2d 8x8")
            EXPECT_EQ(wraps, 16u);
        else if (g.generator == "torus2d 5x3")
            EXPECT_EQ(wraps, 8u);
        else if (g.generator == "torus3d 4x4x3") // per row 12, per column 12, per line 16
            EXPECT_EQ(wraps, 40u);
        else
            EXPECT_EQ(wraps, 0u) << g.generator;
        for (size_t li = 0; li < g.links.size(); ++li) {
            const GraphLinkSpec& l = g.links[li];
            if (wrap[li])
                continue;
            const QPointF a = p[static_cast<size_t>(l.from)], b = p[static_cast<size_t>(l.to)];
            const QPointF ab = b - a;
            const double len2 = QPointF::dotProduct(ab, ab);
            for (int d = 0; d < g.deviceCount(); ++d) {
                if (d == l.from || d == l.to)
                    continue;
                const QPointF c = p[static_cast<size_t>(d)];
                const double t = std::clamp(QPointF::dotProduct(c - a, ab) / len2, 0.0, 1.0);
                const QPointF nearest = a + ab * t;
                ASSERT_GT(std::hypot(c.x() - nearest.x(), c.y() - nearest.y()), 9.0)
                    << g.generator << ": link " << li << " runs through " << g.deviceName(d);
            }
        }
    }
}

TEST(GraphLayout, ForceLayoutOf1024DevicesIsDeterministicAndQuick) {
    // A hand-made graph (no generator, no switches): a ring of 1,024 with chords i -- i + 32.
    GraphSpec g;
    g.npus = 1024;
    for (int i = 0; i < g.npus; ++i) {
        g.links.push_back({i, (i + 1) % g.npus, 50e9, 100, true, 0});
        if (i % 32 == 0)
            g.links.push_back({i, (i + 32) % g.npus, 50e9, 100, true, 0});
    }
    const astrolabe::timing::OwnClock timer; // less the machine's pauses and waits for a core
    const GraphLayoutResult first = layoutGraph(graphPlatform(g));
    const astrolabe::timing::Reading layout = timer.read();
    std::printf("force layout of 1,024 devices: %.0f ms\n", layout.ownMs);
    EXPECT_EQ(static_cast<int>(first.arrangement), static_cast<int>(GraphArrangement::Force));
    // Typically a few hundred ms.
    EXPECT_TRUE(astrolabe::timing::within(layout, 1500.0, "force layout of 1,024 devices"));
    EXPECT_EQ(first.positions, layoutGraph(graphPlatform(g)).positions);
    expectSpreadInside(graphPlatform(g), GraphArrangement::Force);
    // Small graphs get the full iteration count: 8 devices of a ring end up on a near-circle.
    GraphSpec ring;
    ring.npus = 8;
    for (int i = 0; i < 8; ++i)
        ring.links.push_back({i, (i + 1) % 8, 50e9, 100, true, 0});
    const GraphLayoutResult r = layoutGraph(graphPlatform(ring));
    for (int i = 0; i < 8; ++i) {
        const QPointF d =
            r.positions[static_cast<size_t>(i)] - r.positions[static_cast<size_t>((i + 1) % 8)];
        EXPECT_NEAR(std::hypot(d.x(), d.y()),
                    std::hypot(r.positions[0].x() - r.positions[1].x(),
                               r.positions[0].y() - r.positions[1].y()),
                    0.05 * kGraphPitch);
    }
}

TEST(GraphLayout, LargeGraphsDoNotStallTheEditor) {
    // A hand-made 4,096-device ring: one force round at most.
    GraphSpec ring;
    ring.npus = 4096;
    for (int i = 0; i < ring.npus; ++i)
        ring.links.push_back({i, (i + 1) % ring.npus, 50e9, 100, true, 0});
    astrolabe::timing::OwnClock timer; // less the machine's pauses and waits for a core
    const GraphLayoutResult r = layoutGraph(graphPlatform(ring));
    const astrolabe::timing::Reading ringLayout = timer.read();
    std::printf("force layout of 4,096 devices: %.0f ms\n", ringLayout.ownMs);
    EXPECT_TRUE(astrolabe::timing::within(ringLayout, 1000.0, "force layout of 4,096 devices"));
    EXPECT_GT(closestPair(r.positions), 5.0);
    // 16,384 NPUs: laid out as a grid, not drawn item by item.
    TopologyEditor editor;
    timer.restart();
    editor.setPlatform(graphPlatform(generatedGraph("torus2d", {128, 128})));
    EXPECT_TRUE(astrolabe::timing::within(timer.read(), 1000.0, "a 16,384-NPU torus shown"));
    EXPECT_EQ(editor.graphEditor()->view()->deviceItem(0), nullptr);
    EXPECT_EQ(editor.graphEditor()->positions().size(), 16384u);
}

TEST(GraphLayout, ScreenshotsOfDgx1AndA16By16Mesh) {
    const std::pair<GraphSpec, QString> cases[] = {
        {generatedGraph("dgx1", {}), QStringLiteral("graph-dgx1.png")},
        {generatedGraph("mesh2d", {16, 16}), QStringLiteral("graph-mesh-16x16.png")},
        {generatedGraph("fattree", {4}), QStringLiteral("graph-fattree-4.png")},
        {generatedGraph("rail", {4}), QStringLiteral("graph-rail-4.png")},
        {generatedGraph("torus2d", {8, 8}), QStringLiteral("graph-torus-8x8.png")},
        {generatedGraph("fattree", {16}), QStringLiteral("graph-fattree-16.png")},
        {generatedGraph("torus3d", {4, 4, 4}), QStringLiteral("graph-torus-4x4x4.png")},
        {generatedGraph("hypercube", {4}), QStringLiteral("graph-hypercube-4.png")},
        {generatedGraph("hypercube", {5}), QStringLiteral("graph-hypercube-5.png")}};
    for (const auto& [graph, name] : cases) {
        TopologyEditor editor;
        editor.resize(1280, 800);
        astrolabe::timing::OwnClock shown; // less the machine's pauses and waits for a core
        editor.setPlatform(graphPlatform(graph));
        editor.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
        // Layout, items and the first paint: the event loop is blocked this long once.
        const astrolabe::timing::Reading first = shown.read();
        const double shownMs = first.ownMs;
        std::printf("%s: %d devices, %d links shown in %.0f ms\n", name.toUtf8().constData(),
                    graph.deviceCount(), static_cast<int>(graph.links.size()), shownMs);
        EXPECT_TRUE(astrolabe::timing::within(first, 2000.0, "layout, items and first paint"))
            << name.toStdString();
        // One link selected, so its bandwidth and latency show in the panel.
        editor.graphEditor()->view()->select({}, {0});
        shown.restart();
        QApplication::processEvents();
        EXPECT_TRUE(astrolabe::timing::within(shown.read(), 500.0, "a link selected"))
            << name.toStdString();
        const QString path = screenshotPath(name);
        ASSERT_TRUE(editor.grab().save(path)) << path.toStdString();
        EXPECT_GT(QFileInfo(path).size(), 5000);
    }
}
