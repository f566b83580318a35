// The lesson format (docs/lessons.md): blocks, steps, quotes, and the errors a wrong lesson
// gives — each naming the lesson file and the line, never a crash.
#include "core/Error.h"
#include "lesson/LessonRun.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>

namespace astrolabe {
namespace {

namespace fs = std::filesystem;

const char* kRing = R"(name: ring
platform:
  dimensions:
    - {type: Ring, size: 4, bandwidth: 50 GiB/s, latency: 500 ns}
system:
  algorithms: {all-reduce: [ring], reduce-scatter: [ring], all-gather: [ring], all-to-all: [ring]}
  chunks: 4
  active-chunks-per-dimension: 1
  local-memory-bandwidth: 50 GB/s
workload:
  microbenchmark: {collective: all-reduce, size: 1 MiB}
)";

struct LessonFolder {
    fs::path dir;
    explicit LessonFolder(const std::string& lesson, const char* project = kRing) {
        dir = fs::temp_directory_path() /
              ("astrolabe-lesson-" +
               std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir);
        std::ofstream(dir / "lesson.md") << lesson;
        if (project)
            std::ofstream(dir / "project.yaml") << project;
    }
    ~LessonFolder() { fs::remove_all(dir); }
    std::string file() const { return (dir / "lesson.md").string(); }
};

/// The first error of loading the lesson (fails the test when it loads).
Error firstError(const std::string& path) {
    try {
        loadLesson(path);
    } catch (const ErrorList& e) {
        return e.errors().front();
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "the lesson loaded";
    return Error(ErrorKind::Internal, "loaded");
}

TEST(LessonFormat, ReadsBlocksStepsQuestionsAndQuotes) {
    const Lesson lesson = parseLesson("# Title\n"
                                      "Intro.\n"
                                      "```try\n"
                                      "set system.chunks = 2\n"
                                      "run\n"
                                      "```\n"
                                      "Took [[time-us=12.5]] us.\n"
                                      "```question\n"
                                      "Why?\n"
                                      "---\n"
                                      "Because [[speedup=2]].\n"
                                      "```\n"
                                      "```try\n"
                                      "set platform.dimensions[0].size = 8\n"
                                      "```\n",
                                      "l.md");
    EXPECT_EQ(lesson.title, "Title");
    ASSERT_EQ(lesson.stepCount(), 2);
    ASSERT_EQ(lesson.quotes.size(), 2u);
    EXPECT_EQ(lesson.quotes[0].metric, "time-us");
    EXPECT_EQ(lesson.quotes[0].value, "12.5");
    EXPECT_EQ(lesson.quotes[0].step, 0);
    EXPECT_EQ(lesson.quotes[0].line, 7);
    EXPECT_EQ(lesson.quotes[1].line, 11);
    const auto settings = lesson.settingsUpTo(1);
    ASSERT_EQ(settings.size(), 2u);
    EXPECT_EQ(settings[1].path, "platform.dimensions[0].size");
    EXPECT_EQ(settings[1].value, "8");
    EXPECT_EQ(settings[1].line, 14);
    EXPECT_EQ(lessonDisplayText("Took [[time-us=12.5]] us."), "Took 12.5 us.");
    EXPECT_EQ(lessonHiddenText("Took [[time-us=12.5]] us, [[speedup=2]]x.", "(run $1)"),
              "Took (run $1) us, (run $1)x.");
    EXPECT_DOUBLE_EQ(quotePrecision("12.5"), 0.05);
    EXPECT_DOUBLE_EQ(quotePrecision("42"), 0.5);
}

TEST(LessonFormat, SyntaxErrorsNameFileAndLine) {
    try {
        parseLesson("# T\n```try\nchange chunks to 4\n```\nSee [[time-x=3]].\n```question\nNo "
                    "answer\n```\n",
                    "bad.md");
        FAIL() << "parsed";
    } catch (const ErrorList& e) {
        const std::string all = e.what();
        EXPECT_NE(all.find("bad.md:3"), std::string::npos) << all;
        EXPECT_NE(all.find("change chunks to 4"), std::string::npos) << all;
        EXPECT_NE(all.find("bad.md:5"), std::string::npos) << all;
        EXPECT_NE(all.find("unknown metric \"time-x\""), std::string::npos) << all;
        EXPECT_NE(all.find("bad.md:6"), std::string::npos) << all;
        EXPECT_NE(all.find("without its answer"), std::string::npos) << all;
    }
}

// A misspelt block would be shown as code and its step lost; other fences are code on purpose.
TEST(LessonFormat, AMisspeltBlockIsAnErrorAndOtherFencesAreCode) {
    try {
        parseLesson("# T\n```tryy\nset system.chunks: 4\n```\n", "typo.md");
        FAIL() << "parsed";
    } catch (const ErrorList& e) {
        EXPECT_NE(std::string(e.what()).find("typo.md:2: unknown block \"```tryy\": did you mean "
                                             "```try?"),
                  std::string::npos)
            << e.what();
    }
    const Lesson lesson =
        parseLesson("# T\n```yaml\nsystem: {chunks: 4}\n```\n```tsv\na\tb\n```\n", "code.md");
    EXPECT_EQ(lesson.stepCount(), 0);
}

// "[[time-us=999 us." never closes: an error, not text that no check reads.
TEST(LessonFormat, AQuoteThatIsNotClosedIsAnError) {
    try {
        parseLesson("# T\n```try\nrun\n```\nIt takes [[time-us=999 us, and [[time-us=5]] "
                    "more.\nA [[link]] in brackets is text.\n",
                    "open.md");
        FAIL() << "parsed";
    } catch (const ErrorList& e) {
        const std::string all = e.what();
        EXPECT_NE(all.find("open.md:5: \"[[time-us=999 us, and [[time-us=...\": a quoted number "
                           "that is not [[metric=value]]"),
                  std::string::npos)
            << all;
        EXPECT_EQ(all.find("open.md:6"), std::string::npos) << all;
    }
}

// A quote without its metric or its value is an error too: it was skipped, and the lesson's
// count of quoted numbers was one short without a word. A word in brackets stays text.
TEST(LessonFormat, AQuoteWithoutItsMetricOrValueIsAnError) {
    for (const auto& [text, shown] :
         {std::pair{"It took [[=9687.9]] us.\n", "\"[[=9687.9]] us.\""},
          std::pair{"It took [[time-us]] us.\n", "\"[[time-us]] us.\""}}) {
        try {
            parseLesson(std::string("# T\n```try\nrun\n```\n") + text, "q.md");
            ADD_FAILURE() << text;
        } catch (const ErrorList& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("q.md:5: ") + shown +
                                                 ": a quoted number that is not [[metric=value]]"),
                      std::string::npos)
                << e.what();
        }
    }
    EXPECT_NO_THROW(parseLesson("# T\n```try\nrun\n```\nSee [[notes]].\n", "q.md"));
}

// The blocks' order is checked: two setup blocks were merged, a setup after a step changed
// what the earlier steps showed, and a block fenced with tildes was shown as code with its step
// lost. A byte-order mark does not hide the title.
TEST(LessonFormat, TheSetupComesOnceBeforeTheStepsAndBlocksUseBackticks) {
    for (const auto& [text, message] :
         {std::pair{"# T\n```setup\nset system.chunks = 2\n```\n```setup\nset system.chunks = "
                    "4\n```\n",
                    "b.md:5: a second setup block (the first is on line 2)"},
          std::pair{"# T\n```try\nrun\n```\n```setup\nset system.chunks = 4\n```\n",
                    "b.md:5: the setup block comes after the first step (line 2)"},
          std::pair{"# T\n~~~try\nrun\n~~~\n", "b.md:2: \"~~~try\" is fenced with tildes"}}) {
        try {
            parseLesson(text, "b.md");
            ADD_FAILURE() << text;
        } catch (const ErrorList& e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(parseLesson("\xEF\xBB\xBF# Titled\n```try\nrun\n```\n", "b.md").title, "Titled");
}

// A lesson is UTF-8 text: a NUL byte, or a byte of a legacy encoding, is named with its line
// and column (in the window's page it would show as a cut line or a replacement mark).
TEST(LessonFormat, ANulByteOrABrokenEncodingIsNamedWithItsLine) {
    for (const auto& [text, message] :
         {std::pair{std::string("# T\n\nSome text\0more\n", 20),
                    "n.md:3: a NUL byte at column 10: \"\\x00more\""},
          std::pair{std::string("# T\nCaf\xE9 au lait\n"),
                    "n.md:2: a byte that is not UTF-8 at column 4: \"\\xE9 au lai\""}}) {
        try {
            parseLesson(text, "n.md");
            ADD_FAILURE() << text;
        } catch (const ErrorList& e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(parseLesson("# Caf\xC3\xA9 \xE2\x80\x94 \xF0\x9F\x93\x88\n", "n.md").title,
              "Caf\xC3\xA9 \xE2\x80\x94 \xF0\x9F\x93\x88")
        << "UTF-8 of two, three and four bytes is text";
}

TEST(LessonFormat, UnknownSettingPathNamesTheLessonLine) {
    LessonFolder folder("# T\n\n```try\nset platform.dimensions[3].size = 8\nrun\n```\n");
    const Error e = firstError(folder.file());
    EXPECT_EQ(e.where().file, folder.file());
    EXPECT_EQ(e.where().line, 4);
    EXPECT_NE(std::string(e.what()).find("platform.dimensions[3]"), std::string::npos) << e.what();
}

TEST(LessonFormat, UnknownLastKeyIsCaughtAtTheStep) {
    LessonFolder folder("# T\n\n```try\nset system.chunkz = 8\n```\n");
    const Error e = firstError(folder.file());
    EXPECT_EQ(e.where().file, folder.file());
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("chunkz"), std::string::npos) << e.what();
}

TEST(LessonFormat, UnknownGeneratorSettingNamesTheLessonLine) {
    LessonFolder folder("# T\n```try\nset generate.pipeline = 4\n```\n");
    const Error e = firstError(folder.file());
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("not a generator setting"), std::string::npos);
}

TEST(LessonFormat, MissingProjectNamesTheLessonLine) {
    LessonFolder folder("# T\n```setup\nproject: nowhere.yaml\n```\n```try\nrun\n```\n", nullptr);
    const Error e = firstError(folder.file());
    EXPECT_EQ(e.where().file, folder.file());
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("nowhere.yaml"), std::string::npos) << e.what();
}

TEST(LessonFormat, MissingLessonFileIsAnError) {
    EXPECT_THROW(loadLesson("/nonexistent/lesson.md"), Error);
}

TEST(LessonFormat, StepsAccumulateWhateverWasRunBefore) {
    LessonFolder folder("# T\n```try\nset platform.dimensions[0].size = 8\n```\n"
                        "```try\nset workload.microbenchmark.size = 4 MiB\n```\n");
    const Lesson lesson = loadLesson(folder.file());
    const LessonStepSpec second = lessonStep(lesson, 1);
    EXPECT_EQ(second.spec.platform.dimensions[0].size, 8);
    EXPECT_EQ(second.spec.workload.microbenchmark.sizeBytes, 4u << 20);
    EXPECT_EQ(lessonStep(lesson, -1).spec.platform.dimensions[0].size, 4);
}

// A set value that is not YAML ended in "internal error: yaml-cpp: ..." with no file or line.
TEST(LessonFormat, ABrokenSetValueNamesTheLessonStepAndLine) {
    LessonFolder folder("# T\n\n```try\nset system.chunks = [1, \nrun\n```\n");
    const Error e = firstError(folder.file());
    EXPECT_EQ(e.where().file, folder.file());
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(e.kind(), ErrorKind::Internal);
    const std::string what = e.what();
    EXPECT_NE(what.find("step 1"), std::string::npos) << what;
    EXPECT_NE(what.find("system.chunks"), std::string::npos) << what;
    EXPECT_NE(what.find("is not YAML"), std::string::npos) << what;
}

// `project: /dev/zero` was reported as "does not exist": it exists, and is not a file to read.
// A link in the folder to it is followed, and so refused as outside the folder (a link to
// /etc/passwd was read and its first line echoed); a FIFO inside the folder gets the reader's
// own message.
TEST(LessonFormat, AProjectThatIsNoFileIsNotCalledMissing) {
    LessonFolder folder("# T\n```setup\nproject: zero.yaml\n```\n```try\nrun\n```\n", nullptr);
    fs::create_symlink("/dev/zero", folder.dir / "zero.yaml");
    Error e = firstError(folder.file());
    EXPECT_EQ(e.where().line, 3);
    std::string what = e.what();
    EXPECT_EQ(what.find("does not exist"), std::string::npos) << what;
    EXPECT_NE(what.find("lies outside the lesson's folder (it is a link there)"), std::string::npos)
        << what;

    LessonFolder fifo("# T\n```setup\nproject: pipe.yaml\n```\n```try\nrun\n```\n", nullptr);
    ASSERT_EQ(::mkfifo((fifo.dir / "pipe.yaml").c_str(), 0600), 0);
    e = firstError(fifo.file());
    what = e.what();
    EXPECT_EQ(what.find("does not exist"), std::string::npos) << what;
    EXPECT_EQ(what.find("outside"), std::string::npos) << what;
}

// A lesson is shared as a folder: it reads files in that folder only. A project, a setting's
// path or a file the project names that leads out of it is refused at the lesson's line.
TEST(LessonFormat, PathsOutOfTheLessonsFolderAreRefused) {
    LessonFolder project("# T\n```setup\nproject: ../../../../etc/passwd\n```\n", nullptr);
    Error e = firstError(project.file());
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("outside the lesson's folder"), std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find("root:"), std::string::npos) << e.what();

    LessonFolder step("# T\n```try\nrun\n```\n```try\nset workload = {trace: "
                      "../../../../etc/passwd}\nrun\n```\n");
    e = firstError(step.file());
    EXPECT_EQ(e.where().line, 6);
    EXPECT_NE(std::string(e.what()).find("step 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("outside the lesson's folder"), std::string::npos)
        << e.what();

    // Traces that are there, one per NPU, but beside the lesson's folder instead of in it.
    const fs::path outside =
        step.dir.parent_path() / ("astrolabe-outside-" + step.dir.filename().string());
    fs::create_directories(outside);
    for (int npu = 0; npu < 4; ++npu)
        std::ofstream(outside / ("t." + std::to_string(npu) + ".et")) << "x";
    const std::string ring = kRing;
    const std::string escaping = ring.substr(0, ring.find("workload:")) +
                                 "workload:\n  trace: " + (outside / "t").string() + "\n";
    LessonFolder file("# T\n```try\nrun\n```\n", escaping.c_str());
    e = firstError(file.file());
    fs::remove_all(outside);
    EXPECT_NE(std::string(e.what()).find("outside the lesson's folder"), std::string::npos)
        << e.what();
}

} // namespace
} // namespace astrolabe

TEST(LessonFormat, AQuoteWithAMegabyteValueIsScannedWithoutRecursion) {
    // A 1 MiB value must not exhaust the stack (a scanner recursing per character would); a
    // "[[x=1]" without its second bracket is left as text.
    const std::string value(1 << 20, '7');
    const std::string text = "a [[bubble-percent=" + value + "]] b [[x=1] c [[y=2]]";
    EXPECT_EQ(astrolabe::lessonDisplayText(text), "a " + value + " b [[x=1] c 2");
    EXPECT_EQ(astrolabe::lessonHiddenText(text, "$1?"), "a $1? b [[x=1] c $1?");
}
