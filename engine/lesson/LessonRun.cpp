#include "lesson/LessonRun.h"

#include "core/Error.h"
#include "core/InputFile.h"
#include "generate/GeneratorValues.h"
#include "generate/ModelFigures.h"
#include "generate/WorkloadGenerator.h"
#include "project/SweepFile.h"
#include "serving/ServingCodec.h"
#include "serving/ServingRun.h"
#include "simulation/Simulation.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

namespace astrolabe {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kGeneratePrefix = "generate.";

bool isGeneratorPath(const std::string& path) {
    return path.rfind(kGeneratePrefix, 0) == 0;
}

std::string readText(const std::string& path, const std::string& what) {
    return readInputFile(path, what, kMaxTextInputBytes);
}

/// The line a step's problems are reported at: its try block (the setup: the project line).
int stepLine(const Lesson& lesson, int step) {
    for (const LessonBlock& block : lesson.blocks)
        if (block.kind == LessonBlock::Kind::Try && block.step == step)
            return block.line;
    return lesson.projectLine;
}

Error atLesson(const Lesson& lesson, int line, const std::string& what, const Error& cause) {
    return Error(cause.kind() == ErrorKind::Input ? ErrorKind::Input : ErrorKind::Validation,
                 what + ": " + cause.what(), SourceLocation{lesson.file, line, 0, {}});
}

const RunResult& requireRun(const RunResult* run, const std::string& metric) {
    if (!run)
        throw Error(ErrorKind::Validation, "\"" + metric + "\" needs the step before it");
    return *run;
}

const DimensionSpec& firstDimension(const LessonStepSpec& step, const std::string& metric) {
    if (step.spec.platform.dimensions.empty())
        throw Error(ErrorKind::Validation, "\"" + metric + "\" needs a platform dimension");
    return step.spec.platform.dimensions.front();
}

/// A serving metric of a serving step's run; nothing when `metric` is not a serving metric.
std::optional<double> servingMetric(const std::string& metric, const RunResult& run) {
    static const std::vector<std::string> names{"ttft-p50-ms",   "ttft-p90-ms", "tpot-p50-ms",
                                                "tpot-p90-ms",   "slo-percent", "goodput-per-gpu",
                                                "tokens-per-gpu"};
    if (std::find(names.begin(), names.end(), metric) == names.end())
        return std::nullopt;
    const std::optional<serving::ServingResult> records = serving::servingRecordsOf(run);
    if (!records)
        throw Error(ErrorKind::Validation,
                    "\"" + metric + "\" needs a serving step (a project with a serving: section)");
    const serving::ServingSummary& s = records->summary;
    if (metric == "ttft-p50-ms")
        return s.ttft.p50 * 1e3;
    if (metric == "ttft-p90-ms")
        return s.ttft.p90 * 1e3;
    if (metric == "tpot-p50-ms")
        return s.tpot.p50 * 1e3;
    if (metric == "tpot-p90-ms")
        return s.tpot.p90 * 1e3;
    if (metric == "slo-percent")
        return s.sloAttainment * 100;
    if (metric == "goodput-per-gpu")
        return s.goodputPerGpu;
    return s.outputTokensPerGpuSecond;
}

generate::ModelFigures figuresOf(const LessonStepSpec& step, const std::string& metric) {
    if (!step.generator)
        throw Error(ErrorKind::Validation,
                    "\"" + metric + "\" needs a generated workload (generate.* settings)");
    return generate::computeFigures(*step.generator);
}

/// A lesson reads files in its own folder only (isInsideFolder, links followed): a lesson is
/// shared as a folder, and one that named ../../../../etc/passwd, or held a link to it, would
/// read (and echo) whatever the reader's machine holds there.
bool insideFolder(const fs::path& folder, const fs::path& path) {
    return isInsideFolder(folder.string(), path.string());
}

/// A setting value that reads as a path out of the folder: absolute, or climbing out with "..".
bool leavesFolder(const fs::path& folder, const std::string& value) {
    if (value.empty() || (value[0] != '/' && value.find("..") == std::string::npos))
        return false;
    return !insideFolder(folder, folder / value);
}

/// The files a step's project reads, with what they are; each must lie in the lesson's folder.
std::vector<std::pair<std::string, std::string>> filesOf(const SimulationSpec& spec) {
    std::vector<std::pair<std::string, std::string>> files;
    if (spec.workload.kind == WorkloadSource::Kind::ChakraTrace)
        files.emplace_back("the workload's traces", spec.workload.tracePrefix);
    for (const auto& [what, path] : {std::pair{"the network file", spec.platform.sourceFile},
                                     std::pair{"the system file", spec.system.sourceFile},
                                     std::pair{"the memory file", spec.memory.sourceFile}})
        if (!path.empty())
            files.emplace_back(what, path);
    return files;
}

/// Every setting of the setup and the steps whose value leaves the lesson's folder.
void checkSettingPaths(const Lesson& lesson, const fs::path& folder, std::vector<Error>& errors) {
    const auto check = [&](const LessonSetting& s, const std::string& where) {
        if (leavesFolder(folder, s.value))
            errors.emplace_back(ErrorKind::Validation,
                                where + ": \"set " + s.path + " = " + s.value +
                                    "\" names a path outside the lesson's folder",
                                SourceLocation{lesson.file, s.line, 0, s.path},
                                "a lesson reads only files in its own folder");
    };
    for (const LessonSetting& s : lesson.setup)
        check(s, "the setup");
    for (const LessonBlock& block : lesson.blocks)
        for (const LessonSetting& s : block.settings)
            check(s, "step " + std::to_string(block.step + 1));
}

} // namespace

Lesson loadLesson(const std::string& lessonPath) {
    Lesson lesson = parseLesson(readText(lessonPath, "the lesson"), lessonPath);
    fs::path folder = fs::path(lessonPath).parent_path();
    if (folder.empty()) // "lesson.md" in the current folder
        folder = ".";
    const std::string named = lesson.projectPath.empty() ? "project.yaml" : lesson.projectPath;
    lesson.projectPath = (folder / named).lexically_normal().string();
    if (!insideFolder(folder, lesson.projectPath)) {
        std::error_code linkError;
        const bool link = fs::is_symlink(lesson.projectPath, linkError);
        throw ErrorList(
            {Error(ErrorKind::Validation,
                   "the lesson's project \"" + named + "\" lies outside the lesson's folder" +
                       (link ? " (it is a link there)" : ""),
                   SourceLocation{lessonPath, lesson.projectLine, 0, {}},
                   "a lesson reads only files in its own folder: project: <file "
                   "beside lesson.md>")});
    }
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(lesson.projectPath, ec)))
        throw ErrorList({Error(ErrorKind::Input,
                               "the lesson's project \"" + named +
                                   "\" does not exist (looked for " + lesson.projectPath + ")",
                               SourceLocation{lessonPath, lesson.projectLine, 0, {}},
                               "name it in a setup block: project: <file beside lesson.md>")});
    std::vector<Error> errors;
    checkSettingPaths(lesson, folder, errors);
    if (!errors.empty())
        throw ErrorList(std::move(errors));
    try {
        const ProjectTemplate project(lesson.projectPath,
                                      readText(lesson.projectPath, "the lesson's project"));
        std::vector<LessonSetting> all = lesson.settingsUpTo(lesson.stepCount());
        for (const LessonSetting& s : all)
            if (!isGeneratorPath(s.path)) {
                try {
                    project.checkPath(SweepAxis{s.path,
                                                s.path,
                                                {s.value},
                                                SourceLocation{lessonPath, s.line, 0, s.path}},
                                      lessonPath);
                } catch (const ErrorList& e) {
                    errors.insert(errors.end(), e.errors().begin(), e.errors().end());
                }
            } else if (const std::string name = s.path.substr(kGeneratePrefix.size());
                       name != "preset") {
                const std::vector<std::string> names = generate::generatorValueNames();
                if (std::find(names.begin(), names.end(), name) == names.end())
                    errors.emplace_back(
                        ErrorKind::Validation, "\"" + s.path + "\": not a generator setting",
                        SourceLocation{lessonPath, s.line, 0, s.path},
                        "the names are generate-llm's flags (docs/generator.md)" +
                            std::string(closestMatch(name, names).empty()
                                            ? ""
                                            : "; did you mean " + closestMatch(name, names) + "?"));
            }
    } catch (const Error& e) {
        errors.push_back(atLesson(lesson, lesson.projectLine, "the lesson's project", e));
    }
    if (errors.empty())
        for (int step = -1; step < lesson.stepCount(); ++step)
            try {
                lessonStep(lesson, step);
            } catch (const ErrorList& e) {
                errors.insert(errors.end(), e.errors().begin(), e.errors().end());
                if (step < 0)
                    break; // the project itself is wrong: every step would repeat it
            }
    if (!errors.empty())
        throw ErrorList(std::move(errors));
    return lesson;
}

LessonStepSpec lessonStep(const Lesson& lesson, int step) {
    std::vector<std::pair<std::string, std::string>> overrides;
    std::map<std::string, std::string> generator;
    for (const LessonSetting& s : lesson.settingsUpTo(step)) {
        if (isGeneratorPath(s.path))
            generator[s.path.substr(kGeneratePrefix.size())] = s.value;
        else
            overrides.emplace_back(s.path, s.value);
    }
    const std::string what =
        step < 0 ? std::string("the setup") : "step " + std::to_string(step + 1);
    LessonStepSpec out;
    try {
        const ProjectTemplate project(lesson.projectPath,
                                      readText(lesson.projectPath, "the lesson's project"));
        out.spec = project.instantiate(overrides);
        fs::path folder =
            lesson.folder.empty() ? fs::path(lesson.file).parent_path() : fs::path(lesson.folder);
        if (folder.empty())
            folder = ".";
        for (const auto& [file, path] : filesOf(out.spec))
            if (!insideFolder(folder, path))
                throw Error(ErrorKind::Validation,
                            "reads " + file + " at " + path + ", outside the lesson's folder", {},
                            "a lesson reads only files in its own folder");
        if (!generator.empty())
            out.generator = generate::generatorSpecForPlatform(generator, "gpt2-124m",
                                                               out.spec.platform.npuCount());
    } catch (const Error& e) {
        throw ErrorList({atLesson(lesson, stepLine(lesson, step), what, e)});
    }
    return out;
}

std::vector<WorkloadTrace> makeLessonTraces(const LessonStepSpec& step, SimulationSpec& spec) {
    if (!step.generator)
        return {};
    generate::GeneratedWorkload workload = generate::generateWorkload(*step.generator);
    spec.commGroups = std::move(workload.groups);
    spec.workload.kind = WorkloadSource::Kind::ChakraTrace;
    spec.workload.tracePrefix = "generated:" + step.generator->model.name;
    return std::move(workload.traces);
}

std::shared_ptr<const RunResult> runLessonStep(const LessonStepSpec& step, ProgressSink* progress,
                                               const CancelToken* cancel) {
    if (!step.generator && serving::isServingProject(step.spec)) // as `serve` runs it
        return std::make_shared<const RunResult>(
            serving::servingRunResult(step.spec, serving::runServing(step.spec)));
    if (!step.generator)
        return runSimulation(step.spec, progress, cancel);
    SimulationSpec spec = step.spec;
    std::vector<WorkloadTrace> traces = makeLessonTraces(step, spec);
    return runSimulation(spec, std::move(traces), progress, cancel);
}

const std::vector<std::pair<std::string, std::string>>& lessonMetrics() {
    static const std::vector<std::pair<std::string, std::string>> metrics = {
        {"time-us", "the run's simulated time, microseconds"},
        {"time-ms", "the run's simulated time, milliseconds"},
        {"speedup", "the step before's time divided by this step's"},
        {"ring-bound-us",
         "2(N-1)/N x size / bandwidth on the first dimension (N NPUs), microseconds"},
        {"over-bound-percent",
         "how much longer the run is than ring-bound-us, percent of ring-bound-us"},
        {"latency-bound-us", "2(N-1) x the first dimension's link latency, microseconds"},
        {"compute-percent", "the NPUs' mean compute time as a share of the run, percent"},
        {"bubble-percent", "the pipeline bubble (p-1)/(m+p-1) of the generated iteration, percent"},
        {"memory-gib", "the generator's peak memory per NPU (worst stage), GiB"},
        {"offloaded-gib", "model states offloaded out of HBM per NPU, GiB"},
        {"link-gib", "bytes carried by all links together (each hop counted), GiB"},
        {"ttft-p50-ms", "a serving step's median time to first token, milliseconds"},
        {"ttft-p90-ms", "a serving step's 90th-percentile time to first token, milliseconds"},
        {"tpot-p50-ms", "a serving step's median time per output token, milliseconds"},
        {"tpot-p90-ms", "a serving step's 90th-percentile time per output token, milliseconds"},
        {"slo-percent", "a serving step's requests meeting both SLOs, percent"},
        {"goodput-per-gpu", "a serving step's requests/s meeting both SLOs, per GPU"},
        {"tokens-per-gpu", "a serving step's output tokens/s per GPU"},
    };
    return metrics;
}

double lessonMetric(const std::string& metric, const LessonStepSpec& step, const RunResult& run,
                    const RunResult* previous) {
    const double seconds = run.endTime.seconds();
    if (metric == "time-us")
        return seconds * 1e6;
    if (metric == "time-ms")
        return seconds * 1e3;
    if (metric == "speedup")
        return requireRun(previous, metric).endTime.seconds() / seconds;
    if (metric == "over-bound-percent")
        return 100 * (seconds * 1e6 / lessonMetric("ring-bound-us", step, run, previous) - 1);
    if (metric == "ring-bound-us" || metric == "latency-bound-us") {
        const DimensionSpec& dim = firstDimension(step, metric);
        const double n = dim.size;
        if (metric == "latency-bound-us")
            return 2 * (n - 1) * dim.latencyNs / 1e3;
        if (step.spec.workload.kind != WorkloadSource::Kind::Microbenchmark)
            throw Error(ErrorKind::Validation, "\"ring-bound-us\" needs a microbenchmark");
        const double size = static_cast<double>(step.spec.workload.microbenchmark.sizeBytes);
        return 2 * (n - 1) / n * size / dim.bandwidthBytesPerSecond * 1e6;
    }
    if (metric == "compute-percent") {
        if (run.npus.empty() || seconds <= 0)
            return 0;
        double compute = 0;
        for (const NpuSummary& npu : run.npus)
            compute += npu.computeUnion.seconds();
        return 100 * compute / static_cast<double>(run.npus.size()) / seconds;
    }
    if (metric == "bubble-percent")
        return 100 * figuresOf(step, metric).bubbleFraction;
    if (metric == "memory-gib")
        return figuresOf(step, metric).memory.total() / static_cast<double>(kGiB);
    if (metric == "offloaded-gib")
        return figuresOf(step, metric).memory.offloaded() / static_cast<double>(kGiB);
    if (metric == "link-gib") {
        double bytes = 0;
        for (const LinkStats& link : run.linkStats)
            bytes += static_cast<double>(link.bytes);
        return bytes / static_cast<double>(kGiB);
    }
    if (const std::optional<double> value = servingMetric(metric, run))
        return *value;
    throw Error(ErrorKind::Validation, "unknown lesson metric \"" + metric + "\"");
}

std::vector<QuoteCheck> checkLessonQuotes(const Lesson& lesson) {
    std::vector<std::shared_ptr<const RunResult>> runs;
    std::vector<LessonStepSpec> steps;
    for (int step = 0; step < lesson.stepCount(); ++step) {
        steps.push_back(lessonStep(lesson, step));
        runs.push_back(runLessonStep(steps.back()));
    }
    std::vector<QuoteCheck> out;
    for (const LessonQuote& quote : lesson.quotes) {
        QuoteCheck check{quote, 0, false, {}};
        try {
            const auto step = static_cast<size_t>(quote.step);
            check.measured = lessonMetric(quote.metric, steps.at(step), *runs.at(step),
                                          step > 0 ? runs[step - 1].get() : nullptr);
            const double written = std::stod(quote.value);
            // 1e-9 relative: the decimal value itself is not exact in binary.
            check.agrees = std::abs(check.measured - written) <=
                           quotePrecision(quote.value) + 1e-9 * std::abs(written);
        } catch (const std::exception& e) {
            check.error = e.what();
        }
        out.push_back(std::move(check));
    }
    return out;
}

double quotePrecision(const std::string& value) {
    const size_t dot = value.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(value.size() - dot - 1);
    return 0.5 * std::pow(10.0, -decimals);
}

} // namespace astrolabe
