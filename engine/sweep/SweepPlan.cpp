#include "sweep/SweepPlan.h"

#include "core/InputFile.h"
#include "generate/GeneratorValues.h"
#include "store/Sha256.h"
#include "sweep/SweepExpression.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <set>

namespace astrolabe {
namespace {

/// SplitMix64: small, fast, and the same sequence on every platform and compiler (the
/// standard library's distributions are not), so a seed names one sample everywhere.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed)
        : m_state(seed) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; } ///< [0, 1)
    size_t below(size_t n) {
        return std::min(n - 1, static_cast<size_t>(uniform() * static_cast<double>(n)));
    }

private:
    uint64_t m_state;
};

SweepPoint makePoint(const SweepFile& sweep, const std::vector<size_t>& choice, size_t index) {
    SweepPoint point;
    point.index = index;
    for (size_t g = 0; g < sweep.groups.size(); ++g)
        for (const SweepAxis& axis : sweep.groups[g].axes)
            point.coordinates.push_back({axis.name, axis.path, axis.values[choice[g]]});
    return point;
}

std::vector<std::vector<size_t>> sampleChoices(const SweepFile& sweep) {
    const size_t groups = sweep.groups.size(), count = sweep.sampling.count;
    SplitMix64 rng(sweep.sampling.seed);
    std::vector<std::vector<size_t>> choices(count, std::vector<size_t>(groups));
    if (sweep.sampling.method == SweepSampling::Method::Random) {
        for (auto& choice : choices)
            for (size_t g = 0; g < groups; ++g)
                choice[g] = rng.below(sweep.groups[g].size());
        return choices;
    }
    // Latin hypercube: each group's range is cut into `count` equal strata and every stratum
    // is used exactly once, in a random order per group.
    for (size_t g = 0; g < groups; ++g) {
        std::vector<size_t> strata(count);
        std::iota(strata.begin(), strata.end(), 0);
        for (size_t i = count; i > 1; --i)
            std::swap(strata[i - 1], strata[rng.below(i)]);
        const double size = static_cast<double>(sweep.groups[g].size());
        for (size_t k = 0; k < count; ++k) {
            const double u =
                (static_cast<double>(strata[k]) + rng.uniform()) / static_cast<double>(count);
            choices[k][g] = std::min(sweep.groups[g].size() - 1, static_cast<size_t>(u * size));
        }
    }
    return choices;
}

constexpr std::string_view kGeneratePrefix = "generate.";

bool isGeneratorPath(const std::string& path) {
    return path.rfind(kGeneratePrefix, 0) == 0;
}

/// The point's generator spec: the sweep's generate: section with the point's generate.*
/// values over it, checked and matched to the platform's NPU count.
generate::GeneratorSpec pointGenerator(const SweepFile& sweep, const SweepPoint& point, int npus) {
    std::map<std::string, std::string> values(sweep.generator.begin(), sweep.generator.end());
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
    std::vector<SweepPoint> points;
    if (sweep.sampling.method != SweepSampling::Method::All) {
        std::set<std::vector<size_t>> seen;
        for (const std::vector<size_t>& choice : sampleChoices(sweep))
            if (seen.insert(choice).second)
                points.push_back(makePoint(sweep, choice, points.size()));
        return points;
    }
    size_t total = 1;
    for (const SweepGroup& g : sweep.groups)
        total *= g.size();
    std::vector<size_t> choice(sweep.groups.size(), 0);
    for (size_t index = 0; index < total; ++index) {
        size_t rest = index;
        for (size_t g = sweep.groups.size(); g-- > 0;) {
            choice[g] = rest % sweep.groups[g].size();
            rest /= sweep.groups[g].size();
        }
        points.push_back(makePoint(sweep, choice, index));
    }
    return points;
}

size_t SweepPlan::runnable() const {
    return static_cast<size_t>(std::count_if(
        points.begin(), points.end(), [](const PlannedPoint& p) { return p.spec.has_value(); }));
}

SweepPlan planSweep(const std::string& sweepPath) {
    const std::string text = readInputFile(sweepPath, "the sweep file");
    SweepFile file = parseSweepFile(text, sweepPath);
    const std::string project = readInputFile(file.projectPath, "the sweep's base project");
    return planSweep(std::move(file), text, project);
}

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
    const ProjectTemplate base(sweep.projectPath, projectText);
    std::vector<const SweepAxis*> axes;
    std::vector<std::pair<std::string, std::string>> fixed;
    for (const SweepAxis& axis : sweep.fixed) {
        axes.push_back(&axis);
        fixed.emplace_back(axis.path, axis.values.front());
    }
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

    // Invalid points grouped by what is wrong, so a base project that no point can fix is
    // reported once, with the points it spoils.
    std::map<std::string, std::vector<size_t>> invalid; // problem -> point indexes
    std::vector<std::string> invalidOrder;
    for (SweepPoint& point : expandSweep(sweep)) {
        PlannedPoint planned;
        std::string specError;
        try {
            std::vector<std::pair<std::string, std::string>> values = fixed;
            for (auto& value : point.overrides())
                if (!isGeneratorPath(value.first))
                    values.push_back(std::move(value));
            planned.spec = base.instantiate(values);
            if (!sweep.generator.empty())
                planned.generator = pointGenerator(sweep, point, planned.spec->platform.npuCount());
        } catch (const Error& e) {
            specError = e.what();
        }
        std::map<std::string, SweepValue> values;
        for (const SweepCoordinate& c : point.coordinates)
            values[c.name] = sweepValueOf(c.value);
        if (planned.spec)
            values["npus"] = static_cast<double>(planned.spec->platform.npuCount());
        for (size_t i = 0; i < constraints.size() && planned.skipReason.empty(); ++i) {
            auto lookup = [&](const std::string& name) -> std::optional<SweepValue> {
                if (const auto it = values.find(name); it != values.end())
                    return it->second;
                return std::nullopt;
            };
            const auto& names = constraints[i].names();
            const bool needsSpec = std::find(names.begin(), names.end(), "npus") != names.end();
            if (needsSpec && !planned.spec)
                continue; // the project's own error is reported below
            try {
                if (constraints[i].holds(lookup))
                    continue;
            } catch (const Error& e) {
                addError(e.message(), sweep.constraints[i].where, e.hint());
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
        if (!planned.skipReason.empty()) {
            planned.spec.reset();
            planned.generator.reset();
        }
        planned.point = std::move(point);
        plan.points.push_back(std::move(planned));
        if (!specError.empty() && plan.points.back().skipReason.empty()) {
            auto& points = invalid[specError];
            if (points.empty())
                invalidOrder.push_back(specError);
            points.push_back(plan.points.size() - 1);
        }
    }
    constexpr size_t kMaxListed = 20, kPointsNamed = 3;
    for (size_t i = 0; i < invalidOrder.size() && i < kMaxListed; ++i) {
        const auto& points = invalid[invalidOrder[i]];
        std::string which;
        for (size_t k = 0; k < points.size() && k < kPointsNamed; ++k) {
            which += which.empty() ? "" : ", ";
            const SweepPoint& p = plan.points[points[k]].point;
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
