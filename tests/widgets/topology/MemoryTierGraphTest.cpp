// The memory tier on graph platforms and in the platform thumbnail (#17): the graph editor hangs
// the project's tier under the graph as the stack drawing does (boxes under every device, one
// link per NPU, the served NPUs' boxes found by pointing), follows the document's memory edits
// and keeps the tier across graph edits; the New Project gallery's thumbnail draws graph
// platforms and the tier of either kind.
#include "GeneratedGraph.h"
#include "topology/GraphEditor.h"
#include "topology/GraphLayout.h"
#include "topology/GraphView.h"
#include "topology/MemoryTierLayout.h"
#include "topology/MemoryTierPainter.h"
#include "topology/PlatformThumbnail.h"
#include "topology/TopologyEditor.h"
#include "topology/TopologyPresets.h"

#include <QDir>
#include <QGraphicsItem>
#include <QImage>
#include <QPainter>
#include <QTest>
#include <QUndoStack>
#include <algorithm>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

RemoteMemoryConfig pooled(int groups) {
    RemoteMemoryConfig m;
    m.type = RemoteMemoryType::Pooled;
    m.bandwidthBytesPerNs = 100;
    m.fabricBytesPerNs = 256;
    m.latencyNs = 1000;
    m.groups = groups;
    return m;
}

RemoteMemoryConfig perNpu() {
    RemoteMemoryConfig m;
    m.type = RemoteMemoryType::PerNpuMemoryExpansion;
    m.bandwidthBytesPerNs = 100;
    m.latencyNs = 500;
    return m;
}

double lowestDevice(const std::vector<QPointF>& positions) {
    double y = -1e300;
    for (const QPointF& p : positions)
        y = std::max(y, p.y());
    return y;
}

// Pixels of the tier's magenta family (its boxes, fabric and links): red and blue well above
// green. The network's own colours (blues, orange, greys) are not.
int tierPixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += c.red() > c.green() + 40 && c.blue() > c.green() + 20;
        }
    return n;
}

int drawnPixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += image.pixel(x, y) != qRgb(255, 255, 255);
    return n;
}

// The smallest rectangle holding every pixel that is not white.
QRect drawnBounds(const QImage& image) {
    QRect r;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (image.pixel(x, y) != qRgb(255, 255, 255))
                r |= QRect(x, y, 1, 1);
    return r;
}

QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}

} // namespace

// A 4x4 mesh with 16 pooled groups: the fabric and the 16 groups under the lowest device, one
// port line from each NPU's own centre and one line per group.
TEST(MemoryTierGraph, PooledTierHangsUnderTheGraph) {
    const PlatformSpec platform = graphPlatform(generatedGraph("mesh2d", {4, 4}));
    const std::vector<QPointF> positions = layoutGraph(platform).positions;
    GraphView view;
    view.resize(800, 600);
    view.setMemory(pooled(16));
    EXPECT_EQ(view.memoryTier(), nullptr) << "no graph yet";
    view.setGraph(*platform.graph, positions, {});
    const MemoryTierLayout* tier = view.memoryTier();
    ASSERT_NE(tier, nullptr);
    EXPECT_EQ(tier->deviceCount(), 16);
    ASSERT_EQ(tier->boxes().size(), 16u);
    const double bottom = lowestDevice(positions);
    EXPECT_GT(tier->fabric().top(), bottom);
    for (const auto& box : tier->boxes())
        EXPECT_GT(box.rect.top(), tier->fabric().bottom());
    ASSERT_EQ(tier->links().size(), 32u);
    std::vector<QPointF> starts;
    for (size_t i = 0; i < 16; ++i)
        starts.push_back(tier->links()[i].p1());
    for (int npu = 0; npu < 16; ++npu)
        EXPECT_NE(std::find(starts.begin(), starts.end(), positions[static_cast<size_t>(npu)]),
                  starts.end())
            << "NPU " << npu << " has its port line";
    // The scene holds the tier: fitting the view shows it.
    EXPECT_TRUE(view.sceneRect().contains(tier->band()));

    // Kept across a new graph; gone with memory type none.
    view.setGraph(*platform.graph, positions, {});
    ASSERT_NE(view.memoryTier(), nullptr);
    EXPECT_EQ(view.memoryTier()->boxes().size(), 16u);
    view.setMemory(RemoteMemoryConfig{});
    EXPECT_EQ(view.memoryTier(), nullptr);
}

// A new graph and a new memory at once (the editor after an undo that changes both): one call,
// and the tier drawn is the new memory's under the new graph.
TEST(MemoryTierGraph, NewGraphAndMemoryTogetherDrawTheNewTierUnderTheNewGraph) {
    const PlatformSpec small = graphPlatform(generatedGraph("mesh2d", {2, 2}));
    const PlatformSpec large = graphPlatform(generatedGraph("mesh2d", {4, 4}));
    GraphView view;
    view.resize(800, 600);
    view.setGraph(*small.graph, layoutGraph(small).positions, {}, {}, pooled(2));
    ASSERT_NE(view.memoryTier(), nullptr);
    EXPECT_EQ(view.memoryTier()->boxes().size(), 2u);
    const std::vector<QPointF> positions = layoutGraph(large).positions;
    view.setGraph(*large.graph, positions, {}, {}, pooled(8));
    const MemoryTierLayout* tier = view.memoryTier();
    ASSERT_NE(tier, nullptr);
    EXPECT_EQ(tier->deviceCount(), 8);
    EXPECT_EQ(tier->boxes().size(), 8u);
    EXPECT_EQ(tier->links().size(), 16u + 8u)
        << "a port line from each of the 16 NPUs, one per group";
    EXPECT_GT(tier->fabric().top(), lowestDevice(positions));
    EXPECT_TRUE(view.sceneRect().contains(tier->band()));
    view.setGraph(*large.graph, positions, {}, {}, RemoteMemoryConfig{});
    EXPECT_EQ(view.memoryTier(), nullptr);
}

// Per NPU: a box under each NPU of the graph; pointing at NPU 5's box finds it, the groups'
// boxes of a pooled tier are found as boxes.
TEST(MemoryTierGraph, PointingFindsTheNpusMemory) {
    const PlatformSpec platform = graphPlatform(generatedGraph("mesh2d", {4, 4}));
    const std::vector<QPointF> positions = layoutGraph(platform).positions;
    const NpuSites sites = NpuSites::of(positions, 16);
    const MemoryTierLayout tier(sites, perNpu());
    ASSERT_TRUE(tier.present());
    EXPECT_TRUE(tier.boxes().empty());
    const QPointF under5 = MemoryTierLayout::npuMemoryRect(positions[5]).center();
    EXPECT_EQ(tier.hitTest(sites, under5),
              (MemoryTierLayout::Hit{MemoryTierLayout::Hit::Part::NpuMemory, 5}));
    EXPECT_EQ(tier.hitTest(sites, positions[5] - QPointF(0, 16)).part,
              MemoryTierLayout::Hit::Part::None);
    const MemoryTierLayout groups(sites, pooled(4));
    EXPECT_EQ(groups.hitTest(sites, groups.boxes()[2].rect.center()),
              (MemoryTierLayout::Hit{MemoryTierLayout::Hit::Part::Box, 2}));
    EXPECT_EQ(groups.hitTest(sites, groups.fabric().center()).part,
              MemoryTierLayout::Hit::Part::Fabric);
}

// In the editor: adding the tier (one undoable step) draws it under the graph; undo removes it.
TEST(MemoryTierGraph, TheEditorsTierFollowsTheDocument) {
    TopologyEditor editor;
    editor.resize(1200, 760);
    editor.setPlatform(graphPlatform(generatedGraph("fattree", {4})));
    auto* view = editor.graphEditor()->view();
    ASSERT_NE(view, nullptr);
    EXPECT_EQ(view->memoryTier(), nullptr);
    editor.setMemory(pooled(8));
    ASSERT_NE(view->memoryTier(), nullptr);
    EXPECT_EQ(view->memoryTier()->boxes().size(), 8u);
    editor.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
    editor.grab().save(screenshotPath(QStringLiteral("graph-fattree-pooled-memory.png")));
    editor.setMemory(RemoteMemoryConfig{});
    EXPECT_EQ(view->memoryTier(), nullptr);
}

// The gallery's picture: a graph platform is drawn (it was a blank image), and a memory tier
// adds its colour to both kinds of platform; without one, the stack's picture is unchanged.
TEST(PlatformThumbnail, DrawsGraphsAndTheMemoryTier) {
    const QSize size(288, 192);
    PlatformSpec ring;
    ring.dimensions = {astraDimension(BlockKind::Ring, 8, 100, 500)};
    const QImage plain = platformThumbnail(ring, RemoteMemoryConfig{}, size);
    EXPECT_GT(drawnPixels(plain), 500);
    EXPECT_EQ(tierPixels(plain), 0);
    const QImage withTier = platformThumbnail(ring, pooled(8), size);
    EXPECT_GT(tierPixels(withTier), 200);

    const PlatformSpec tree = graphPlatform(generatedGraph("fattree", {4}));
    const QImage graph = platformThumbnail(tree, RemoteMemoryConfig{}, size);
    EXPECT_GT(drawnPixels(graph), 1000);
    EXPECT_EQ(tierPixels(graph), 0);
    const QImage graphTier = platformThumbnail(tree, perNpu(), size);
    EXPECT_GT(tierPixels(graphTier), 50);
    QImage sheet(size.width() * 2, size.height() * 2, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&sheet);
    p.drawImage(0, 0, plain);
    p.drawImage(size.width(), 0, withTier);
    p.drawImage(0, size.height(), graph);
    p.drawImage(size.width(), size.height(), graphTier);
    p.end();
    sheet.save(screenshotPath(QStringLiteral("platform-thumbnails.png")));
}

TEST(PlatformThumbnail, TorusWrapLinksAreStubsOutOfTheGridAsInTheEditor) {
    // The same 4 x 4 grid with and without wrap-around links: a line across the whole row would
    // lie on the row's own links (nothing to tell the two apart); the stubs stick out of the grid.
    const QSize size(288, 192);
    const QImage mesh =
        platformThumbnail(graphPlatform(generatedGraph("mesh2d", {4, 4})), {}, size);
    const QImage torus =
        platformThumbnail(graphPlatform(generatedGraph("torus2d", {4, 4})), {}, size);
    const QRect inside = drawnBounds(mesh);
    const QRect outside = drawnBounds(torus);
    ASSERT_FALSE(inside.isEmpty());
    EXPECT_TRUE(outside.contains(inside));
    EXPECT_GT(outside.width(), inside.width());
    EXPECT_GT(outside.height(), inside.height());
    QImage sheet(size.width() * 2, size.height(), QImage::Format_ARGB32_Premultiplied);
    QPainter p(&sheet);
    p.drawImage(0, 0, mesh);
    p.drawImage(size.width(), 0, torus);
    p.end();
    sheet.save(screenshotPath(QStringLiteral("platform-thumbnails-mesh-torus.png")));
}
