// Issue 14, item 8: the critical path keeps the activity's colour visible, the legend lists the
// kinds of the run shown, and the details panel wraps long names between words.
#include "SyntheticRun.h"
#include "TestPaths.h"
#include "project/ProjectFile.h"
#include "simulation/Simulation.h"
#include "spec/SystemConfig.h"
#include "timeline/ColorKey.h"
#include "timeline/RunResultTimelineSource.h"
#include "timeline/TimelineDetailsPanel.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineRenderer.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QMainWindow>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextLayout>
#include <cmath>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {
constexpr int kAxisHeight = 30; // TimelineWidget's axis

/// Two NPUs, each a 100 us compute then a 100 us all-reduce (one ring phase per chunk, two
/// chunks); NPU 1 ends last and both of its nodes are on the critical path.
std::shared_ptr<RunResult> computeAndAllReduceRun(const std::string& computeName = "gemm") {
    auto r = std::make_shared<RunResult>();
    r->name = "compute and all-reduce";
    r->npuCount = 2;
    r->names = {computeName, "all_reduce_grad"};
    const SimTime us = SimTime::fromNs(1000);
    for (int npu = 0; npu < 2; ++npu) {
        const SimTime skew = us * (10 * npu);
        const SimTime computeEnd = skew + us * 100;
        const SimTime end = computeEnd + us * 100;
        r->activities.push_back(
            {skew, computeEnd, npu, ActivityKind::Compute, NodeType::Comp, 1, 0, 0});
        r->activities.push_back(
            {computeEnd, end, npu, ActivityKind::Communication, NodeType::CommColl, 2, 1, 1 << 20});
        r->collectives.push_back(
            {computeEnd, end, npu, 2, CollectiveType::AllReduce, 1 << 20, 2, 0});
        for (int chunk = 0; chunk < 2; ++chunk)
            r->phases.push_back({computeEnd + us * (50 * chunk),
                                 computeEnd + us * (50 * chunk + 50), npu, 2, chunk, 0, 0,
                                 static_cast<uint8_t>(CollectiveKind::AllReduce), 0, 1 << 19});
        NpuSummary s;
        s.npu = npu;
        s.finished = true;
        s.finish = s.wall = end;
        s.gpuTime = s.computeUnion = us * 100;
        s.commUnion = us * 100;
        r->npus.push_back(s);
        r->endTime = std::max(r->endTime, end);
    }
    r->criticalPath = {{1, 1}, {1, 2}};
    return r;
}

std::vector<QString> labels(const std::vector<TimelinePalette::LegendEntry>& entries) {
    std::vector<QString> out;
    for (const auto& entry : entries)
        out.push_back(entry.label);
    return out;
}

QImage renderWidget(const TimelineWidget& widget) {
    QImage image(widget.renderSize(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    widget.render(painter);
    return image;
}

QString screenshotPath(const QString& name) {
    QDir().mkpath(QStringLiteral("screenshots"));
    return QDir(QStringLiteral("screenshots")).absoluteFilePath(name);
}
} // namespace

TEST(TimelineReadability, CriticalPathIsAnOutlineAroundTheActivitysOwnColour) {
    TimelineWidget widget;
    widget.resize(900, 200);
    widget.setSource(std::make_shared<RunResultTimelineSource>(computeAndAllReduceRun()), {});
    widget.show();
    QApplication::processEvents();
    const DisplayRow& row = widget.rowLayout().rows()[1]; // NPU 1: on the critical path
    const int rowTop = kAxisHeight + row.top;
    const SimTime us = SimTime::fromNs(1000);
    const struct {
        Lane lane;
        int64_t startPs, endPs;
        uint8_t key;
    } bars[] = {{Lane::Work, (us * 10).ps(), (us * 110).ps(), colorkey::Compute},
                {Lane::Communication, (us * 110).ps(), (us * 210).ps(),
                 colorkey::forCollective(CollectiveType::AllReduce)}};
    const QRgb outline = TimelinePalette::criticalOutline().rgb();
    for (bool shown : {true, false}) {
        widget.setShowCriticalPath(shown);
        const QImage image = renderWidget(widget);
        for (const auto& bar : bars) {
            const LaneBand band = laneBand(rowTop, row.height, bar.lane);
            const QRgb fill = TimelinePalette::color(bar.key).rgb();
            const int x0 = static_cast<int>(std::lround(widget.mapper().timeToX(bar.startPs)));
            const int x1 = static_cast<int>(std::lround(widget.mapper().timeToX(bar.endPs)));
            const int middle = (x0 + x1) / 2;
            const int w = TimelineRenderer::kCriticalOutlineWidth / 2;
            ASSERT_GT(band.height, 2 * TimelineRenderer::kCriticalOutlineWidth);
            // Inside the outline: the kind's own fill, every row of it.
            for (int y = band.top + w; y < band.top + band.height - w; ++y)
                EXPECT_EQ(image.pixel(middle, y), fill) << "y " << y << " shown " << shown;
            EXPECT_EQ(image.pixel(x0 + w + 1, band.top + band.height / 2), fill);
            // The outline: top and bottom edges (one pixel inside, one outside), and the sides.
            const QRgb top = image.pixel(middle, band.top);
            const QRgb aboveTop = image.pixel(middle, band.top - 1);
            const QRgb bottom = image.pixel(middle, band.top + band.height - 1);
            const QRgb left = image.pixel(x0, band.top + band.height / 2);
            if (shown) {
                EXPECT_EQ(top, outline);
                EXPECT_EQ(aboveTop, outline);
                EXPECT_EQ(bottom, outline);
                EXPECT_EQ(left, outline);
            } else {
                EXPECT_EQ(top, fill);
                EXPECT_EQ(bottom, fill);
                EXPECT_NE(aboveTop, outline);
            }
        }
    }
    // NPU 0 is not on the path: no outline on its compute bar.
    const DisplayRow& other = widget.rowLayout().rows()[0];
    widget.setShowCriticalPath(true);
    const QImage image = renderWidget(widget);
    const LaneBand band = laneBand(kAxisHeight + other.top, other.height, Lane::Work);
    const int middle = static_cast<int>(std::lround(widget.mapper().timeToX((us * 50).ps())));
    EXPECT_EQ(image.pixel(middle, band.top), TimelinePalette::color(colorkey::Compute).rgb());
}

TEST(TimelineReadability, LegendListsOnlyTheKindsOfTheShownRun) {
    TimelineView view;
    view.resize(1000, 400);
    view.setResult(computeAndAllReduceRun(), synthetic::quickStartPlatform());
    view.show();
    EXPECT_EQ(labels(view.legendEntries()),
              (std::vector<QString>{QStringLiteral("compute"), QStringLiteral("all-reduce"),
                                    QStringLiteral("idle"), QStringLiteral("critical path")}));
    EXPECT_TRUE(view.legend()->text().contains(QStringLiteral("all-reduce")));
    EXPECT_FALSE(view.legend()->text().contains(QStringLiteral("reduce-scatter")));
    EXPECT_FALSE(view.legend()->text().contains(QStringLiteral("memory")));

    // Another run: the legend follows it. The synthetic run has four collective types.
    synthetic::SyntheticOptions options;
    options.dimensions = {4, 2};
    options.itemsPerNpu = 16;
    view.setResult(synthetic::syntheticRun(options), synthetic::syntheticPlatform(options));
    EXPECT_EQ(labels(view.legendEntries()),
              (std::vector<QString>{QStringLiteral("compute"), QStringLiteral("all-reduce"),
                                    QStringLiteral("all-gather"), QStringLiteral("reduce-scatter"),
                                    QStringLiteral("all-to-all"), QStringLiteral("idle"),
                                    QStringLiteral("critical path")}));
    // A run without a critical path has no entry for it.
    auto noPath = computeAndAllReduceRun();
    noPath->criticalPath.clear();
    view.setResult(noPath, synthetic::quickStartPlatform());
    EXPECT_EQ(labels(view.legendEntries()),
              (std::vector<QString>{QStringLiteral("compute"), QStringLiteral("all-reduce"),
                                    QStringLiteral("idle")}));
}

TEST(TimelineReadability, DetailsPanelWrapsLongNamesBetweenWords) {
    const std::string longName =
        "transformer_block_23.self_attention/output_projection_allreduce_gradient_bucket_7";
    const auto run = computeAndAllReduceRun(longName);
    const auto source = std::make_shared<RunResultTimelineSource>(run);
    QMainWindow window;
    window.resize(900, 500);
    auto* dock = new QDockWidget(QStringLiteral("Details"), &window);
    auto* panel = new TimelineDetailsPanel(dock);
    dock->setWidget(panel);
    window.setCentralWidget(new QWidget(&window));
    window.addDockWidget(Qt::RightDockWidgetArea, dock);
    window.show();
    window.resizeDocks({dock}, {260}, Qt::Horizontal);
    QApplication::processEvents();
    ASSERT_LT(dock->width(), 300);
    panel->setSource(source);
    panel->showActivity(run->activities[0]);
    QApplication::processEvents();
    // The text document lays itself out lazily: ask for its size to lay out every block now.
    panel->document()->documentLayout()->documentSize();

    EXPECT_LE(panel->width(), dock->width());
    EXPECT_EQ(panel->horizontalScrollBar()->maximum(), 0) << "the text is wider than the panel";
    // The whole name is there (zero-width break points aside)...
    const QString plain = panel->toPlainText().remove(QChar(0x200b));
    EXPECT_TRUE(plain.contains(QString::fromStdString(longName)));
    // ...and its heading breaks into lines only at its word boundaries.
    const QTextBlock heading = panel->document()->firstBlock();
    ASSERT_TRUE(
        QString(heading.text()).remove(QChar(0x200b)).startsWith(QStringLiteral("transformer_")));
    const QTextLayout* layout = heading.layout();
    ASSERT_GT(layout->lineCount(), 1) << "a name this long should wrap at 260 px";
    const QString raw = heading.text();
    for (int i = 0; i + 1 < layout->lineCount(); ++i) {
        const QTextLine line = layout->lineAt(i);
        const int end = line.textStart() + line.textLength();
        ASSERT_GT(end, 0);
        ASSERT_LT(end, raw.size());
        const QChar last = raw.at(end - 1);
        EXPECT_TRUE(last == QChar(0x200b) || last.isSpace())
            << "line " << i << " ends mid-word: " << raw.left(end).toStdString();
        EXPECT_LE(line.naturalTextWidth(), panel->viewport()->width());
    }
}

TEST(TimelineReadability, BreakPointsFollowIdentifierWords) {
    const QString z(QChar(0x200b));
    EXPECT_EQ(TimelineDetailsPanel::breakableName(QStringLiteral("layer_12.attn/qkvProj")),
              QStringLiteral("layer_") + z + QStringLiteral("12.") + z + QStringLiteral("attn/") +
                  z + QStringLiteral("qkv") + z + QStringLiteral("Proj"));
    EXPECT_EQ(TimelineDetailsPanel::breakableName(QStringLiteral("gemm")), QStringLiteral("gemm"));
    EXPECT_EQ(TimelineDetailsPanel::breakableName(QStringLiteral("a_")), QStringLiteral("a_"));
    EXPECT_EQ(TimelineDetailsPanel::breakableName(QStringLiteral("1MiB")), QStringLiteral("1MiB"));
}

TEST(TimelineReadability, ScreenshotWithLegend) {
    // A mixed run: compute and four collective types, the critical path at the end of the last
    // NPU, zoomed onto the end so that single bars and the outline are visible.
    synthetic::SyntheticOptions options;
    options.dimensions = {4, 2};
    options.itemsPerNpu = 24;
    const auto run = synthetic::syntheticRun(options);
    TimelineView view;
    view.resize(1400, 560);
    view.setResult(run, synthetic::syntheticPlatform(options));
    view.show();
    QApplication::processEvents();
    TimelineWidget& w = *view.timeline();
    const int64_t end = w.source()->endPs();
    w.setWindow(end * 6 / 10, end);
    EXPECT_TRUE(view.grab().save(screenshotPath(QStringLiteral("timeline-legend-after.png"))));
}

// Lesson 1 says an all-reduce is a reduce-scatter then an all-gather; the details of its bar
// listed four "all-reduce" phases, naming neither (issue #53, Teacher 5).
TEST(TimelineReadability, DetailsNameWhatAnAllReducePhaseDoes) {
    const SimulationSpec spec =
        loadProject(ASTROLABE_SOURCE_DIR + "/resources/lessons/01-ring-all-reduce/project.yaml");
    const auto run = runSimulation(spec);
    const auto source = std::make_shared<RunResultTimelineSource>(run);
    TimelineDetailsPanel panel;
    panel.setSource(source);
    const ActivityInterval* collective = nullptr;
    for (const ActivityInterval& a : run->activities)
        if (a.npu == 0 && a.kind == ActivityKind::Communication)
            collective = &a;
    ASSERT_NE(collective, nullptr);
    panel.showActivity(*collective);
    const QString text = panel.toPlainText();
    EXPECT_TRUE(text.contains(QStringLiteral("reduce-scatter, then all-gather (ring)")))
        << text.toStdString();
    for (const QString& line : text.split(u'\n'))
        EXPECT_FALSE(line.trimmed().endsWith(QStringLiteral("\tall-reduce")))
            << "a phase named only all-reduce: " << line.toStdString();
}
