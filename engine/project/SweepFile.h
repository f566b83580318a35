#pragma once
// A sweep file (docs/sweeps.md): a base project and axes over any of its settings, named by the
// setting's path in the project YAML ("platform.dimensions[0].bandwidth", "system.chunks").
// This header holds the file as plain values; engine/sweep/ expands it into points and runs them.

#include "core/Error.h"
#include "spec/SimulationSpec.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

/// One axis: a project setting and the values it takes, each a YAML value as text ("4",
/// "100 GiB/s", "[ring, ring]"). A range in the file is expanded here into its values.
struct SweepAxis {
    std::string name; ///< unique within the sweep; used in constraints, tags and tables
    std::string path; ///< "system.chunks", "platform.dimensions[1].bandwidth"
    std::vector<std::string> values;
    SourceLocation where;
};

/// Axes that vary together (zip: the i-th point takes the i-th value of each), or one axis.
/// Groups combine as a Cartesian product.
struct SweepGroup {
    std::vector<SweepAxis> axes; ///< all of the same length
    size_t size() const { return axes.empty() ? 0 : axes.front().values.size(); }
};

struct SweepConstraint {
    std::string expression; ///< "tp * pp * dp == npus"
    std::string reason;     ///< recorded for the points it skips; the expression when empty
    SourceLocation where;
};

struct SweepSampling {
    enum class Method { All, Random, LatinHypercube };
    Method method = Method::All;
    size_t count = 0;
    uint64_t seed = 1;
};

/// "serving:": how a sweep over a serving project ranks its points (docs/sweeps.md). Every
/// point of a serving project runs as `astrolabe-cli serve` runs it; these say which number is
/// best and whether each point first searches its highest rate within the SLOs.
struct SweepServing {
    std::string objective = "goodput-per-gpu"; ///< one of servingObjectiveNames()
    /// The share of requests that must meet both SLOs at the rate each point searches
    /// (serving/RateSearch.h), in (0, 1]; 0: no search, every point runs the project's rate.
    double rateSearch = 0;
    SourceLocation where;
};

/// The serving objectives, best first by their own measure: "goodput-per-gpu" (requests/s
/// meeting both SLOs per GPU, higher is better), "output-tokens-per-gpu" (output tokens/s per
/// GPU, SLOs ignored, higher is better).
const std::vector<std::string>& servingObjectiveNames();

struct SweepFile {
    std::string file;        ///< the sweep file, absolute
    std::string name;        ///< "name:" or the file's stem
    std::string projectPath; ///< the base project, absolute
    std::vector<SweepGroup> groups;
    /// "set:": settings every point takes, changed from the base project (one value each).
    std::vector<SweepAxis> fixed;
    /// "generate:": the workload is a generated training iteration instead of the project's:
    /// generator settings by their generate-llm flag names ("preset", "tp", "micro-batches"),
    /// as text; axes with paths "generate.<flag>" change them per point.
    std::vector<std::pair<std::string, std::string>> generator;
    SourceLocation generatorWhere;
    std::vector<SweepConstraint> constraints;
    SweepSampling sampling;
    SweepServing serving;
};

/// Checks a sweep file's text; throws ErrorList with every problem (file:line:col: key).
SweepFile parseSweepFile(const std::string& text, const std::string& fileName);

/// The base project of a sweep, read once, from which a point's project is made by replacing
/// the values at the axes' paths. instantiate() may be called from several threads at once.
class ProjectTemplate {
public:
    /// The project file's text, as read once by the caller (it also hashes it); `projectPath`
    /// names it in messages and anchors its relative paths. Throws Error when it is not YAML.
    ProjectTemplate(const std::string& projectPath, const std::string& projectText);
    ~ProjectTemplate();
    ProjectTemplate(const ProjectTemplate&) = delete;
    ProjectTemplate& operator=(const ProjectTemplate&) = delete;

    /// Throws ErrorList naming the axis (at its place in the sweep file) when `axis.path` does
    /// not lead into the project: every key but the last must exist, and list indexes must be
    /// in range. The last key may be absent (a setting left at its default).
    void checkPath(const SweepAxis& axis, const std::string& sweepFile) const;
    /// The project with each (path, value) replaced, read and validated as loadProject does.
    /// Throws ErrorList with the project reader's messages, located in the base file: a key of
    /// it at its line, a value that was set by its key path alone.
    SimulationSpec
    instantiate(const std::vector<std::pair<std::string, std::string>>& values) const;

private:
    std::vector<Error>
    relocate(const std::vector<Error>& errors,
             const std::vector<std::pair<std::string, std::string>>& values) const;

    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace astrolabe
