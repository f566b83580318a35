// Sweep plans and their constraints (docs/sweeps.md): the points with their projects, what is
// refused before anything runs, and the bundled sweeps planned as shipped.
#include "sweep/SweepPlan.h"

#include "TestPaths.h"
#include "engine/sweep/RingProject.h"
#include "project/SweepFile.h"
#include "support/TempDir.h"
#include "sweep/SweepExpression.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace astrolabe;

namespace {

using Strings = std::vector<std::string>;

} // namespace

TEST(SweepExpression, FollowsPrecedenceAndNamesItsMistakes) {
    auto holds = [](const std::string& text) {
        return SweepExpression(text).holds(
            [](const std::string& name) -> std::optional<SweepValue> {
                if (name == "tp")
                    return 8.0;
                if (name == "pp")
                    return 4.0;
                if (name == "algo")
                    return std::string("ring");
                return std::nullopt;
            });
    };
    EXPECT_TRUE(holds("tp * pp == 32"));
    EXPECT_TRUE(holds("tp + pp * 2 == 16"));
    EXPECT_TRUE(holds("(tp + pp) * 2 == 24"));
    EXPECT_TRUE(holds("tp >= 8 and not pp > 4"));
    EXPECT_TRUE(holds("tp < 2 || algo == \"ring\""));
    EXPECT_FALSE(holds("algo != 'ring'"));
    EXPECT_TRUE(holds("-tp % 3 == -2"));
    EXPECT_EQ(SweepExpression("tp * pp * dp == npus").names(), (Strings{"tp", "pp", "dp", "npus"}));
    try {
        holds("tp * dp == 8");
        ADD_FAILURE() << "an unknown name must be an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no axis is named \"dp\""), std::string::npos);
    }
    try {
        SweepExpression("tp * * 2");
        ADD_FAILURE();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("column 6"), std::string::npos) << e.what();
    }
    // A value is no condition: "chunks + 1" held wherever it was not 0. A bare name (an axis of 0
    // and 1) is one.
    for (const char* value : {"tp + 1", "2", "\"ring\"", "-tp", "tp > 1 and pp * 2", "not tp % 2"})
        try {
            SweepExpression{value};
            ADD_FAILURE() << value << " was taken as a condition";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("is a value, not a condition"), std::string::npos)
                << e.what();
        }
    EXPECT_TRUE(holds("tp"));
    EXPECT_TRUE(holds("(tp == 8) or not pp"));
    EXPECT_THROW(holds("algo * 2 == 4"), Error);
    EXPECT_THROW(holds("tp / 0 == 1"), Error);
}

TEST(SweepPlan, PointsAreTheBaseProjectWithTheAxesValues) {
    test::TempDir dir("sweep_plan");
    test::writeRingSweep(dir,
                         "project: project.yaml\naxes:\n"
                         "  - {name: n, path: platform.dimensions.0.size, values: [4, 8, 16]}\n"
                         "  - {path: system.chunks, values: [1, 4]}\n"
                         "  - {path: run.record-timeline, values: [false]}\n"
                         "constraints:\n"
                         "  - {require: npus * chunks <= 32, reason: too many messages}\n");
    const SweepPlan plan = planSweep(dir.path("sweep.yaml"));
    ASSERT_EQ(plan.points.size(), 6u);
    EXPECT_EQ(plan.runnable(), 5u);
    EXPECT_EQ(plan.identity.size(), 16u);
    ASSERT_TRUE(plan.points[3].runnable()); // n=8, chunks=4
    const SimulationSpec spec = plan.work(3).spec;
    EXPECT_EQ(spec.platform.npuCount(), 8);
    EXPECT_EQ(spec.system.preferredDatasetSplits, 4);
    EXPECT_FALSE(spec.options.recordTimeline);
    EXPECT_FALSE(plan.points[5].runnable()); // n=16, chunks=4: 64 > 32
    EXPECT_EQ(plan.points[5].skipReason, "too many messages (npus = 16, chunks = 4)");
    // Tags carry the identity and the point; a run of another sweep is not this sweep's.
    const std::vector<std::string> tags = sweepPointTags(plan, plan.point(3));
    EXPECT_EQ(storedPointIndex(tags, plan.identity), 3u);
    EXPECT_EQ(storedPointIndex(tags, "0123456789abcdef"), std::nullopt);
    EXPECT_NE(std::find(tags.begin(), tags.end(), "n=8"), tags.end());
}

// The example file docs/sweeps.md opens with ("The file") plans as printed, on the 2-D torus
// project: a reader pastes it, so it must be valid YAML with unique axis names.
TEST(SweepPlan, TheDocsExampleFilePlansAsPrinted) {
    std::ifstream in(ASTROLABE_SOURCE_DIR + "/docs/sweeps.md");
    ASSERT_TRUE(in);
    std::stringstream doc;
    doc << in.rdbuf();
    const std::string text = doc.str();
    const size_t heading = text.find("## The file");
    ASSERT_NE(heading, std::string::npos);
    const size_t open = text.find("```yaml\n", heading);
    ASSERT_NE(open, std::string::npos);
    const size_t begin = open + 8;
    const std::string example = text.substr(begin, text.find("```", begin) - begin);
    test::TempDir dir("sweep_doc");
    std::filesystem::copy_file(ASTROLABE_SOURCE_DIR + "/projects/torus-2d/project.yaml",
                               dir.path("project.yaml"));
    test::writeText(dir.path("sweep.yaml"), example);
    const SweepPlan plan = planSweep(dir.path("sweep.yaml"));
    // 40 draws; a point drawn twice runs once.
    EXPECT_LE(plan.points.size(), 40u);
    EXPECT_GE(plan.points.size(), 30u);
    ASSERT_GT(plan.runnable(), 0u);
    for (size_t i = 0; i < plan.points.size(); ++i)
        if (plan.points[i].runnable()) {
            EXPECT_EQ(plan.work(i).spec.platform.npuCount(), 16) << "the zip keeps x * y = 16";
            break;
        }
}

// Every sweep the repository ships (the validation pack's rows, the case studies, the lessons)
// plans: a rule added to the readers or the generator that refuses one of them refuses a
// documented result. The Llama 3.1 405B rows are among them: NeMo splits their 126 layers into
// 64 chunks with the embedding and the loss counted as layers.
TEST(SweepPlan, EveryBundledSweepPlans) {
    namespace fs = std::filesystem;
    size_t planned = 0;
    for (const char* root : {"projects", "resources/lessons"})
        for (const auto& entry :
             fs::recursive_directory_iterator(ASTROLABE_SOURCE_DIR + "/" + root)) {
            if (!entry.is_regular_file() || entry.path().extension() != ".yaml")
                continue;
            std::ifstream in(entry.path());
            std::stringstream text;
            text << in.rdbuf();
            if (text.str().find("\naxes:") == std::string::npos)
                continue;
            try {
                const SweepPlan plan = planSweep(entry.path().string());
                EXPECT_GT(plan.runnable(), 0u) << entry.path();
                ++planned;
            } catch (const Error& e) {
                ADD_FAILURE() << entry.path() << ": " << e.what();
            }
        }
    EXPECT_GE(planned, 27u) << "the bundled sweeps were not found";
}

TEST(SweepPlan, BadPathsAndInvalidPointsFailBeforeAnythingRuns) {
    test::TempDir dir("sweep_bad");
    test::writeText(dir.path("project.yaml"), test::kRingProject);
    test::writeText(dir.path("bad-path.yaml"),
                    "project: project.yaml\naxes:\n"
                    "  - {path: \"platform.dimensions[1].size\", values: [2]}\n"
                    "  - {path: sytem.chunks, values: [2]}\n");
    try {
        planSweep(dir.path("bad-path.yaml"));
        ADD_FAILURE();
    } catch (const ErrorList& e) {
        const std::string what = e.what();
        ASSERT_EQ(e.errors().size(), 2u) << what;
        EXPECT_NE(what.find("bad-path.yaml:3:5"), std::string::npos) << what;
        EXPECT_NE(what.find("platform.dimensions has 1 entries"), std::string::npos) << what;
        EXPECT_NE(what.find("bad-path.yaml:4:5"), std::string::npos) << what;
        EXPECT_NE(what.find("the base project has no sytem"), std::string::npos) << what;
    }
    // An empty list is called that, not "a list" where a list was expected.
    for (const char* empty :
         {"axes: []\n", "axes:\n  - {path: system.chunks, values: []}\n", "axes:\n  - zip: []\n"}) {
        test::writeText(dir.path("empty.yaml"), std::string("project: project.yaml\n") + empty);
        try {
            planSweep(dir.path("empty.yaml"));
            ADD_FAILURE() << empty;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("found an empty list"), std::string::npos)
                << e.what();
        }
    }
    // A point given twice (a value repeated, or a zip's row), and a serving: section on a sweep
    // of training points (it would be read and do nothing).
    const std::pair<const char*, const char*> refused[] = {
        {"axes:\n  - {path: system.chunks, values: [4, 2, 4]}\n",
         "values[2] (chunks = 4) repeats values[0]: the same point would run twice"},
        {"axes:\n  - zip:\n    - {path: system.chunks, values: [1, 2, 1]}\n"
         "    - {path: system.active-chunks-per-dimension, values: [1, 1, 1]}\n",
         "values[2] (chunks = 1, active-chunks-per-dimension = 1) repeats values[0]"},
        {"serving: {objective: goodput-per-gpu}\naxes:\n  - {path: system.chunks, values: [1]}\n",
         "sweep.yaml:2:10: serving: the sweep's points train (their workload is the base "
         "project's, which has no serving: section)"}};
    for (const auto& [sweep, message] : refused) {
        test::writeText(dir.path("sweep.yaml"), std::string("project: project.yaml\n") + sweep);
        try {
            planSweep(dir.path("sweep.yaml"));
            ADD_FAILURE() << sweep;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    }
    // A zip may repeat a value in one axis when its rows differ.
    test::writeText(dir.path("sweep.yaml"),
                    "project: project.yaml\naxes:\n  - zip:\n"
                    "    - {path: system.chunks, values: [2, 2]}\n"
                    "    - {path: system.active-chunks-per-dimension, values: [1, 2]}\n");
    EXPECT_EQ(planSweep(dir.path("sweep.yaml")).points.size(), 2u);
    test::writeText(dir.path("bad-value.yaml"), "project: project.yaml\naxes:\n"
                                                "  - {path: system.chunks, values: [2, 0]}\n");
    try {
        planSweep(dir.path("bad-value.yaml"));
        ADD_FAILURE();
    } catch (const ErrorList& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("point 1 (chunks=0) makes an invalid project"), std::string::npos)
            << what;
        EXPECT_EQ(e.errors().size(), 1u) << what;
        EXPECT_NE(what.find("system.chunks"), std::string::npos) << what;
    }
    // A base project no point can fix is reported once, with the points it spoils.
    std::string broken = test::kRingProject;
    broken.erase(broken.find("  chunks: 4\n"), 12);
    test::writeText(dir.path("project.yaml"), broken);
    test::writeText(dir.path("all-bad.yaml"),
                    "project: project.yaml\naxes:\n"
                    "  - {path: system.endpoint-delay, values: [1 ns, 2 ns, 3 ns, 4 ns]}\n");
    try {
        planSweep(dir.path("all-bad.yaml"));
        ADD_FAILURE();
    } catch (const ErrorList& e) {
        const std::string what = e.what();
        ASSERT_EQ(e.errors().size(), 1u) << what;
        EXPECT_NE(what.find("points 0 (endpoint-delay=1 ns), 1 (endpoint-delay=2 ns), 2 "
                            "(endpoint-delay=3 ns) and 1 more make an invalid project"),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("system.chunks: required key is missing"), std::string::npos) << what;
    }
    test::writeText(dir.path("project.yaml"), test::kRingProject);
    // The same point skipped by a constraint is no error.
    test::writeText(dir.path("skipped.yaml"), "project: project.yaml\naxes:\n"
                                              "  - {path: system.chunks, values: [2, 0]}\n"
                                              "constraints: [chunks >= 1]\n");
    const SweepPlan plan = planSweep(dir.path("skipped.yaml"));
    EXPECT_EQ(plan.runnable(), 1u);
    EXPECT_EQ(plan.points[1].skipReason, "\"chunks >= 1\" does not hold (chunks = 0)");
}

// Nesting is bounded (a fuzzed constraint of thousands of "(-" overflowed the stack): 200 levels
// of brackets, not or unary minus are read, deeper ones refused with the limit named, also
// within the length limit that refuses longer texts first.
TEST(SweepExpression, DeepNestingIsRefusedNotAStackOverflow) {
    const auto nested = [](const std::string& open, int levels, const std::string& close) {
        std::string text;
        for (int i = 0; i < levels; ++i)
            text += open;
        text += "1";
        for (int i = 0; i < levels && !close.empty(); ++i)
            text += close;
        return text + " == 1";
    };
    EXPECT_NO_THROW(SweepExpression(nested("(", 150, ")")));
    for (const char* opening : {"(", "-", "not ", "(-"}) {
        const std::string open = opening;
        const std::string close = open == "(" ? ")" : open == "(-" ? ")" : "";
        try {
            SweepExpression(nested(open, 1'000, close)); // within the length limit
            FAIL() << open;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("nested more than 200 levels"), std::string::npos)
                << e.what();
        }
    }
}

// platform.accelerator: the project names the part once; a generate: section without its own gpu
// takes the part's figures, its own keys override them, and a gpu it names wins.
TEST(SweepPlan, TheProjectsAcceleratorIsTheGeneratorsGpu) {
    test::TempDir dir("sweep_accelerator");
    std::string project = test::kRingProject;
    const std::string platform = "platform:\n";
    project.replace(project.find(platform), platform.size(), platform + "  accelerator: h100\n");
    test::writeText(dir.path("project.yaml"), project);
    auto generated = [&](const std::string& generate) {
        test::writeText(
            dir.path("sweep.yaml"),
            "project: project.yaml\ngenerate: {preset: llama3.2-1b, layers: 2, dp: 8, " + generate +
                "}\naxes:\n  - {path: system.chunks, values: [1]}\n");
        const SweepPlan plan = planSweep(dir.path("sweep.yaml"));
        EXPECT_EQ(plan.work(0).spec.platform.accelerator, "h100");
        return *plan.work(0).generator;
    };
    const generate::GeneratorSpec named = generated("precision: fp8");
    EXPECT_DOUBLE_EQ(named.compute.peakTflops, 1979); // H100 SXM FP8 dense, datasheet
    EXPECT_DOUBLE_EQ(named.compute.hbmGBps, 3350);
    EXPECT_DOUBLE_EQ(named.compute.gemmTflops, 1402.6);
    EXPECT_DOUBLE_EQ(generated("hbm-bandwidth: 3000").compute.hbmGBps, 3000); // a field override
    EXPECT_DOUBLE_EQ(generated("gpu: a100-80gb").compute.peakTflops, 312);    // the row's gpu
    // A name outside the library is an error naming the key.
    project.replace(project.find("h100"), 4, "h1000");
    test::writeText(dir.path("project.yaml"), project);
    test::writeText(dir.path("sweep.yaml"),
                    "project: project.yaml\ngenerate: {preset: llama3.2-1b, layers: 2, dp: 8}\n"
                    "axes:\n  - {path: system.chunks, values: [1]}\n");
    try {
        (void)planSweep(dir.path("sweep.yaml")).work(0);
        FAIL() << "h1000 is not in the accelerator library";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("platform.accelerator"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("h100"), std::string::npos) << e.what();
    }
}

// A point's project is the base re-emitted with the point's values (no comments, another
// layout), so the reader's lines are not the file's: an error is placed in the base file, and
// one in a value the point set is named by its key path alone (that value is in no file).
TEST(ProjectTemplate, ErrorsArePlacedInTheBaseFileNotInTheReEmittedText) {
    const std::string base = "# three lines of comments\n#\n#\n" + std::string(test::kRingProject) +
                             "comm-groups:\n  1: [0, 7]\n";
    const ProjectTemplate project("p.yaml", base);
    auto errorOf = [&](const std::vector<std::pair<std::string, std::string>>& values) {
        try {
            project.instantiate(values);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    // Four NPUs: line 22 of the base, "  1: [0, 7]", names rank 7, no longer an NPU.
    std::string what = errorOf({{"platform.dimensions[0].size", "4"}});
    EXPECT_NE(what.find("p.yaml:22:10: comm-groups.1[1]: expected a rank below 4"),
              std::string::npos)
        << what;
    // The set value's error has no line: line 7 of the re-emitted text is not it.
    what = errorOf({{"system.chunks", "0"}});
    EXPECT_NE(what.find("p.yaml: system.chunks: expected 1 or more chunks, found 0"),
              std::string::npos)
        << what;
    what = errorOf({{"platform.dimensions.0", "{type: Ring, size: 8, bandwidth: 50 ns, "
                                              "latency: 1 ns}"}});
    EXPECT_NE(what.find("p.yaml: platform.dimensions[0].bandwidth: expected a bandwidth"),
              std::string::npos)
        << what;
}
