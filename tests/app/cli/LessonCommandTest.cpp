// `astrolabe-cli lesson check`: a bundled lesson's quoted numbers all agree with its runs; a
// wrong number is named at its line with what the run measured; a broken lesson is an error
// naming the lesson file and line.
#include "CliRunner.h"
#include "TestPaths.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using clitest::cli;

namespace {

namespace fs = std::filesystem;

const std::string kRingLesson =
    std::string(ASTROLABE_SOURCE_DIR) + "/resources/lessons/01-ring-all-reduce/lesson.md";

/// A lesson over the quick start (117,780 ns on every NPU) in a fresh folder.
std::string writeLesson(const std::string& name, const std::string& text) {
    const fs::path dir = fs::temp_directory_path() / ("astrolabe-lesson-cli-" + name);
    fs::create_directories(dir);
    fs::copy_file(std::string(ASTROLABE_SOURCE_DIR) + "/projects/quickstart/project.yaml",
                  dir / "project.yaml", fs::copy_options::overwrite_existing);
    std::ofstream(dir / "lesson.md") << text;
    return (dir / "lesson.md").string();
}

} // namespace

TEST(LessonCommand, BundledLessonAgreesWithItsRuns) {
    const auto r = cli({"lesson", "check", kRingLesson});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("3 steps, 10 quoted numbers, 0 disagreeing"), std::string::npos) << r.out;
}

TEST(LessonCommand, ServingLessonAgreesWithItsRuns) {
    const auto r = cli(
        {"lesson", "check",
         std::string(ASTROLABE_SOURCE_DIR) + "/resources/lessons/09-why-disaggregate/lesson.md"});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("5 steps, 14 quoted numbers, 0 disagreeing"), std::string::npos) << r.out;
}

TEST(LessonCommand, ALessonInTheCurrentFolderIsNamedByItsFileAlone) {
    // "lesson check lesson.md" from the lesson's folder: its folder is ".", not "" (which
    // made the command fail with an internal filesystem error).
    const fs::path before = fs::current_path();
    fs::current_path(std::string(ASTROLABE_SOURCE_DIR) + "/resources/lessons/09-why-disaggregate");
    const auto r = cli({"lesson", "check", "lesson.md"});
    fs::current_path(before);
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("0 disagreeing"), std::string::npos) << r.out;
}

TEST(LessonCommand, WrongNumberIsNamedAtItsLine) {
    const std::string lesson =
        writeLesson("wrong", "# T\n```try\nrun\n```\nIt takes [[time-us=117.8]] us, not "
                             "[[time-us=100.0]] us.\n");
    const auto r = cli({"lesson", "check", lesson});
    EXPECT_EQ(r.code, 1) << r.err << r.out;
    EXPECT_NE(r.out.find(lesson + ":5: step 1 [[time-us=117.8]] measured 117.78 ok"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("[[time-us=100.0]] measured 117.78 DISAGREES"), std::string::npos)
        << r.out;
    fs::remove_all(fs::path(lesson).parent_path());
}

TEST(LessonCommand, BrokenLessonIsAnErrorAtItsLine) {
    const std::string lesson = writeLesson("broken", "# T\n```try\nset system.chunks: 4\n```\n");
    const auto r = cli({"lesson", "check", lesson});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(lesson + ":3"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("set <path> = <value>"), std::string::npos) << r.err;
    fs::remove_all(fs::path(lesson).parent_path());
}
