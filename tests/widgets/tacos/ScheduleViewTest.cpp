// The TACOS schedule view: every chunk send of a DGX-1 all-reduce sits in its (link, step) cell,
// idle cells are empty, the headers name links and steps; a screenshot under screenshots/.
#include "tacos/ScheduleView.h"

#include "graph/GraphGenerators.h"

#include <QDir>
#include <QLabel>
#include <QPixmap>
#include <QTableView>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

TEST(ScheduleView, EverySendInItsCellAndAScreenshot) {
    GraphGeneratorSpec g;
    g.name = "dgx1";
    g.bandwidthBytesPerSecond = 25e9;
    g.latencyNs = 500;
    SynthesisOptions o;
    o.chunksPerNpu = 2;
    const Schedule s = synthesize(generateGraph(g), o);
    ScheduleView view;
    view.resize(1100, 700);
    view.setSchedule(s);
    const ScheduleModel* m = view.model();
    ASSERT_EQ(m->rowCount(), 32);
    ASSERT_EQ(m->columnCount(), s.steps);
    int filled = 0;
    for (int r = 0; r < m->rowCount(); ++r)
        for (int c = 0; c < m->columnCount(); ++c)
            filled += m->index(r, c).data().isValid() ? 1 : 0;
    EXPECT_EQ(filled, static_cast<int>(s.sends.size())) << "one cell per chunk send";
    for (const ChunkSend& c : s.sends)
        ASSERT_EQ(m->index(c.link, c.step).data().toInt(), c.chunk);
    EXPECT_EQ(m->headerData(0, Qt::Vertical, Qt::DisplayRole).toString(), "0 -> 1");
    EXPECT_TRUE(view.summary()->text().contains("all-reduce on 8 NPUs"));
    QDir().mkpath(QStringLiteral("screenshots"));
    EXPECT_TRUE(view.grab().save(QDir(QStringLiteral("screenshots"))
                                     .absoluteFilePath(QStringLiteral("tacos-schedule.png"))));
}

TEST(ScheduleView, TheSummaryCountsInSingularAndPlural) {
    // Two NPUs exchanging their one chunk each in one step: "1 chunk per NPU", never "1 chunks";
    // the plural where the count is not one; the finish time in a readable unit.
    Schedule s;
    s.kind = SynthesisKind::AllGather;
    s.npus = 2;
    s.chunksPerNpu = 1;
    s.links = {{0, 1, 0, 1}, {1, 0, 0, 1}};
    s.sends = {{0, 0, 0, 0, 0, 1000}, {1, 1, 0, 0, 0, 1000}};
    s.steps = 1;
    s.finishNs = 1000;
    ScheduleView view;
    view.setSchedule(s);
    const QString text = view.summary()->text();
    EXPECT_TRUE(text.contains(QStringLiteral("on 2 NPUs: 1 chunk per NPU, 1 step, 2 chunk sends, "
                                             "1 µs.")))
        << text.toStdString();
    EXPECT_FALSE(text.contains("1 chunks")) << text.toStdString();
    EXPECT_FALSE(text.contains("1 steps")) << text.toStdString();
    // A real schedule with three chunks per NPU says so in the plural.
    GraphGeneratorSpec g;
    g.name = "mesh2d";
    g.size = {2, 2};
    g.bandwidthBytesPerSecond = 1e9;
    g.latencyNs = 10;
    SynthesisOptions o;
    o.chunksPerNpu = 3;
    view.setSchedule(synthesize(generateGraph(g), o));
    EXPECT_TRUE(view.summary()->text().contains("on 4 NPUs: 3 chunks per NPU, "))
        << view.summary()->text().toStdString();
}

TEST(ScheduleView, LinksThroughSwitchesAreNamedSo) {
    // fred [4, 1]: 4 NPUs under one switch; the schedule's 12 links all pass through it, listed
    // by destination, then source: 1 => 0, 2 => 0, 3 => 0, 0 => 1, ...
    GraphGeneratorSpec g;
    g.name = "fred";
    g.size = {4, 1};
    g.bandwidthBytesPerSecond = 100e9;
    g.latencyNs = 100;
    const Schedule s = synthesize(generateGraph(g), {});
    ScheduleView view;
    view.setSchedule(s);
    ASSERT_EQ(view.model()->rowCount(), 12);
    EXPECT_EQ(view.model()->headerData(0, Qt::Vertical, Qt::DisplayRole).toString(), "1 => 0");
    EXPECT_EQ(view.model()->headerData(3, Qt::Vertical, Qt::DisplayRole).toString(), "0 => 1");
    EXPECT_TRUE(view.summary()->text().contains("a link through switches"))
        << view.summary()->text().toStdString();
}
