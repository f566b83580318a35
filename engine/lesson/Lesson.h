#pragma once
// A lesson (docs/lessons.md): a folder holding lesson.md, Markdown with three kinds of fenced
// block, and the project it runs.
//
//   ```setup              the project (default: project.yaml beside lesson.md) and settings
//   project: project.yaml changed before the first step; optional
//   set system.chunks = 4
//   ```
//   ```try                a "Try it" step: settings changed (by their path in the project YAML,
//   set workload.microbenchmark.size = 64 MiB   as in a sweep; generate.<flag> for the
//   run                   training-iteration generator's settings), then the project runs
//   ```
//   ```question           a question; the answer, after a line "---", is shown on request
//   ```
//
// Numbers quoted in the text are written [[metric=value]] (e.g. [[time-us=117.8]]): the panel
// shows the value alone, and tests check it against the run of the nearest "Try it" step
// above it (LessonRun.h), to half a unit in the value's last written digit.
//
// Steps accumulate: step k is the setup's settings, then steps 0..k's in order (a later value
// of the same path wins), so a step gives the same project whatever was clicked before.

#include <string>
#include <vector>

namespace astrolabe {

struct LessonSetting {
    std::string path;  ///< "platform.dimensions[0].size", "generate.tp"
    std::string value; ///< YAML text: "16", "64 MiB"
    int line = 0;      ///< in lesson.md, 1-based
};

struct LessonBlock {
    enum class Kind { Text, Try, Question };
    Kind kind = Kind::Text;
    int line = 0;         ///< first line in lesson.md
    std::string markdown; ///< Text: the text (markers left in); Question: the question
    std::string answer;   ///< Question only
    std::vector<LessonSetting> settings; ///< Try only
    int step = -1;                       ///< Try only: 0-based
};

/// A number the text quotes: `value` as written, checked against `metric` of step `step`.
struct LessonQuote {
    std::string metric;
    std::string value;
    int step = 0;
    int line = 0;
};

struct Lesson {
    std::string file;        ///< lesson.md, as given
    std::string title;       ///< the first "# " heading
    std::string projectPath; ///< absolute or relative to the working directory
    /// The folder whose files the steps may read: the lesson's own, or the copy's when the
    /// steps run from a copy of its files (empty: the folder of `file`).
    std::string folder;
    int projectLine = 1; ///< where the project is named (1 when by default)
    std::vector<LessonSetting> setup;
    std::vector<LessonBlock> blocks;
    std::vector<LessonQuote> quotes;
    int stepCount() const;
    /// Step `step`'s settings: the setup's, then those of steps 0..step (later ones win).
    std::vector<LessonSetting> settingsUpTo(int step) const;
};

/// Reads the Markdown; checks its syntax (blocks closed, lines of try and setup blocks, quotes
/// after a step, known metrics). Throws ErrorList naming `fileName` and the line of each problem.
/// Does not read the project.
Lesson parseLesson(const std::string& text, const std::string& fileName);

/// The text with each [[metric=value]] replaced by its value, as shown to the reader.
std::string lessonDisplayText(const std::string& markdown);
/// The text with each [[metric=value]] replaced by `placeholder` (taken literally): the numbers
/// of a step not run yet, hidden until the reader runs it.
std::string lessonHiddenText(const std::string& markdown, const std::string& placeholder);

} // namespace astrolabe
