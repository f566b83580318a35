// The Serving tab's view over a real (small) serving run: every part filled, the replica model
// sound, a click on the timeline selects the request under it and shows its path.
#include "serving/ServingView.h"

#include "../../engine/serving/ServingTestSupport.h"
#include "serving/CdfChart.h"
#include "serving/ReplicaTableModel.h"
#include "serving/RequestTimeline.h"
#include "serving/ServingCompare.h"
#include "serving/ServingPools.h"
#include "serving/ServingRun.h"
#include "serving/ServingSeriesChart.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

std::shared_ptr<const serving::ServingResult> pdRun() {
    static const auto run =
        std::make_shared<const serving::ServingResult>(serving::runServing(servingtest::project(
            "model: llama3-8b\n  gpu: h100\n  deployment: pd\n  replicas: 2\n"
            "  prefill-replicas: 1\n  rate: 20\n  duration: 5 s\n  tpot-slo: 50 ms\n")));
    return run;
}

} // namespace

TEST(ServingView, ShowsEveryPartOfARun) {
    ServingView view;
    view.resize(1200, 800);
    view.setResult(pdRun());
    const serving::ServingResult& r = *pdRun();
    ASSERT_GT(r.summary.completed, 50);
    // The CDFs hold every finished request; TPOT's SLO line is the run's.
    EXPECT_EQ(int64_t(view.ttftChart()->series().at(0).sorted.size()), r.summary.completed);
    EXPECT_DOUBLE_EQ(view.tpotChart()->slo(), 0.05);
    EXPECT_GE(view.tpotChart()->xMax(), 0.05);
    // One throughput point per sample after the first at a later time.
    size_t later = 0;
    for (size_t i = 1; i < r.occupancy.size(); ++i)
        later += r.occupancy[i].seconds > r.occupancy[i - 1].seconds;
    EXPECT_EQ(view.seriesChart()->series().seconds.size(), later);
    EXPECT_GT(later, 100u);
    QAbstractItemModelTester tester(view.replicaModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    ASSERT_EQ(view.replicaModel()->rowCount(), 3);
    EXPECT_EQ(view.replicaModel()->index(0, ReplicaTableModel::Pool).data().toString(),
              QStringLiteral("prefill"));
    const double busy =
        view.replicaModel()->index(0, ReplicaTableModel::Busy).data(Qt::UserRole).toDouble();
    EXPECT_NEAR(busy, r.replicas[0].busySeconds / r.summary.durationSeconds, 1e-12);
}

// The throughput scale is labelled at round values under the peak, three to five of them (it
// was labelled at the peak and its half: 2,798 and 1,399).
TEST(ServingSeriesChart, ThroughputTicksAreRoundValuesUnderThePeak) {
    using Ticks = std::vector<double>;
    EXPECT_EQ(throughputTicks(2798), (Ticks{0, 1000, 2000}));
    EXPECT_EQ(throughputTicks(1200), (Ticks{0, 500, 1000}));
    EXPECT_EQ(throughputTicks(30), (Ticks{0, 10, 20, 30}));
    EXPECT_EQ(throughputTicks(30000), (Ticks{0, 10000, 20000, 30000}));
    EXPECT_EQ(throughputTicks(1), (Ticks{0, 0.5, 1}));
    EXPECT_EQ(throughputTicks(0), Ticks{0});
    for (double peak = 0.7; peak < 1e7; peak *= 1.37) {
        const Ticks ticks = throughputTicks(peak);
        EXPECT_GE(ticks.size(), 3u) << peak;
        EXPECT_LE(ticks.size(), 5u) << peak;
        EXPECT_LE(ticks.back(), peak * (1 + 1e-9)) << peak;
    }
}

TEST(ServingView, ClickingARequestShowsItsPath) {
    ServingView view;
    view.resize(1200, 800);
    view.show();
    view.setResult(pdRun());
    RequestTimeline* timeline = view.timeline();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    // Zoom on 10 requests so that each row is tall, then click the middle of request 3's row
    // at its decode.
    timeline->setRows(RowWindow{0, 10});
    const serving::RequestRecord& q = pdRun()->requests[3];
    const QRect plot = timeline->plotRect();
    const auto [top, bottom] = timeline->rows().pixels(3, plot.height());
    const double x = timeline->mapper().timeToX(secondsToPs((q.transferEnd + q.lastToken) / 2));
    QSignalSpy clicked(timeline, &RequestTimeline::requestClicked);
    QTest::mouseClick(timeline, Qt::LeftButton, {},
                      QPoint(plot.left() + int(x), plot.top() + (top + bottom) / 2));
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), 3);
    EXPECT_EQ(timeline->selected(), 3);
    EXPECT_TRUE(view.pathText().contains(QStringLiteral("Request #3")));
    EXPECT_TRUE(view.pathText().contains(QStringLiteral("KV cache to replica")));
}

TEST(ServingView, WheelZoomsTimeAndBackReturns) {
    ServingView view;
    view.resize(1200, 800);
    view.show();
    view.setResult(pdRun());
    RequestTimeline* timeline = view.timeline();
    const int64_t span = timeline->mapper().spanPs();
    timeline->zoomAround(timeline->plotRect().center().x(), 4.0);
    EXPECT_NEAR(double(timeline->mapper().spanPs()), double(span) / 4, double(span) * 1e-6);
    timeline->setWindow(0, span / 8);
    EXPECT_TRUE(timeline->back());
    EXPECT_NEAR(double(timeline->mapper().spanPs()), double(span) / 4, double(span) * 1e-6);
    timeline->showAll();
    EXPECT_EQ(timeline->mapper().spanPs(), span);
}

// Ctrl+wheel zooms the requests around the pointer: the row under it stays under it, and
// steps in and back out return to the window (integer truncation drifted it up a row a step).
TEST(ServingView, CtrlWheelZoomsRequestsAroundThePointer) {
    ServingView view;
    view.resize(1200, 800);
    view.show();
    view.setResult(pdRun());
    RequestTimeline* timeline = view.timeline();
    const QRect plot = timeline->plotRect();
    const int total = int(pdRun()->requests.size());
    ASSERT_GT(total, 60);
    timeline->setRows({total / 4, total / 2});
    const RowWindow start = timeline->rows();
    const QPointF at(plot.center().x(), plot.top() + 0.7 * plot.height());
    auto rowUnder = [&] {
        const RowWindow& r = timeline->rows();
        return r.first + 0.7 * r.count;
    };
    const double under = rowUnder();
    auto wheel = [&](int delta) {
        QWheelEvent e(at, timeline->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton,
                      Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(timeline, &e);
    };
    for (int i = 0; i < 5; ++i) {
        wheel(120);
        EXPECT_NEAR(rowUnder(), under, 1.0) << "in, step " << i;
    }
    EXPECT_LT(timeline->rows().count, start.count);
    for (int i = 0; i < 5; ++i) {
        wheel(-120);
        EXPECT_NEAR(rowUnder(), under, 1.0) << "out, step " << i;
    }
    EXPECT_NEAR(timeline->rows().first, start.first, 1);
    EXPECT_NEAR(timeline->rows().count, start.count, 1);
}

TEST(ServingCompare, ColumnsAreRunsAndRowsTheirSummaries) {
    // The same project at two rates: the faster one queues more, so its TTFT p99 is higher.
    const auto slow = std::make_shared<const serving::ServingResult>(serving::runServing(
        servingtest::project("model: llama3-8b\n  gpu: h100\n  rate: 5\n  duration: 10 s\n")));
    const auto fast = std::make_shared<const serving::ServingResult>(serving::runServing(
        servingtest::project("model: llama3-8b\n  gpu: h100\n  rate: 60\n  duration: 10 s\n")));
    ServingCompareView view;
    view.setRuns({{QStringLiteral("slow"), slow}, {QStringLiteral("fast"), fast}});
    QAbstractItemModelTester tester(view.model(),
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    ASSERT_EQ(view.model()->columnCount(), 2);
    EXPECT_EQ(view.model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("fast"));
    // Row 2 is TTFT p99 in ms, row 12 the SLO attainment in percent.
    EXPECT_EQ(view.model()->headerData(2, Qt::Vertical).toString(),
              QStringLiteral("TTFT p99 (ms)"));
    EXPECT_DOUBLE_EQ(view.model()->index(2, 0).data(Qt::UserRole).toDouble(),
                     slow->summary.ttft.p99 * 1e3);
    EXPECT_DOUBLE_EQ(view.model()->index(12, 1).data(Qt::UserRole).toDouble(),
                     fast->summary.sloAttainment * 100);
    EXPECT_GT(fast->summary.ttft.p99, slow->summary.ttft.p99);
    // The CDFs overlay both runs.
    ASSERT_EQ(view.ttftChart()->series().size(), 2u);
    EXPECT_EQ(int64_t(view.ttftChart()->series()[1].sorted.size()), fast->summary.completed);
}

// The pools on the platform drawing: an AFD run on 8 NPUs (one prefill GPU, 2 attention and
// 3 FFN GPUs, 2 idle) rings each GPU in its pool's colour, and the legend counts them.
TEST(ServingView, DrawsThePoolsOnThePlatformWithALegend) {
    const SimulationSpec spec = servingtest::project(
        "model: llama3-8b\n  gpu: h100\n  deployment: afd\n  afd-attention-gpus: 2\n"
        "  afd-ffn-gpus: 3\n  rate: 2\n  duration: 2 s\n");
    ServingView view;
    view.resize(1200, 800);
    view.setProject(spec);
    view.setResult(std::make_shared<const serving::ServingResult>(serving::runServing(spec)));
    const std::vector<int> counts = view.poolsView()->roleCounts();
    EXPECT_EQ(counts[size_t(serving::GpuRole::Prefill)], 1);
    EXPECT_EQ(counts[size_t(serving::GpuRole::Attention)], 2);
    EXPECT_EQ(counts[size_t(serving::GpuRole::Ffn)], 3);
    EXPECT_EQ(counts[size_t(serving::GpuRole::Idle)], 2);
    // NPU 1 (attention) is drawn in the attention colour: the pixel at its centre.
    ServingPoolsView* pools = view.poolsView();
    pools->resize(600, 400);
    pools->network()->resize(600, 400);
    pools->network()->fitToView();
    QImage image(pools->network()->size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    pools->network()->render(&image);
    const QPointF at =
        pools->network()->sceneToWidget(pools->network()->networkLayout().npuPosition(1));
    const QColor drawn = image.pixelColor(at.toPoint());
    const QColor attention = servingRoleColor(serving::GpuRole::Attention);
    EXPECT_LT(std::abs(drawn.hue() - attention.hue()), 20)
        << drawn.name().toStdString() << " at NPU 1, expected near "
        << attention.name().toStdString();
    // Clearing the run clears the pools.
    view.setResult(nullptr);
    EXPECT_TRUE(view.poolsView()->placement().empty());
}
