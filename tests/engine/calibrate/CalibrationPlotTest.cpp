// The calibration chart (engine/calibrate/CalibrationPlot.h) as drawn: a sweep over 28 doublings
// keeps its size labels apart, and the slowest measurement is inside the plot, not pinned to
// its floor.
#include "calibrate/CalibrationPlot.h"

#include <gtest/gtest.h>
#include <regex>

using namespace astrolabe;

namespace {

/// all_gather over 2 ranks, 8 B to 1 GiB: 10 us + bus bytes at 4 GB/s. Its 8 B message moves
/// 0.0004 GB/s of bus bandwidth.
std::vector<CalibrationPoint> sweep() {
    std::vector<CalibrationPoint> points;
    for (uint64_t s = 8; s <= (uint64_t{1} << 30); s *= 2)
        points.push_back(
            {NcclCollective::AllGather, 2, s, 10 + 0.5 * static_cast<double>(s) / 4e3});
    return points;
}

std::vector<double> attributes(const std::string& svg, const std::string& pattern) {
    std::vector<double> out;
    const std::regex re(pattern);
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
         ++it)
        out.push_back(std::stod((*it)[1].str()));
    return out;
}

} // namespace

TEST(CalibrationPlot, SizeLabelsOfAWideSweepDoNotOverlap) {
    const std::vector<CalibrationPoint> points = sweep();
    CostModel model;
    model.regimes = {RegimeCost{10, 0, 1 / 4e3, 0}};
    const std::string svg = calibrationSvg(points, model, {}, "sweep");
    // The x axis's labels: centred text on the line below the plot (y = 40 + 390 + 16).
    const std::vector<double> xs =
        attributes(svg, R"re(<text x="([0-9.]+)" y="446\.0" text-anchor="middle">)re");
    ASSERT_GE(xs.size(), 5u);
    for (size_t i = 1; i < xs.size(); ++i)
        EXPECT_GE(xs[i] - xs[i - 1], 55) << "labels " << i - 1 << " and " << i << " overlap";
    // Every measurement lies inside the plot (y from 40 to 430), the slowest included.
    const std::vector<double> ys =
        attributes(svg, R"re(<circle cx="[0-9.]+" cy="([0-9.]+)" r="2\.5")re");
    ASSERT_EQ(ys.size(), points.size());
    for (const double y : ys) {
        EXPECT_GT(y, 40);
        EXPECT_LT(y, 429.5) << "a measurement is drawn on the chart's floor";
    }
}
