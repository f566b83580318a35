#include "sweep/SweepPlan.h"

#include "core/InputFile.h"
#include "generate/GeneratorValues.h"
#include "hardware/Accelerator.h"
#include "project/ProjectFile.h"
#include "serving/ServingRun.h"
#include "store/Sha256.h"
#include "sweep/SweepChoices.h"
#include "sweep/SweepExpression.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <variant>

namespace astrolabe {
namespace {

SweepPoint makePoint(const SweepFile& sweep, const uint32_t* choice, size_t index) {
    SweepPoint point;
    point.index = index;
    for (size_t g = 0; g < sweep.groups.size(); ++g)
        for (const SweepAxis& axis : sweep.groups[g].axes)
            point.coordinates.push_back({axis.name, axis.path, axis.values[choice[g]]});
    return point;
}

constexpr std::string_view kGeneratePrefix = "generate.";

bool isGeneratorPath(const std::string& path) {
    return path.rfind(kGeneratePrefix, 0) == 0;
}

/// The point's generator spec: the sweep's generate: section with the point's generate.*
/// values over it, checked and matched to the platform's NPU count.
generate::GeneratorSpec pointGenerator(const SweepFile& sweep, const SweepPoint& point,
                                       const SimulationSpec& project) {
    const int npus = project.platform.npuCount();
    std::map<std::string, std::string> values(sweep.generator.begin(), sweep.generator.end());
    // The project's platform.accelerator stands for a gpu the generate: section does not name.
    const std::string& accelerator = project.platform.accelerator;
    if (!accelerator.empty() && !values.count("gpu"))
        values["gpu"] = hardware::findAccelerator(accelerator, "platform.accelerator").name;
    for (const SweepCoordinate& c : point.coordinates)
        if (isGeneratorPath(c.path))
            values[c.path.substr(kGeneratePrefix.size())] = c.value;
    return generate::generatorSpecForPlatform(
        std::move(values), "gpt3-175b", npus,
        "skip such points with a constraint, e.g. tp * pp * dp == npus");
}

std::string shortHash(const std::string& sweepText, const std::string& projectText) {
    Sha256 h;
    h.update(std::to_string(sweepText.size()) + ":");
    h.update(sweepText);
    h.update(projectText);
    return h.hexDigest().substr(0, 16);
}

} // namespace

std::string SweepPoint::label() const {
    std::string out;
    for (const SweepCoordinate& c : coordinates) {
        if (!out.empty())
            out += ", ";
        out += c.name;
        out += "=";
        out += c.value;
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> SweepPoint::overrides() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const SweepCoordinate& c : coordinates)
        out.emplace_back(c.path, c.value);
    return out;
}

std::vector<SweepPoint> expandSweep(const SweepFile& sweep) {
    const std::vector<uint32_t> choices = pointChoices(sweep);
    const size_t groups = sweep.groups.size();
    std::vector<SweepPoint> points;
    for (size_t i = 0; groups > 0 && i < choices.size() / groups; ++i)
        points.push_back(makePoint(sweep, &choices[i * groups], i));
    return points;
}

size_t SweepPlan::runnable() const {
    return static_cast<size_t>(std::count_if(points.begin(), points.end(),
                                             [](const PlannedPoint& p) { return p.runnable(); }));
}

SweepPoint SweepPlan::point(size_t index) const {
    return makePoint(file, &choices.at(index * groupCount), index);
}

namespace {

/// The set: values and the point's own (not generate.*), in that order.
std::vector<std::pair<std::string, std::string>> projectValuesOf(const SweepPlan& plan,
                                                                 const SweepPoint& p) {
    std::vector<std::pair<std::string, std::string>> values;
    for (const SweepAxis& axis : plan.file.fixed)
        values.emplace_back(axis.path, axis.values.front());
    for (auto& value : p.overrides())
        if (!isGeneratorPath(value.first))
            values.push_back(std::move(value));
    return values;
}

/// The point's project: the base with the point's project values.
SimulationSpec pointProject(const SweepPlan& plan, const SweepPoint& p) {
    return plan.base->instantiate(projectValuesOf(plan, p));
}

} // namespace

std::vector<std::pair<std::string, std::string>> SweepPlan::projectValues(size_t index) const {
    return projectValuesOf(*this, point(index));
}

SimulationSpec applySweepPoint(const SimulationSpec& project, const std::string& projectPath,
                               const SweepPlan& plan, size_t index) {
    const ProjectTemplate current(projectPath, projectYamlText(project, projectPath));
    return current.instantiate(plan.projectValues(index));
}

PointWork SweepPlan::work(size_t index) const {
    const SweepPoint p = point(index);
    PointWork w{pointProject(*this, p), std::nullopt};
    if (!file.generator.empty())
        w.generator = pointGenerator(file, p, w.spec);
    return w;
}

SweepPlan planSweep(const std::string& sweepPath) {
    const std::string text = readInputFile(sweepPath, "the sweep file");
    SweepFile file = parseSweepFile(text, sweepPath);
    const std::string project =
        readInputFile(file.projectPath, "the sweep's base project", kMaxProjectFileBytes);
    return planSweep(std::move(file), text, project);
}

namespace {

/// The NPU count of each distinct platform the points make, read once per platform: the key is
/// the point's value indexes in the groups that set platform.* paths.
class NpuCounts {
public:
    explicit NpuCounts(const SweepPlan& plan)
        : m_plan(plan) {
        for (size_t g = 0; g < plan.file.groups.size(); ++g)
            for (const SweepAxis& axis : plan.file.groups[g].axes)
                if (axis.path.rfind("platform", 0) == 0 &&
                    (m_platformGroups.empty() || m_platformGroups.back() != g))
                    m_platformGroups.push_back(g);
    }
    /// The count, or the error that reading the point's project gave.
    const std::variant<int, std::string>& of(size_t index) {
        std::string key;
        for (const size_t g : m_platformGroups)
            key += std::to_string(m_plan.choices[index * m_plan.groupCount + g]) + ",";
        auto it = m_counts.find(key);
        if (it == m_counts.end()) {
            std::variant<int, std::string> count;
            try {
                count = pointProject(m_plan, m_plan.point(index)).platform.npuCount();
            } catch (const Error& e) {
                count = std::string(e.what());
            }
            it = m_counts.emplace(std::move(key), std::move(count)).first;
        }
        return it->second;
    }

private:
    const SweepPlan& m_plan;
    std::vector<size_t> m_platformGroups;
    std::map<std::string, std::variant<int, std::string>> m_counts;
};

} // namespace

SweepPlan planSweep(SweepFile file, const std::string& sweepText, const std::string& projectText) {
    SweepPlan plan;
    plan.identity = shortHash(sweepText, projectText);
    plan.file = std::move(file);
    const SweepFile& sweep = plan.file;
    std::vector<Error> errors;
    auto addError = [&](const std::string& message, SourceLocation where, std::string hint = {}) {
        if (where.file.empty())
            where.file = sweep.file;
        errors.emplace_back(ErrorKind::Validation, message, std::move(where), std::move(hint));
    };
    plan.base = std::make_shared<const ProjectTemplate>(sweep.projectPath, projectText);
    const ProjectTemplate& base = *plan.base;
    std::vector<const SweepAxis*> axes;
    for (const SweepAxis& axis : sweep.fixed)
        axes.push_back(&axis);
    for (const SweepGroup& g : sweep.groups)
        for (const SweepAxis& axis : g.axes)
            axes.push_back(&axis);
    const std::vector<std::string> generatorNames = generate::generatorValueNames();
    for (const auto& [name, value] : sweep.generator)
        if (std::find(generatorNames.begin(), generatorNames.end(), name) == generatorNames.end())
            addError("generate." + name + ": not a generator setting", sweep.generatorWhere,
                     "the names are generate-llm's flags (docs/generator.md): " +
                         closestMatch(name, generatorNames));
    for (const SweepAxis* axis : axes) {
        if (isGeneratorPath(axis->path)) {
            const std::string name = axis->path.substr(kGeneratePrefix.size());
            if (sweep.generator.empty())
                addError("path \"" + axis->path + "\": the sweep has no generate: section",
                         axis->where, "add generate: {preset: ...} to generate the workload");
            else if (std::find(generatorNames.begin(), generatorNames.end(), name) ==
                     generatorNames.end())
                addError("path \"" + axis->path + "\": not a generator setting", axis->where,
                         "the names are generate-llm's flags (docs/generator.md)");
            continue;
        }
        try {
            base.checkPath(*axis, sweep.file);
        } catch (const ErrorList& e) {
            errors.insert(errors.end(), e.errors().begin(), e.errors().end());
        }
    }
    std::vector<SweepExpression> constraints;
    for (const SweepConstraint& c : sweep.constraints) {
        try {
            constraints.emplace_back(c.expression);
        } catch (const Error& e) {
            addError(e.message(), c.where, e.hint());
        }
    }
    if (!errors.empty())
        throw ErrorList(std::move(errors));

    plan.groupCount = sweep.groups.size();
    plan.choices = pointChoices(sweep);
    const size_t count = plan.groupCount == 0 ? 0 : plan.choices.size() / plan.groupCount;

    // A constraint's names are read from each axis's values, turned into SweepValues once.
    std::map<std::string, std::pair<size_t, std::vector<SweepValue>>> axisValues;
    for (size_t g = 0; g < sweep.groups.size(); ++g)
        for (const SweepAxis& axis : sweep.groups[g].axes) {
            auto& [group, values] = axisValues[axis.name];
            group = g;
            for (const std::string& v : axis.values)
                values.push_back(sweepValueOf(v));
        }
    NpuCounts npuCounts(plan);
    std::vector<char> broken(constraints.size(), 0); // constraints that failed to evaluate
    // Invalid points grouped by what is wrong, so a base project that no point can fix is
    // reported once, with the points it spoils.
    std::map<std::string, std::vector<size_t>> invalid; // problem -> point indexes
    std::vector<std::string> invalidOrder;
    std::vector<std::vector<char>> checked;
    const bool hasServingSection = sweep.serving.where.line > 0;
    bool servingChecked = false;
    for (const SweepGroup& g : sweep.groups)
        checked.emplace_back(g.size(), 0);
    plan.points.reserve(count);
    for (size_t index = 0; index < count; ++index) {
        PlannedPoint planned;
        planned.index = index;
        const uint32_t* choice = &plan.choices[index * plan.groupCount];
        std::optional<double> npus;
        std::string specError;
        auto lookup = [&](const std::string& name) -> std::optional<SweepValue> {
            if (const auto it = axisValues.find(name); it != axisValues.end())
                return it->second.second[choice[it->second.first]];
            if (name == "npus" && npus)
                return *npus;
            return std::nullopt;
        };
        for (size_t i = 0; i < constraints.size() && planned.skipReason.empty(); ++i) {
            if (broken[i])
                continue;
            const auto& names = constraints[i].names();
            if (!npus && !axisValues.count("npus") &&
                std::find(names.begin(), names.end(), "npus") != names.end()) {
                if (!specError.empty())
                    continue; // the project's own error is reported below
                const auto& n = npuCounts.of(index);
                if (const int* value = std::get_if<int>(&n)) {
                    npus = static_cast<double>(*value);
                } else {
                    specError = std::get<std::string>(n);
                    continue;
                }
            }
            try {
                if (constraints[i].holds(lookup))
                    continue;
            } catch (const Error& e) {
                // Said once, not once per point: the same names fail the same way everywhere.
                addError(e.message(), sweep.constraints[i].where, e.hint());
                broken[i] = 1;
                continue;
            }
            std::string seen;
            for (const std::string& name : names) {
                seen += seen.empty() ? "" : ", ";
                seen += name + " = " + sweepValueText(*lookup(name));
            }
            const SweepConstraint& c = sweep.constraints[i];
            planned.skipReason =
                (c.reason.empty() ? "\"" + c.expression + "\" does not hold" : c.reason) + " (" +
                seen + ")";
        }
        // Each axis value is checked in the first runnable point that takes it.
        bool fresh = false;
        for (size_t g = 0; g < plan.groupCount; ++g)
            fresh = !checked[g][choice[g]] || fresh;
        if (planned.runnable() && specError.empty() && fresh) {
            for (size_t g = 0; g < plan.groupCount; ++g)
                checked[g][choice[g]] = 1;
            try {
                const PointWork work = plan.work(index);
                // The serving section steers serving points only; on a training sweep it would
                // be read and then do nothing.
                if (hasServingSection && !servingChecked) {
                    servingChecked = true;
                    if (work.generator || !serving::isServingProject(work.spec))
                        addError("the sweep's points train (their workload is " +
                                     std::string(work.generator
                                                     ? "generated by generate:"
                                                     : "the base project's, which has no "
                                                       "serving: section") +
                                     "); this section steers serving runs only",
                                 sweep.serving.where,
                                 "remove it, or sweep a serving project (one with a serving: "
                                 "section, docs/serving.md)");
                }
            } catch (const Error& e) {
                specError = e.what();
            }
        }
        if (!specError.empty() && planned.runnable()) {
            auto& points = invalid[specError];
            if (points.empty())
                invalidOrder.push_back(specError);
            points.push_back(index);
        }
        plan.points.push_back(std::move(planned));
    }
    constexpr size_t kMaxListed = 20, kPointsNamed = 3;
    for (size_t i = 0; i < invalidOrder.size() && i < kMaxListed; ++i) {
        const auto& points = invalid[invalidOrder[i]];
        std::string which;
        for (size_t k = 0; k < points.size() && k < kPointsNamed; ++k) {
            which += which.empty() ? "" : ", ";
            const SweepPoint p = plan.point(points[k]);
            which += std::to_string(p.index) + " (" + p.label() + ")";
        }
        if (points.size() > kPointsNamed)
            which += " and " + std::to_string(points.size() - kPointsNamed) + " more";
        addError((points.size() == 1 ? "point " : "points ") + which +
                     (points.size() == 1 ? " makes" : " make") +
                     " an invalid project: " + invalidOrder[i],
                 {},
                 "fix the base project or the axis values, or skip such points with a constraint");
    }
    if (invalidOrder.size() > kMaxListed)
        addError(std::to_string(invalidOrder.size() - kMaxListed) +
                     " more different problems make invalid projects",
                 {});
    if (!errors.empty())
        throw ErrorList(std::move(errors));
    return plan;
}

std::vector<std::string> sweepPointTags(const SweepPlan& plan, const SweepPoint& point) {
    std::vector<std::string> tags{"sweep:" + plan.file.name, "sweep-id:" + plan.identity,
                                  "point:" + std::to_string(point.index)};
    for (const SweepCoordinate& c : point.coordinates)
        tags.push_back(c.name + "=" + c.value);
    return tags;
}

std::optional<size_t> storedPointIndex(const std::vector<std::string>& tags,
                                       const std::string& identity) {
    if (std::find(tags.begin(), tags.end(), "sweep-id:" + identity) == tags.end())
        return std::nullopt;
    for (const std::string& tag : tags)
        if (tag.rfind("point:", 0) == 0) {
            size_t index = 0;
            const char* end = tag.data() + tag.size();
            if (const auto r = std::from_chars(tag.data() + 6, end, index);
                r.ec == std::errc() && r.ptr == end)
                return index;
        }
    return std::nullopt;
}

} // namespace astrolabe
