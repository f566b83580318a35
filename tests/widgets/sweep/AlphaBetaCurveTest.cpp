// Lesson 2's message-size sweep (resources/lessons/02-latency-and-bandwidth/sweep.yaml) run
// through the engine, and the alpha-beta(-gamma) line the Sweep tab draws over it: the line is
// the closed form alpha + size x (2(N-1)/N / B + 3(N-1)/N / L) computed here from the lesson's
// platform (8 NPUs, 50 GiB/s links, 3000 GB/s local memory) with alpha fitted at 1 KiB, and the
// measured points lie within the 3 % the lesson text claims. On the quick start's 50 GB/s local
// memory, where the reductions cost more than the links, the gamma term is what keeps the line
// on the points.
#include "TestPaths.h"
#include "analysis/AlphaBeta.h"
#include "simulation/Simulation.h"
#include "sweep/SweepChartData.h"
#include "sweep/SweepCharts.h"
#include "sweep/SweepPlan.h"
#include "sweep/SweepResultsModel.h"

#include <QDir>
#include <QLineSeries>
#include <QPixmap>
#include <QTemporaryDir>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::widgets;

namespace {

constexpr double kKiB = 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;
// The lesson's ring: N = 8, B = 50 GiB/s per link; an all-reduce moves 2(N-1)/N x size, and
// reduces (N-1)/N x size in three passes over local memory at L = 3000 GB/s.
constexpr double kLinkSecondsPerByte = 2.0 * 7.0 / 8.0 / (50.0 * 1024 * kMiB);
constexpr double kSecondsPerByte = kLinkSecondsPerByte + 3.0 * 7.0 / 8.0 / 3000e9;

/// The lesson's sweep, every point run by the engine.
const SweepResultsModel& lessonSweep() {
    static SweepResultsModel* model = [] {
        auto* m = new SweepResultsModel;
        const SweepPlan plan = planSweep(std::string(ASTROLABE_SOURCE_DIR) +
                                         "/resources/lessons/02-latency-and-bandwidth/sweep.yaml");
        m->setPlan(plan);
        for (const PlannedPoint& p : plan.points) {
            SweepPointSummary s;
            s.index = p.index;
            s.status = SweepPointStatus::Ok;
            s.endTime = runSimulation(plan.work(p.index).spec)->endTime;
            m->updatePoint(s);
        }
        return m;
    }();
    return *model;
}

double measuredSeconds(double bytes) {
    for (const SweepRow& row : lessonSweep().rows())
        if (row.alphaBeta && row.alphaBeta->sizeBytes == bytes)
            return row.summary.endTime.seconds();
    ADD_FAILURE() << "no point of " << bytes << " bytes";
    return 0;
}

double closedForm(double bytes) {
    const double alpha = measuredSeconds(kKiB) - kKiB * kSecondsPerByte;
    return alpha + bytes * kSecondsPerByte;
}

} // namespace

TEST(AlphaBetaCurve, IsTheClosedFormFittedAtTheSmallestSize) {
    const SweepResultsModel& sweep = lessonSweep();
    ASSERT_EQ(sweep.rows().size(), 10u);
    const std::optional<AlphaBetaCurve> curve = alphaBetaCurve(sweep.rows(), 40);
    ASSERT_TRUE(curve);
    EXPECT_NEAR(curve->model.secondsPerByte / kSecondsPerByte, 1, 1e-12);
    ASSERT_EQ(curve->points.size(), 40u);
    EXPECT_DOUBLE_EQ(curve->points.front().first, kKiB);
    EXPECT_DOUBLE_EQ(curve->points.back().first, 256 * kMiB);
    for (const auto& [bytes, seconds] : curve->points)
        EXPECT_NEAR(seconds / closedForm(bytes), 1, 1e-9) << bytes << " bytes";
}

TEST(AlphaBetaCurve, TheMeasuredPointsLieWithinTheLessonsThreePercent) {
    // "The alpha-beta model fits these runs with alpha taken from the smallest one ... within
    // 3 % of every run" - checked here on all ten sizes of the sweep, not only the five quoted.
    for (const SweepRow& row : lessonSweep().rows()) {
        const double bytes = row.alphaBeta->sizeBytes;
        const double off = row.summary.endTime.seconds() / closedForm(bytes) - 1;
        EXPECT_LT(std::abs(off), 0.03) << bytes / kKiB << " KiB: " << 100 * off << " %";
    }
    // Latency dominates the smallest size, bandwidth the largest, and the knee where the two
    // parts are equal is the "about 0.84 MiB" of the lesson's first question.
    const double alpha = closedForm(0);
    EXPECT_GT(alpha / measuredSeconds(kKiB), 0.99);
    EXPECT_GT(256 * kMiB * kSecondsPerByte / measuredSeconds(256 * kMiB), 0.95);
    EXPECT_NEAR(alpha / kLinkSecondsPerByte / kMiB, 0.84, 0.005); // the links' knee
}

TEST(AlphaBetaCurve, TheChartDrawsTheModelOverThePointsInItsUnits) {
    const SweepResultsModel& sweep = lessonSweep();
    SweepLineChart chart;
    chart.setRows(sweep.axisNames(), sweep.rows(), 0);
    ASSERT_NE(chart.model(), nullptr);
    const QList<QPointF> line = chart.model()->points();
    ASSERT_GE(line.size(), 32);
    for (const QPointF& p : line) {
        const double bytes = p.x() * chart.sizeScale().factor;
        const double seconds = p.y() * chart.timeScale().factor / 1e12;
        EXPECT_NEAR(seconds / closedForm(bytes), 1, 1e-9) << bytes << " bytes";
    }
    // The measured points at their sizes (1 KiB to 256 MiB, not the numbers 1 to 256 written
    // before the units), in the same units as the line.
    const QList<QPointF> measured = chart.line()->points();
    ASSERT_EQ(measured.size(), 10);
    EXPECT_DOUBLE_EQ(measured.front().x() * chart.sizeScale().factor, kKiB);
    EXPECT_DOUBLE_EQ(measured.back().x() * chart.sizeScale().factor, 256 * kMiB);
    EXPECT_NEAR(measured.back().y() * chart.timeScale().factor / 1e12, measuredSeconds(256 * kMiB),
                1e-12);
    chart.resize(900, 560);
    QDir().mkpath(QStringLiteral("screenshots"));
    EXPECT_TRUE(chart.grab().save(QStringLiteral("screenshots/sweep-alpha-beta.png")));
}

TEST(AlphaBetaCurve, NoLineWhenTheSweptSettingIsNotTheSize) {
    // A bandwidth sweep changes beta itself: one line would be wrong for all but one point.
    std::vector<SweepRow> rows;
    for (const double bw : {50.0, 100.0}) {
        SweepRow row;
        row.values = {std::to_string(static_cast<int>(bw)) + " GiB/s"};
        row.summary.status = SweepPointStatus::Ok;
        row.summary.endTime = SimTime::fromUs(100);
        row.alphaBeta = AlphaBetaTerm{kMiB, 1.75 / (bw * 1024 * kMiB)};
        rows.push_back(row);
    }
    EXPECT_FALSE(alphaBetaCurve(rows));
    SweepLineChart chart;
    chart.setRows({"bandwidth"}, rows, 0);
    EXPECT_EQ(chart.model(), nullptr);
    // The same size twice: nothing to draw a line along.
    rows[1].alphaBeta = rows[0].alphaBeta;
    EXPECT_FALSE(alphaBetaCurve(rows));
}

TEST(AlphaBetaTerm, PerCollectiveBandwidthFactors) {
    SimulationSpec spec;
    spec.workload.kind = WorkloadSource::Kind::Microbenchmark;
    spec.workload.microbenchmark.sizeBytes = 4096;
    spec.platform.dimensions.push_back({BlockKind::Ring, 4, 1e9, 0});
    const std::pair<int, double> factors[] = {{0, 1.5}, {2, 0.75}, {6, 0.75}, {7, 0.75}};
    for (const auto& [collective, factor] : factors) {
        spec.workload.microbenchmark.collective = collective;
        const std::optional<AlphaBetaTerm> term = alphaBetaTerm(spec);
        ASSERT_TRUE(term) << collective;
        EXPECT_DOUBLE_EQ(term->secondsPerByte, factor / 1e9) << collective;
        EXPECT_EQ(term->sizeBytes, 4096);
    }
    // A calibrated collective's bandwidth factor f moves its bytes at f x the link rate; the
    // reductions (gamma) are at the local memory's rate, which the factor does not touch.
    spec.workload.microbenchmark.collective = 7; // reduce-scatter
    spec.system.bandwidthFactor[static_cast<size_t>(CollectiveKind::ReduceScatter)] = 0.5;
    spec.system.localMemBandwidthGBps = 2;
    const std::optional<AlphaBetaTerm> slow = alphaBetaTerm(spec);
    ASSERT_TRUE(slow);
    EXPECT_DOUBLE_EQ(slow->linkSecondsPerByte, 1.5 / 1e9);
    EXPECT_DOUBLE_EQ(slow->reductionSecondsPerByte, 3 * 0.75 / 2e9);
    EXPECT_DOUBLE_EQ(slow->secondsPerByte,
                     slow->linkSecondsPerByte + slow->reductionSecondsPerByte);
    spec.platform.dimensions.push_back({BlockKind::Ring, 2, 1e9, 0});
    EXPECT_FALSE(alphaBetaTerm(spec)); // two dimensions: no single beta
}

// The quick start's ring reduces at 50 GB/s of local memory, slower than its links move the
// data: a size sweep on it (what a first-time user tries) is memory-bound, and a line of the
// links alone runs far under the points (under half the time at 256 MiB). With gamma the line
// follows the points.
TEST(AlphaBetaCurve, OnAMemoryBoundRingTheGammaTermKeepsTheLineOnThePoints) {
    const QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string sweepFile = dir.filePath(QStringLiteral("sizes.yaml")).toStdString();
    {
        std::ofstream out(sweepFile);
        out << "project: " << ASTROLABE_SOURCE_DIR << "/projects/quickstart/project.yaml\n"
            << "set: {platform.dimensions.0.bandwidth: 100 GiB/s}\n"
            << "axes:\n  - {path: workload.microbenchmark.size, values: [1 KiB, 16 KiB, "
               "256 KiB, 4 MiB, 64 MiB, 256 MiB]}\n";
    }
    SweepResultsModel sweep;
    const SweepPlan plan = planSweep(sweepFile);
    sweep.setPlan(plan);
    for (const PlannedPoint& p : plan.points) {
        SweepPointSummary s;
        s.index = p.index;
        s.status = SweepPointStatus::Ok;
        s.endTime = runSimulation(plan.work(p.index).spec)->endTime;
        sweep.updatePoint(s);
    }
    const std::optional<AlphaBetaCurve> curve = alphaBetaCurve(sweep.rows(), 16);
    ASSERT_TRUE(curve);
    const double link = 2.0 * 7.0 / 8.0 / (100.0 * 1024 * kMiB), gamma = 3.0 * 7.0 / 8.0 / 50e9;
    EXPECT_NEAR(curve->model.secondsPerByte / (link + gamma), 1, 1e-12);
    EXPECT_NEAR(curve->model.reductionSecondsPerByte / gamma, 1, 1e-12);
    for (const SweepRow& row : sweep.rows()) {
        const double bytes = row.alphaBeta->sizeBytes, measured = row.summary.endTime.seconds();
        EXPECT_LT(std::abs(curve->model.seconds(bytes) / measured - 1), 0.05)
            << bytes / kKiB << " KiB";
        if (bytes == 256 * kMiB) { // the links alone: far under
            EXPECT_LT((curve->model.alphaSeconds + bytes * link) / measured, 0.5);
        }
    }
    SweepLineChart chart;
    chart.setRows(sweep.axisNames(), sweep.rows(), 0);
    ASSERT_NE(chart.model(), nullptr);
    EXPECT_TRUE(chart.model()->name().contains(QStringLiteral("(reductions in memory)")))
        << chart.model()->name().toStdString();
}
