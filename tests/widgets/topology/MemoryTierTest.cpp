// The memory tier under the NPUs in the topology editor (#17): its closed-form figures, what the
// drawing shows per type (device boxes, fabric, links), selection and hover, edits as undoable
// steps with the reader's messages, screenshots and the drawing's cost at 4,096 NPUs.
#include "TestPaths.h"
#include "config/ConfigSection.h"
#include "config/QuantityEdit.h"
#include "core/Error.h"
#include "project/ProjectFile.h"
#include "support/MachineTime.h"
#include "topology/MemoryTierMath.h"
#include "topology/MemoryTierPanel.h"
#include "topology/NetworkView.h"
#include "topology/TopologyDocument.h"
#include "topology/TopologyEditor.h"
#include "topology/TopologyFigures.h"
#include "topology/TopologyPresets.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QTest>
#include <QUndoStack>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

constexpr double kGBps = 1e9;

PlatformSpec ringTorus(int x, int y) {
    PlatformSpec p;
    p.dimensions = {astraDimension(BlockKind::Ring, x, 100, 500)};
    if (y > 1)
        p.dimensions.push_back(astraDimension(BlockKind::Ring, y, 50, 1000));
    return p;
}

RemoteMemoryConfig memoryOf(RemoteMemoryType type, uint64_t gbps, int a = 0, int b = 0) {
    RemoteMemoryConfig m;
    m.type = type;
    m.bandwidthBytesPerNs = gbps;
    m.latencyNs = 500;
    if (type == RemoteMemoryType::PerNodeMemoryExpansion) {
        m.numNodes = a;
        m.numNpusPerNode = b;
    } else if (type == RemoteMemoryType::Pooled) {
        m.groups = a;
        m.fabricBytesPerNs = static_cast<uint64_t>(b);
    }
    return m;
}

QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}

QImage render(NetworkView& view) {
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    view.render(&image);
    return image;
}

} // namespace

// Devices and bandwidth per NPU with all NPUs accessing (MemoryTierMath.h):
//   per-npu B; per-node B / p; pool B / N; pooled min(F, B / ceil(N / G)).
TEST(MemoryTierMath, DevicesAndBandwidthPerNpuFollowTheClosedForms) {
    using T = RemoteMemoryType;
    EXPECT_EQ(memoryDeviceCount(memoryOf(T::NoMemoryExpansion, 0), 16), 0);
    EXPECT_EQ(memoryDeviceCount(memoryOf(T::PerNpuMemoryExpansion, 100), 16), 16);
    EXPECT_DOUBLE_EQ(memoryBandwidthPerNpu(memoryOf(T::PerNpuMemoryExpansion, 100), 16),
                     100 * kGBps);
    const RemoteMemoryConfig perNode = memoryOf(T::PerNodeMemoryExpansion, 100, 4, 4);
    EXPECT_EQ(memoryDeviceCount(perNode, 16), 4);
    EXPECT_EQ(memoryDeviceOf(perNode, 16, 13), 3); // 13 / 4
    EXPECT_DOUBLE_EQ(memoryBandwidthPerNpu(perNode, 16), 25 * kGBps);
    EXPECT_DOUBLE_EQ(memoryBandwidthPerNpu(memoryOf(T::MemoryPool, 100), 16), 6.25 * kGBps);
    // Pooled, 32 NPUs: 16 groups -> two NPUs per group, 50 GB/s; ports of 40 GB/s bound it.
    const RemoteMemoryConfig pooled = memoryOf(T::Pooled, 100, 16, 256);
    EXPECT_EQ(memoryDeviceCount(pooled, 32), 16);
    EXPECT_EQ(memoryDeviceOf(pooled, 32, 21), 5); // 21 mod 16
    EXPECT_DOUBLE_EQ(memoryBandwidthPerNpu(pooled, 32), 50 * kGBps);
    EXPECT_DOUBLE_EQ(memoryBandwidthPerNpu(memoryOf(T::Pooled, 100, 16, 40), 32), 40 * kGBps);
    EXPECT_DOUBLE_EQ(memoryBandwidthPerNpu(memoryOf(T::Pooled, 100, 5, 256), 16),
                     25 * kGBps); // ceil(16 / 5) = 4 NPUs share a group
}

TEST(MemoryTierMath, DefaultsFillWhatATypeNeedsAndKeepTheRest) {
    RemoteMemoryConfig m;
    m.type = RemoteMemoryType::PerNodeMemoryExpansion;
    const RemoteMemoryConfig perNode = withMemoryDefaults(m, 20);
    EXPECT_EQ(perNode.bandwidthBytesPerNs, 100u);
    EXPECT_EQ(perNode.numNpusPerNode, 8);
    EXPECT_EQ(perNode.numNodes, 3); // ceil(20 / 8)
    PlatformSpec ring20;
    ring20.dimensions = {DimensionSpec{BlockKind::Ring, 20, 50e9, 500}};
    EXPECT_TRUE(memoryProblems(perNode, ring20).empty());
    m.type = RemoteMemoryType::Pooled;
    m.bandwidthBytesPerNs = 7;
    const RemoteMemoryConfig pooled = withMemoryDefaults(m, 64);
    EXPECT_EQ(pooled.bandwidthBytesPerNs, 7u) << "a value already set is kept";
    EXPECT_EQ(pooled.groups, 64);
    EXPECT_EQ(pooled.fabricBytesPerNs, 256u);
}

// The editor's messages are the project reader's: each problem the editor lists is found, key
// and words, in what loadProject says of the same memory section.
TEST(MemoryTierMath, ProblemsAreTheProjectReadersWords) {
    const std::string path =
        std::string(ASTROLABE_SOURCE_DIR) + "/projects/case-studies/memory/platform.yaml";
    std::ifstream in(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string base = buffer.str();
    const size_t from = base.find("memory:\n");
    const size_t to = base.find("workload:\n");
    ASSERT_NE(from, std::string::npos);
    ASSERT_NE(to, std::string::npos);
    struct Case {
        std::string yaml;
        RemoteMemoryConfig memory;
    };
    RemoteMemoryConfig perNodeZero = memoryOf(RemoteMemoryType::PerNodeMemoryExpansion, 50, 0, 0);
    RemoteMemoryConfig perNodeShort = memoryOf(RemoteMemoryType::PerNodeMemoryExpansion, 50, 2, 8);
    RemoteMemoryConfig pooled = memoryOf(RemoteMemoryType::Pooled, 50, 0, 0);
    RemoteMemoryConfig pooledRing = memoryOf(RemoteMemoryType::Pooled, 50, 256, 256);
    pooledRing.switchDimension = 2;
    const Case cases[] = {
        {"memory:\n  type: per-node\n  bandwidth: 50 GB/s\n  latency: 500 ns\n", perNodeZero},
        {"memory:\n  type: per-node\n  bandwidth: 50 GB/s\n  latency: 500 ns\n  num-nodes: 2\n"
         "  npus-per-node: 8\n",
         perNodeShort},
        {"memory:\n  type: pooled\n  bandwidth: 50 GB/s\n  latency: 500 ns\n", pooled},
        {"memory:\n  type: pooled\n  bandwidth: 50 GB/s\n  latency: 500 ns\n  groups: 256\n"
         "  fabric-bandwidth: 256 GB/s\n  switch-dimension: 2\n",
         pooledRing},
    };
    // The case study's platform: two Switch dimensions of 16 (256 NPUs).
    PlatformSpec platform;
    platform.dimensions = {DimensionSpec{BlockKind::Switch, 16, 900e9, 500},
                           DimensionSpec{BlockKind::Switch, 16, 400e9, 2000}};
    for (const Case& c : cases) {
        const std::string text = base.substr(0, from) + c.yaml + base.substr(to);
        std::string said;
        try {
            parseProject(text, path);
        } catch (const Error& e) {
            said = e.what();
        }
        const std::vector<std::string> problems = memoryProblems(c.memory, platform);
        ASSERT_FALSE(problems.empty()) << c.yaml;
        for (const std::string& p : problems) {
            const size_t colon = p.find(": ");
            const std::string key = p.substr(0, colon);
            std::string words = p.substr(colon + 2);
            words = words.substr(0, words.find(" (e.g."));
            EXPECT_NE(said.find(key), std::string::npos) << p << "\nreader said:\n" << said;
            EXPECT_NE(said.find(words), std::string::npos) << p << "\nreader said:\n" << said;
        }
    }
}

TEST(MemoryTierDrawing, NoMemoryDrawsExactlyWhatItDidBefore) {
    NetworkView plain;
    NetworkView withNone;
    for (NetworkView* v : {&plain, &withNone}) {
        v->resize(700, 500);
        v->setPlatform(ringTorus(4, 4));
    }
    withNone.setMemory(RemoteMemoryConfig{});
    EXPECT_FALSE(withNone.memoryTier().present());
    EXPECT_EQ(withNone.drawingBounds(), withNone.networkLayout().bounds());
    EXPECT_EQ(render(plain), render(withNone));
    EXPECT_EQ(withNone.lastMemoryBoxes(), 0);
}

TEST(MemoryTierDrawing, DeviceCountsAndLinksPerType) {
    using T = RemoteMemoryType;
    NetworkView view;
    view.resize(900, 700);
    view.setPlatform(ringTorus(4, 4)); // 16 NPUs
    const NetworkLayout& layout = view.networkLayout();

    // Per node, 4 nodes of 4: four boxes; NPU r linked to box r / 4.
    view.setMemory(memoryOf(T::PerNodeMemoryExpansion, 100, 4, 4));
    const MemoryTierLayout& perNode = view.memoryTier();
    ASSERT_EQ(perNode.boxes().size(), 4u);
    EXPECT_EQ(perNode.deviceCount(), 4);
    ASSERT_EQ(perNode.links().size(), 16u);
    for (int r = 0; r < 16; ++r) {
        const QLineF& link = perNode.links()[static_cast<size_t>(r)];
        EXPECT_EQ(link.p1(), layout.npuPosition(r));
        EXPECT_DOUBLE_EQ(link.p2().x(),
                         perNode.boxes()[static_cast<size_t>(r / 4)].rect.center().x());
    }
    for (const auto& box : perNode.boxes())
        EXPECT_GT(box.rect.top(), layout.bounds().bottom()) << "under the NPUs";
    render(view);
    EXPECT_EQ(view.lastMemoryBoxes(), 4);
    EXPECT_TRUE(view.drawingBounds().contains(perNode.band())) << "fitted with the tier";

    // Pooled, 16 groups: the fabric under the NPUs, the groups under the fabric; 16 ports and
    // 16 group links.
    view.setMemory(memoryOf(T::Pooled, 100, 16, 256));
    const MemoryTierLayout& pooled = view.memoryTier();
    ASSERT_EQ(pooled.boxes().size(), 16u);
    EXPECT_EQ(pooled.devicesPerBox(), 1);
    EXPECT_GT(pooled.fabric().top(), layout.bounds().bottom());
    for (const auto& box : pooled.boxes())
        EXPECT_GT(box.rect.top(), pooled.fabric().bottom());
    EXPECT_EQ(pooled.links().size(), 32u);
    render(view);
    EXPECT_EQ(view.lastMemoryBoxes(), 16);

    view.setMemory(memoryOf(T::MemoryPool, 100));
    EXPECT_EQ(view.memoryTier().boxes().size(), 1u);
    EXPECT_EQ(view.memoryTier().links().size(), 16u);

    // Per NPU: a box under each NPU, none in a band.
    view.setMemory(memoryOf(T::PerNpuMemoryExpansion, 100));
    EXPECT_TRUE(view.memoryTier().boxes().empty());
    render(view);
    EXPECT_EQ(view.collapseLevel(), 0);
    EXPECT_EQ(view.lastMemoryBoxes(), 16);
    const QRectF box = MemoryTierLayout::npuMemoryRect(layout.npuPosition(5));
    EXPECT_GT(box.top(), layout.npuPosition(5).y() + NetworkLayout::kNodeRadius);
}

// Summaries at 4,096 NPUs: at most 32 boxes (each for 128 groups or 16 nodes), a comb of 64
// port lines, one link per per-node box.
TEST(MemoryTierDrawing, LargePlatformsAreSummarised) {
    NetworkView view;
    view.resize(1000, 750);
    view.setPlatform(ringTorus(64, 64));
    view.setMemory(memoryOf(RemoteMemoryType::Pooled, 100, 4096, 256));
    EXPECT_EQ(view.memoryTier().deviceCount(), 4096);
    EXPECT_EQ(view.memoryTier().boxes().size(), 32u);
    EXPECT_EQ(view.memoryTier().devicesPerBox(), 128);
    EXPECT_EQ(view.memoryTier().links().size(), 64u + 32u) << "a comb of 64 ports, 32 boxes";
    view.setMemory(memoryOf(RemoteMemoryType::PerNodeMemoryExpansion, 100, 512, 8));
    EXPECT_EQ(view.memoryTier().boxes().size(), 32u);
    EXPECT_EQ(view.memoryTier().devicesPerBox(), 16);
    EXPECT_EQ(view.memoryTier().links().size(), 32u);
}

TEST(MemoryTierEditor, ClickingATierSelectsItAndShowsItsSettings) {
    TopologyEditor editor;
    editor.resize(1280, 800);
    editor.setPlatform(ringTorus(4, 4));
    editor.setMemory(memoryOf(RemoteMemoryType::Pooled, 100, 16, 256));
    editor.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
    NetworkView* view = editor.networkView();
    EXPECT_FALSE(editor.memoryPanel()->section()->isVisible());
    const QPoint group3 =
        view->sceneToWidget(view->memoryTier().boxes().at(3).rect.center()).toPoint();
    QTest::mouseMove(view, group3);
    EXPECT_EQ(view->memoryHovered().part, MemoryTierLayout::Hit::Part::Box);
    QTest::mouseClick(view, Qt::LeftButton, {}, group3);
    EXPECT_TRUE(editor.document()->memorySelected());
    EXPECT_TRUE(view->memorySelected());
    EXPECT_TRUE(editor.memoryPanel()->section()->isVisible());
    EXPECT_EQ(editor.document()->selectedDimension(), -1);
    EXPECT_EQ(editor.undoStack()->count(), 0) << "selecting is no edit";
    // Selecting a dimension deselects the tier.
    editor.document()->setSelectedDimension(1);
    EXPECT_FALSE(editor.document()->memorySelected());
    EXPECT_FALSE(view->memorySelected());
}

TEST(MemoryTierEditor, AddEditUndoRedoRemoveAreOneStepEach) {
    TopologyEditor editor;
    editor.setPlatform(ringTorus(8, 1));
    QUndoStack* undo = editor.undoStack();
    ASSERT_TRUE(editor.addMemoryAction()->isEnabled());
    EXPECT_TRUE(editor.memoryPanel()->isHidden()) << "no tier, no panel: the editor as before";
    editor.addMemoryAction()->trigger();
    EXPECT_FALSE(editor.memoryPanel()->isHidden());
    EXPECT_EQ(editor.memory().type, RemoteMemoryType::PerNpuMemoryExpansion);
    EXPECT_EQ(editor.memory().bandwidthBytesPerNs, 100u);
    EXPECT_EQ(undo->count(), 1);
    EXPECT_TRUE(editor.document()->memorySelected()) << "a new tier shows its settings";
    EXPECT_FALSE(editor.addMemoryAction()->isEnabled());
    EXPECT_TRUE(editor.networkView()->memoryTier().present());
    EXPECT_TRUE(editor.figures()->text().contains(QStringLiteral("memory tier")));

    // The schema's own fields: a bandwidth typed with its unit.
    ConfigSection* section = editor.memoryPanel()->section();
    auto* bandwidth = qobject_cast<QuantityEdit*>(section->editorForKey("memory.bandwidth"));
    ASSERT_NE(bandwidth, nullptr);
    bandwidth->setTextAsTyped(QStringLiteral("200 GB/s"));
    EXPECT_EQ(editor.memory().bandwidthBytesPerNs, 200u);
    EXPECT_EQ(undo->count(), 2);
    // A fraction of a GB/s is refused with the schema's message, and nothing is recorded.
    bandwidth->setTextAsTyped(QStringLiteral("12.5 GB/s"));
    EXPECT_EQ(editor.memory().bandwidthBytesPerNs, 200u);
    EXPECT_TRUE(bandwidth->errorMessage().contains(QStringLiteral("whole number of GB/s")))
        << bandwidth->errorMessage().toStdString();
    EXPECT_EQ(undo->count(), 2);

    // Another type through the type box: per node gets nodes filled in for 8 NPUs.
    auto* type = qobject_cast<QComboBox*>(section->editorForKey("memory.type"));
    ASSERT_NE(type, nullptr);
    type->setCurrentIndex(static_cast<int>(RemoteMemoryType::PerNodeMemoryExpansion));
    emit type->activated(type->currentIndex());
    EXPECT_EQ(editor.memory().type, RemoteMemoryType::PerNodeMemoryExpansion);
    EXPECT_EQ(editor.memory().numNodes, 1);
    EXPECT_EQ(editor.memory().numNpusPerNode, 8);
    EXPECT_EQ(editor.networkView()->memoryTier().boxes().size(), 1u);
    EXPECT_EQ(undo->count(), 3);

    undo->undo();
    EXPECT_EQ(editor.memory().type, RemoteMemoryType::PerNpuMemoryExpansion);
    EXPECT_EQ(editor.memory().bandwidthBytesPerNs, 200u);
    undo->undo();
    EXPECT_EQ(editor.memory().bandwidthBytesPerNs, 100u);
    undo->redo();
    undo->redo();
    EXPECT_EQ(editor.memory().type, RemoteMemoryType::PerNodeMemoryExpansion);

    editor.removeMemoryAction()->trigger();
    EXPECT_EQ(editor.memory().type, RemoteMemoryType::NoMemoryExpansion);
    EXPECT_FALSE(editor.networkView()->memoryTier().present());
    EXPECT_FALSE(editor.document()->memorySelected());
    EXPECT_TRUE(editor.memoryPanel()->isHidden());
    EXPECT_EQ(undo->count(), 4);
    undo->undo();
    EXPECT_EQ(editor.memory().numNodes, 1);
}

TEST(MemoryTierEditor, BadCountsAreReportedInTheReadersWords) {
    TopologyEditor editor;
    editor.setPlatform(ringTorus(4, 4));
    editor.setMemory(memoryOf(RemoteMemoryType::PerNodeMemoryExpansion, 100, 2, 4));
    EXPECT_TRUE(editor.figures()->showsProblems());
    EXPECT_TRUE(editor.memoryPanel()->problemsLabel()->text().contains(QStringLiteral(
        "memory.num-nodes: num-nodes x num-npus-per-node = 8 covers fewer NPUs than the "
        "platform's 16")))
        << editor.memoryPanel()->problemsLabel()->text().toStdString();
    editor.setMemory(memoryOf(RemoteMemoryType::PerNodeMemoryExpansion, 100, 4, 4));
    EXPECT_FALSE(editor.figures()->showsProblems());
}

namespace {
void saveEditorWithMemory(const PlatformSpec& platform, const RemoteMemoryConfig& memory,
                          const QString& name, int expectedBoxes, int hoverBox = -1) {
    TopologyEditor editor;
    editor.resize(1280, 800);
    editor.setPlatform(platform);
    editor.setMemory(memory);
    editor.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
    if (hoverBox >= 0) {
        NetworkView* view = editor.networkView();
        QTest::mouseMove(
            view,
            view->sceneToWidget(view->memoryTier().boxes().at(hoverBox).rect.center()).toPoint());
        EXPECT_EQ(view->memoryHovered().index, hoverBox);
    }
    const QString path = screenshotPath(name);
    ASSERT_TRUE(editor.grab().save(path)) << path.toStdString();
    if (expectedBoxes >= 0) {
        EXPECT_EQ(editor.networkView()->lastMemoryBoxes(), expectedBoxes);
    }
    EXPECT_GT(QFileInfo(path).size(), 5000);
}
} // namespace

TEST(TopologyScreenshots, MemoryTiers) {
    saveEditorWithMemory(ringTorus(4, 4), memoryOf(RemoteMemoryType::Pooled, 100, 16, 256),
                         QStringLiteral("topology-memory-pooled-4x4.png"), 16);
    saveEditorWithMemory(ringTorus(8, 1),
                         memoryOf(RemoteMemoryType::PerNodeMemoryExpansion, 100, 2, 4),
                         QStringLiteral("topology-memory-per-node-ring8.png"), 2);
    // 4,096 NPUs at fit: a memory bar at the bottom of every tile.
    saveEditorWithMemory(
        findTopologyPreset(QStringLiteral("TPU-style 3-D torus (Ring 16 x Ring 16 x Ring 16)"))
            ->platform,
        memoryOf(RemoteMemoryType::PerNpuMemoryExpansion, 100),
        QStringLiteral("topology-memory-per-npu-4096.png"), -1);
    saveEditorWithMemory(ringTorus(64, 64), memoryOf(RemoteMemoryType::Pooled, 100, 4096, 256),
                         QStringLiteral("topology-memory-pooled-4096.png"), 32);
    // Hovering node 0's memory rings NPUs 0-3 and draws their links over the ring.
    saveEditorWithMemory(ringTorus(8, 1),
                         memoryOf(RemoteMemoryType::PerNodeMemoryExpansion, 100, 2, 4),
                         QStringLiteral("topology-memory-per-node-ring8-hover.png"), 2, 0);
}

// A 4,096-NPU 3-D torus with a memory box under every NPU: the first paint and the zoom
// frames stay within the drawing's budgets (TopologyScreenshots.FirstPaintAndZoomFrames...),
// measured in the GUI thread's own time (OwnClock leaves the machine's pauses out).
TEST(TopologyScreenshots, PerNpuMemoryAt4096NpusKeepsTheFrameBudget) {
    using astrolabe::timing::OwnClock;
    NetworkView view;
    view.resize(1000, 750);
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    const OwnClock clock;
    view.setPlatform(
        findTopologyPreset(QStringLiteral("TPU-style 3-D torus (Ring 16 x Ring 16 x Ring 16)"))
            ->platform);
    view.setMemory(memoryOf(RemoteMemoryType::PerNpuMemoryExpansion, 100));
    view.render(&image);
    const double firstPaintMs = clock.cpuMs();
    const double ownMs = clock.elapsedMs(); // the GUI thread's time without the machine's pauses
    EXPECT_GT(view.lastMemoryBoxes(), 0);
    std::vector<double> frames;
    const QPointF anchor(520, 360);
    for (int i = 0; i < 40; ++i) {
        const OwnClock frame;
        view.zoomBy(i < 20 ? 1.25 : 0.8, anchor);
        view.render(&image);
        frames.push_back(frame.cpuMs());
    }
    std::sort(frames.begin(), frames.end());
    const double median = frames[frames.size() / 2];
    std::printf("[ timing ] 4096 NPUs with per-NPU memory: first paint %.2f ms CPU (%.2f ms "
                "own elapsed); zoom frames median %.2f ms, worst %.2f ms\n",
                firstPaintMs, ownMs, median, frames.back());
    EXPECT_LT(firstPaintMs, 200.0);
    EXPECT_LT(median, 16.0);
}
