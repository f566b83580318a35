// "Watch a collective" on graph platforms (issue #53, Teacher 2): a 4 x 4 mesh is drawn as the
// mesh the graph editor draws, not as "Ring x16", and a message that the engine routes over
// several hops walks those hops; on a rail cluster a message between two GPUs of one node goes
// up to the node's switch and down again. Screenshots: watch-graph-mesh4x4.png,
// watch-graph-rail.png under screenshots/.
#include "app/gui/GuiTestSupport.h"
#include "graph/GraphGenerators.h"
#include "simulation/Simulation.h"
#include "topology/CollectiveAnimationView.h"
#include "topology/GraphLayout.h"
#include "topology/Topology.h"
#include "widgets/topology/RecordedAllReduce.h"

#include <QTest>
#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

SimulationSpec graphAllReduce(const char* generator, std::vector<int64_t> size) {
    SimulationSpec spec =
        test::recordedAllReduce({golden::dim(BlockKind::Ring, 2)}, "ring", golden::kMiB);
    GraphGeneratorSpec g;
    g.name = generator;
    g.size = std::move(size);
    g.bandwidthBytesPerSecond = 50e9;
    g.latencyNs = 500;
    spec.platform = graphPlatform(generateGraph(g));
    return spec;
}

/// The point at `fraction` of the polyline's length.
QPointF alongPolyline(const std::vector<QPointF>& points, double fraction) {
    double length = 0;
    for (size_t i = 1; i < points.size(); ++i)
        length += QLineF(points[i - 1], points[i]).length();
    double s = fraction * length;
    for (size_t i = 1; i < points.size(); ++i) {
        const double segment = QLineF(points[i - 1], points[i]).length();
        if (s <= segment)
            return points[i - 1] + (points[i] - points[i - 1]) * (s / segment);
        s -= segment;
    }
    return points.back();
}

/// The engine's route from src to dst as the drawing's device positions.
std::vector<QPointF> routePoints(const PlatformSpec& platform,
                                 const std::vector<QPointF>& positions, int src, int dst) {
    const Topology topology(platform);
    std::vector<int32_t> links;
    topology.appendRoute(src, dst, links);
    std::vector<QPointF> points{positions[static_cast<size_t>(src)]};
    for (const int32_t id : links)
        points.push_back(positions[static_cast<size_t>(topology.link(id).dst)]);
    return points;
}

/// `run` shown in `view` at 720 x 640: its graph drawing, or null when the run recorded no
/// message, no window appeared or the platform was not drawn as a graph.
const GraphDrawing* showGraphRun(CollectiveAnimationView& view, const SimulationSpec& spec,
                                 std::shared_ptr<const RunResult> run) {
    if (run->transfers.empty())
        return nullptr;
    view.resize(720, 640);
    view.setRun(spec.platform, std::move(run));
    view.show();
    return QTest::qWaitForWindowExposed(&view) ? view.networkView()->graphDrawing() : nullptr;
}

bool near(QPointF a, QPointF b) {
    return QLineF(a, b).length() < 1e-6;
}

bool hasLink(const AnimationFrame& frame, QPointF a, QPointF b) {
    return std::any_of(frame.links.begin(), frame.links.end(), [&](const QLineF& l) {
        return (near(l.p1(), a) && near(l.p2(), b)) || (near(l.p1(), b) && near(l.p2(), a));
    });
}

} // namespace

TEST(WatchGraph, MeshIsDrawnAsTheEditorDrawsItAndMessagesWalkTheirHops) {
    const SimulationSpec spec = graphAllReduce("mesh2d", {4, 4});
    const auto run = runSimulation(spec);
    CollectiveAnimationView view;
    const GraphDrawing* graph = showGraphRun(view, spec, run);
    ASSERT_NE(graph, nullptr) << "a graph platform is drawn as its logical ring";

    // The drawing is the graph's: the editor's grid positions, 16 NPUs and 24 links.
    const std::vector<QPointF> editor = layoutGraph(spec.platform).positions;
    ASSERT_EQ(graph->positions().size(), editor.size());
    for (size_t d = 0; d < editor.size(); ++d)
        EXPECT_TRUE(near(graph->position(static_cast<int>(d)), editor[d])) << "device " << d;
    EXPECT_EQ(graph->segments().size(), 24u);

    // The ring over 16 NPUs closes from NPU 15 back to NPU 0: six hops across the mesh.
    const auto longest = std::max_element(
        run->transfers.begin(), run->transfers.end(), [&](const auto& a, const auto& b) {
            return routePoints(spec.platform, editor, a.src, a.dst).size() <
                   routePoints(spec.platform, editor, b.src, b.dst).size();
        });
    const std::vector<QPointF> hops =
        routePoints(spec.platform, editor, longest->src, longest->dst);
    ASSERT_GE(hops.size(), 4u) << "no message crosses more than two hops";
    for (const double f : {0.25, 0.5, 0.8}) {
        const int64_t t =
            longest->start.ps() +
            static_cast<int64_t>(f * static_cast<double>((longest->end - longest->start).ps()));
        view.setTime(t);
        const AnimationFrame& frame = view.frame();
        const QPointF expected = alongPolyline(hops, f);
        EXPECT_TRUE(std::any_of(frame.chunks.begin(), frame.chunks.end(),
                                [&](QPointF c) { return QLineF(c, expected).length() < 1e-3; }))
            << "no chunk at " << f << " of the route " << longest->src << " -> " << longest->dst;
        for (size_t i = 1; i < hops.size(); ++i)
            EXPECT_TRUE(hasLink(frame, hops[i - 1], hops[i])) << "hop " << i;
    }
    gui::test::saveScreenshot(view, QStringLiteral("watch-graph-mesh4x4.png"));
}

TEST(WatchGraph, RailMessagesGoThroughTheNodeSwitch) {
    const SimulationSpec spec = graphAllReduce("rail", {2, 4}); // 2 nodes of 4 GPUs
    const auto run = runSimulation(spec);
    CollectiveAnimationView view;
    const GraphDrawing* graph = showGraphRun(view, spec, run);
    ASSERT_NE(graph, nullptr);
    EXPECT_EQ(graph->deviceCount(), spec.platform.graph->deviceCount());

    // NPU 0 to NPU 1, in one node: up to a switch, down to NPU 1.
    const auto message = std::find_if(run->transfers.begin(), run->transfers.end(),
                                      [](const ChunkTransfer& t) { return t.src == 0; });
    ASSERT_NE(message, run->transfers.end());
    const std::vector<int> devices = graph->route(message->src, message->dst);
    ASSERT_EQ(devices.size(), 3u);
    EXPECT_GE(devices[1], spec.platform.graph->npus) << "the middle device is not a switch";
    view.setTime((message->start.ps() + message->end.ps()) / 2);
    const AnimationFrame& frame = view.frame();
    EXPECT_TRUE(hasLink(frame, graph->position(devices[0]), graph->position(devices[1])));
    EXPECT_TRUE(hasLink(frame, graph->position(devices[1]), graph->position(devices[2])));
    gui::test::saveScreenshot(view, QStringLiteral("watch-graph-rail.png"));
}
