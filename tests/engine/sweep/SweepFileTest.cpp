// Sweep files as read (docs/sweeps.md): axes, ranges and zips, the mistakes named with their
// place, and the points they expand to (the whole product, or a sample).
#include "project/SweepFile.h"

#include "engine/sweep/RingProject.h"
#include "sweep/SweepPlan.h"

#include <gtest/gtest.h>
#include <set>

using namespace astrolabe;

namespace {

std::vector<std::string> valuesOf(const std::string& axisYaml) {
    const SweepFile f = parseSweepFile("project: p.yaml\naxes:\n  - " + axisYaml + "\n", "s.yaml");
    return f.groups.at(0).axes.at(0).values;
}

std::string errorOf(const std::string& text) {
    return test::sweepFileError(text);
}

using Strings = std::vector<std::string>;

} // namespace

TEST(SweepFile, RangesExpandToTheirValues) {
    EXPECT_EQ(valuesOf("{path: a.b, range: {from: 25 GiB/s, to: 400 GiB/s, steps: 5, scale: log}}"),
              (Strings{"25 GiB/s", "50 GiB/s", "100 GiB/s", "200 GiB/s", "400 GiB/s"}));
    // Whole-number ends without a unit give whole numbers; repeats are dropped.
    EXPECT_EQ(valuesOf("{path: a.b, range: {from: 1, to: 64, steps: 7, scale: log}}"),
              (Strings{"1", "2", "4", "8", "16", "32", "64"}));
    EXPECT_EQ(valuesOf("{path: a.b, range: {from: 1, to: 4, steps: 10}}"),
              (Strings{"1", "2", "3", "4"}));
    EXPECT_EQ(valuesOf("{path: a.b, range: {from: 0.5, to: 2, step: 0.5}}"),
              (Strings{"0.5", "1", "1.5", "2"}));
    EXPECT_EQ(valuesOf("{path: a.b, range: {from: 1, to: 2, steps: 3, integer: false}}"),
              (Strings{"1", "1.5", "2"}));
    EXPECT_EQ(valuesOf("{path: a.b, values: [ring, [ring, direct], 4]}"),
              (Strings{"ring", "[ring, direct]", "4"}));
}

TEST(SweepFile, ARangeOfNotANumberIsRefusedNotEmpty) {
    // A step of .nan plans no points; an infinite end is no number either.
    EXPECT_NE(errorOf("project: p.yaml\naxes:\n  - {path: a, range: {from: 1, to: 4, step: "
                      ".nan}}\n")
                  .find("axes[0].range.step: expected an increment"),
              std::string::npos);
    EXPECT_NE(errorOf("project: p.yaml\naxes:\n  - {path: a, range: {from: .inf, to: 4, steps: "
                      "3}}\n")
                  .find("axes[0].range.from: expected a number"),
              std::string::npos);
}

TEST(SweepFile, MistakesAreNamedWithTheirPlace) {
    EXPECT_NE(
        errorOf(
            "project: p.yaml\naxes:\n  - {path: a, range: {from: 1 GiB/s, to: 4 GB/s, steps: 2}}\n")
            .find("s.yaml:3:"),
        std::string::npos);
    EXPECT_NE(errorOf("project: p.yaml\naxes:\n  - {path: a, range: {from: 0, to: 4, steps: 2, "
                      "scale: log}}\n")
                  .find("a log range needs from and to above 0"),
              std::string::npos);
    const std::string zip = errorOf("project: p.yaml\naxes:\n  - zip:\n    - {path: a, values: [1, "
                                    "2]}\n    - {path: b, values: [1]}\n");
    EXPECT_NE(zip.find("s.yaml:5:"), std::string::npos) << zip;
    EXPECT_NE(zip.find("has 1 values, expected 2"), std::string::npos) << zip;
    EXPECT_NE(
        errorOf(
            "project: p.yaml\naxes:\n  - {path: x.a, values: [1]}\n  - {path: y.a, values: [2]}\n")
            .find("the axis name \"a\" is used twice"),
        std::string::npos);
    EXPECT_NE(errorOf("project: p.yaml\naxis:\n  - {path: a, values: [1]}\n").find("did you mean"),
              std::string::npos);
    EXPECT_NE(errorOf("axes:\n  - {path: a, values: [1]}\n").find("project"), std::string::npos);
    EXPECT_NE(
        errorOf(
            "project: p.yaml\naxes:\n  - {path: a, range: {from: 1, to: 1e9, steps: 1000000000}}\n")
            .find("expected 1 to 100000"),
        std::string::npos);
    // 1,000 x 1,000 x 10 points: refused, with the way out.
    const std::string big = errorOf("project: p.yaml\naxes:\n"
                                    "  - {path: a, range: {from: 1, to: 1000, step: 1}}\n"
                                    "  - {path: b, range: {from: 1, to: 1000, step: 1}}\n"
                                    "  - {path: c, range: {from: 1, to: 10, step: 1}}\n");
    EXPECT_NE(big.find("10000000 points, more than the limit"), std::string::npos) << big;
}

TEST(SweepPoints, TheProductHasTheLastAxisFastestAndZipsMoveTogether) {
    const SweepFile f = parseSweepFile("project: p.yaml\naxes:\n"
                                       "  - {path: a, values: [1, 2]}\n"
                                       "  - zip:\n"
                                       "    - {path: b, values: [x, y, z]}\n"
                                       "    - {path: c, values: [7, 8, 9]}\n",
                                       "s.yaml");
    const std::vector<SweepPoint> points = expandSweep(f);
    ASSERT_EQ(points.size(), 6u);
    EXPECT_EQ(points[0].label(), "a=1, b=x, c=7");
    EXPECT_EQ(points[1].label(), "a=1, b=y, c=8");
    EXPECT_EQ(points[5].label(), "a=2, b=z, c=9");
    for (size_t i = 0; i < points.size(); ++i)
        EXPECT_EQ(points[i].index, i);
}

TEST(SweepPoints, ALatinHypercubeUsesEveryStratumOfEveryAxisOnce) {
    // 10 values per axis and 10 samples: each axis's values must be a permutation.
    const std::string text = "project: p.yaml\naxes:\n"
                             "  - {path: a, range: {from: 1, to: 10, step: 1}}\n"
                             "  - {path: b, range: {from: 1, to: 10, step: 1}}\n"
                             "  - {path: c, range: {from: 1, to: 10, step: 1}}\n"
                             "sample: {method: latin-hypercube, count: 10, seed: SEED}\n";
    auto sample = [&](const std::string& seed) {
        std::string t = text;
        t.replace(t.find("SEED"), 4, seed);
        return expandSweep(parseSweepFile(t, "s.yaml"));
    };
    const std::vector<SweepPoint> points = sample("7");
    ASSERT_EQ(points.size(), 10u); // three axes: two samples coinciding is (1/10)^3 per pair
    for (size_t axis = 0; axis < 3; ++axis) {
        std::set<std::string> seen;
        for (const SweepPoint& p : points)
            seen.insert(p.coordinates[axis].value);
        EXPECT_EQ(seen.size(), 10u) << "axis " << axis;
    }
    // The seed names the sample: the same seed gives it again, another seed another one.
    std::vector<std::string> a, b, c;
    for (const SweepPoint& p : points)
        a.push_back(p.label());
    for (const SweepPoint& p : sample("7"))
        b.push_back(p.label());
    for (const SweepPoint& p : sample("8"))
        c.push_back(p.label());
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(SweepPoints, RandomSamplesStayInsideTheAxesAndDoNotRepeat) {
    const SweepFile f = parseSweepFile("project: p.yaml\naxes:\n"
                                       "  - {path: a, values: [1, 2, 3]}\n"
                                       "  - {path: b, values: [4, 5]}\n"
                                       "sample: {method: random, count: 50, seed: 3}\n",
                                       "s.yaml");
    const std::vector<SweepPoint> points = expandSweep(f);
    EXPECT_EQ(points.size(), 6u); // 50 draws of 6 possible points: all 6, each once
    std::set<std::string> labels;
    for (const SweepPoint& p : points)
        labels.insert(p.label());
    EXPECT_EQ(labels.size(), 6u);
}
