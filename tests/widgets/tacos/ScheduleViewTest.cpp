// The TACOS schedule view: every chunk send of a DGX-1 all-reduce sits in its (link, step) cell,
// idle cells are empty, the headers name links and steps; a screenshot under screenshots/.
#include "tacos/ScheduleView.h"

#include "config/GraphGenerators.h"

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
