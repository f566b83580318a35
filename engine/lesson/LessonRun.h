#pragma once
// Running a lesson's steps (Lesson.h) and measuring what its text quotes.

#include "core/Simulator.h"
#include "generate/GeneratorSpec.h"
#include "lesson/Lesson.h"
#include "record/RunResult.h"
#include "spec/SimulationSpec.h"
#include "trace/WorkloadNode.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace astrolabe {

/// What one step runs: the project with the step's settings, and the generated training
/// iteration when the lesson sets generate.* settings (then spec.workload is not used).
struct LessonStepSpec {
    SimulationSpec spec;
    std::optional<generate::GeneratorSpec> generator;
};

/// Reads the lesson and checks it all before anything runs: the project exists and reads, and
/// every step's settings lead into the project and give a valid project (and generator spec).
/// Throws ErrorList, each error at the lesson file's line that caused it.
Lesson loadLesson(const std::string& lessonPath);

/// Step `step` (0-based; -1: the setup alone). Throws ErrorList at the lesson's lines.
LessonStepSpec lessonStep(const Lesson& lesson, int step);

/// The traces of a generated step (filling spec.commGroups and naming the workload); empty when
/// the step runs the project's own workload.
std::vector<WorkloadTrace> makeLessonTraces(const LessonStepSpec& step, SimulationSpec& spec);

/// Runs the step as the GUI does (generated traces when it has a generator).
std::shared_ptr<const RunResult> runLessonStep(const LessonStepSpec& step,
                                               ProgressSink* progress = nullptr,
                                               const CancelToken* cancel = nullptr);

/// The metrics quotes may name, with what each measures (docs/lessons.md lists them).
const std::vector<std::pair<std::string, std::string>>& lessonMetrics();

/// The value of `metric` for a step and its run; `previous` is the run of the step before
/// (for "speedup"; nullptr for the first). Throws Error on an unknown metric or one the step
/// cannot give (e.g. a memory figure without a generator).
double lessonMetric(const std::string& metric, const LessonStepSpec& step, const RunResult& run,
                    const RunResult* previous);

/// One quoted number against its step's run.
struct QuoteCheck {
    LessonQuote quote;
    double measured = 0;
    bool agrees = false; ///< |measured - written| <= quotePrecision(written)
    std::string error;   ///< when the metric could not be measured (then agrees is false)
};

/// Runs every step in order and measures every quote (what `astrolabe-cli lesson check` and
/// the lesson tests do). Throws Error when a step's run fails.
std::vector<QuoteCheck> checkLessonQuotes(const Lesson& lesson);

/// Half a unit in the last written digit of `value` ("117.8" -> 0.05, "42" -> 0.5).
double quotePrecision(const std::string& value);

} // namespace astrolabe
