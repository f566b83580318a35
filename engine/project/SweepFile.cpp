// Reading a sweep file (docs/sweeps.md) and making a point's project from the base project.
#include "project/SweepFile.h"

#include "core/InputFile.h"
#include "core/Units.h"
#include "project/ProjectFile.h"
#include "project/SweepRange.h"
#include "project/SweepServing.h"
#include "yaml/YamlSupport.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

namespace astrolabe {
namespace fs = std::filesystem;
using namespace config;

namespace {

/// The most points a sweep may have (docs/limits.md); the most values of one axis is
/// kMaxAxisValues (SweepRange.h).
constexpr double kMaxSweepPoints = 1e6;

std::string flowText(const YAML::Node& node) {
    if (node.IsScalar())
        return node.Scalar();
    YAML::Emitter out;
    out << YAML::Flow << node;
    return out.c_str();
}

std::string lastKey(const std::string& path) {
    std::string key =
        path.substr(path.find_last_of('.') == std::string::npos ? 0 : path.find_last_of('.') + 1);
    return key.substr(0, key.find('['));
}

/// {path, name?, values | range}
bool readAxis(Diagnostics& d, const YAML::Node& node, const std::string& key, SweepAxis& axis) {
    if (!node.IsMap()) {
        d.error(locate(d, node, key),
                "expected {path, values} or {path, range}, found " + describe(node));
        return false;
    }
    checkKeys(d, node, key, {"path", "name", "values", "range"});
    axis.where = locate(d, node, key);
    if (!node["path"].IsDefined()) {
        d.error(axis.where, "required key 'path' is missing",
                "the setting's place in the project file, e.g. system.chunks");
        return false;
    }
    if (!readString(d, node["path"], joinKey(key, "path"), axis.path))
        return false;
    axis.name = lastKey(axis.path);
    if (node["name"].IsDefined())
        readString(d, node["name"], joinKey(key, "name"), axis.name);
    const bool hasValues = node["values"].IsDefined(), hasRange = node["range"].IsDefined();
    if (hasValues == hasRange) {
        d.error(axis.where, "expected exactly one of 'values' (a list) or 'range'");
        return false;
    }
    if (hasValues) {
        const YAML::Node values = node["values"];
        if (!values.IsSequence() || values.size() == 0 || values.size() > kMaxAxisValues) {
            d.error(locate(d, values, joinKey(key, "values")),
                    "expected a list of 1 to " + std::to_string(kMaxAxisValues) +
                        " values, found " + describe(values));
            return false;
        }
        for (const YAML::Node& v : values)
            axis.values.push_back(flowText(v));
    } else {
        readRange(d, node["range"], joinKey(key, "range"), axis);
    }
    return !axis.values.empty();
}

/// A value (or, in a zip, a row of values) given twice would run the same point twice: a
/// simulation gives the same answer every time, so the repeat is a slip (a pasted list).
void checkDistinctPoints(Diagnostics& d, const SweepGroup& group) {
    if (group.axes.empty())
        return;
    const size_t size = group.size();
    for (const SweepAxis& axis : group.axes)
        if (axis.values.size() != size)
            return; // already an error
    std::map<std::vector<std::string>, size_t> first;
    for (size_t i = 0; i < size; ++i) {
        std::vector<std::string> row;
        for (const SweepAxis& axis : group.axes)
            row.push_back(axis.values[i]);
        const auto [it, added] = first.try_emplace(row, i);
        if (added)
            continue;
        std::string shown;
        for (size_t a = 0; a < group.axes.size(); ++a)
            shown += (a ? ", " : "") + group.axes[a].name + " = " + row[a];
        d.error(group.axes.front().where,
                "values[" + std::to_string(i) + "] (" + shown + ") repeats values[" +
                    std::to_string(it->second) + "]: the same point would run twice",
                "give each value once");
        return;
    }
}

void readAxes(Diagnostics& d, const YAML::Node& root, SweepFile& sweep) {
    const YAML::Node axes = root["axes"];
    if (!axes.IsDefined()) {
        d.error(d.at(0, 0, "axes"), "required key is missing",
                "e.g. axes: [{path: system.chunks, values: [1, 2, 4]}]");
        return;
    }
    if (!axes.IsSequence() || axes.size() == 0) {
        d.error(locate(d, axes, "axes"), "expected a list of axes, found " + describe(axes),
                "e.g. axes: [{path: system.chunks, values: [1, 2, 4]}]");
        return;
    }
    std::set<std::string> names;
    for (size_t i = 0; i < axes.size(); ++i) {
        const std::string key = "axes[" + std::to_string(i) + "]";
        SweepGroup group;
        if (axes[i].IsMap() && axes[i]["zip"].IsDefined()) {
            checkKeys(d, axes[i], key, {"zip"});
            const YAML::Node zip = axes[i]["zip"];
            if (!zip.IsSequence() || zip.size() == 0) {
                d.error(locate(d, zip, key + ".zip"),
                        "expected a list of axes, found " + describe(zip));
                continue;
            }
            for (size_t j = 0; j < zip.size(); ++j) {
                SweepAxis axis;
                if (readAxis(d, zip[j], key + ".zip[" + std::to_string(j) + "]", axis))
                    group.axes.push_back(std::move(axis));
            }
        } else {
            SweepAxis axis;
            if (readAxis(d, axes[i], key, axis))
                group.axes.push_back(std::move(axis));
        }
        for (const SweepAxis& axis : group.axes) {
            if (axis.values.size() != group.size())
                d.error(axis.where, "a zipped axis has " + std::to_string(axis.values.size()) +
                                        " values, expected " + std::to_string(group.size()) +
                                        " like the first axis of its zip");
            if (!names.insert(axis.name).second)
                d.error(axis.where, "the axis name \"" + axis.name + "\" is used twice",
                        "give one of them a name: key");
        }
        checkDistinctPoints(d, group);
        if (!group.axes.empty())
            sweep.groups.push_back(std::move(group));
    }
}

/// set: {path: value, ...}
void readFixed(Diagnostics& d, const YAML::Node& node, SweepFile& sweep) {
    if (!node.IsDefined())
        return;
    if (!node.IsMap()) {
        d.error(locate(d, node, "set"), "expected a map of path: value, found " + describe(node),
                "e.g. set: {run.backend: congestion-aware}");
        return;
    }
    for (const auto& entry : node) {
        SweepAxis axis;
        axis.path = entry.first.Scalar();
        axis.name = axis.path;
        axis.where = locate(d, entry.first, "set." + axis.path);
        axis.values.push_back(flowText(entry.second));
        sweep.fixed.push_back(std::move(axis));
    }
}

/// generate: {preset: gpt3-175b, tp: 8, ...}
void readGenerator(Diagnostics& d, const YAML::Node& node, SweepFile& sweep) {
    if (!node.IsDefined())
        return;
    sweep.generatorWhere = locate(d, node, "generate");
    if (!node.IsMap()) {
        d.error(sweep.generatorWhere,
                "expected a map of generator settings, found " + describe(node),
                "e.g. generate: {preset: gpt3-175b, tp: 8, pp: 8}");
        return;
    }
    for (const auto& entry : node) {
        const std::string key = entry.first.Scalar();
        if (!entry.second.IsScalar()) {
            d.error(locate(d, entry.second, "generate." + key),
                    "expected a value, found " + describe(entry.second));
            continue;
        }
        sweep.generator.emplace_back(key, entry.second.Scalar());
    }
}

void readConstraints(Diagnostics& d, const YAML::Node& node, SweepFile& sweep) {
    if (!node.IsDefined())
        return;
    if (!node.IsSequence()) {
        d.error(locate(d, node, "constraints"), "expected a list, found " + describe(node));
        return;
    }
    for (size_t i = 0; i < node.size(); ++i) {
        const std::string key = "constraints[" + std::to_string(i) + "]";
        SweepConstraint c;
        c.where = locate(d, node[i], key);
        if (node[i].IsScalar()) {
            c.expression = node[i].Scalar();
        } else if (node[i].IsMap()) {
            checkKeys(d, node[i], key, {"require", "reason"});
            if (!node[i]["require"].IsDefined()) {
                d.error(c.where, "required key 'require' is missing",
                        "e.g. require: tp * pp <= 64");
                continue;
            }
            readString(d, node[i]["require"], key + ".require", c.expression);
            if (node[i]["reason"].IsDefined())
                readString(d, node[i]["reason"], key + ".reason", c.reason);
        } else {
            d.error(c.where,
                    "expected an expression or {require, reason}, found " + describe(node[i]));
            continue;
        }
        sweep.constraints.push_back(std::move(c));
    }
}

void readSampling(Diagnostics& d, const YAML::Node& node, SweepFile& sweep) {
    if (!node.IsDefined())
        return;
    if (!node.IsMap()) {
        d.error(locate(d, node, "sample"),
                "expected {method, count, seed}, found " + describe(node));
        return;
    }
    checkKeys(d, node, "sample", {"method", "count", "seed"});
    std::string method;
    if (!node["method"].IsDefined()) {
        d.error(locate(d, node, "sample"), "required key 'method' is missing",
                "all, random or latin-hypercube");
        return;
    }
    if (!readString(d, node["method"], "sample.method", method))
        return;
    if (method == "random")
        sweep.sampling.method = SweepSampling::Method::Random;
    else if (method == "latin-hypercube")
        sweep.sampling.method = SweepSampling::Method::LatinHypercube;
    else if (method != "all")
        d.error(locate(d, node["method"], "sample.method"),
                "expected all, random or latin-hypercube, found \"" + method + "\"");
    int64_t count = 0, seed = 1;
    if (sweep.sampling.method != SweepSampling::Method::All && !node["count"].IsDefined())
        d.error(locate(d, node, "sample"), "required key 'count' is missing", "how many points");
    else if (sweep.sampling.method != SweepSampling::Method::All &&
             readInt(d, node["count"], "sample.count", count)) {
        if (count < 1 || count > static_cast<int64_t>(kMaxSweepPoints))
            d.error(locate(d, node["count"], "sample.count"),
                    "expected 1 to 1000000 points, found " + std::to_string(count));
        sweep.sampling.count = static_cast<size_t>(count);
    }
    if (node["seed"].IsDefined() && readInt(d, node["seed"], "sample.seed", seed))
        sweep.sampling.seed = static_cast<uint64_t>(seed);
}

/// "platform.dimensions[0].size" and "platform.dimensions.0.size" name the same setting.
std::string canonicalPath(const std::string& path) {
    std::string out;
    for (const char c : path)
        if (c == '[')
            out += '.';
        else if (c != ']')
            out += c;
    return out;
}

/// Two axes (or an axis and a set: entry) on the same setting: one of them would have no effect
/// while the table listed its values as distinct points.
void checkDistinctPaths(Diagnostics& d, const SweepFile& sweep) {
    std::map<std::string, const SweepAxis*> seen;
    const auto check = [&](const SweepAxis& axis, const char* what) {
        const auto [it, fresh] = seen.emplace(canonicalPath(axis.path), &axis);
        if (fresh)
            return;
        const SweepAxis& first = *it->second;
        d.error(axis.where,
                std::string(what) + " \"" + axis.name + "\" sets " + axis.path + ", which \"" +
                    first.name + "\" (line " + std::to_string(first.where.line) + ") sets already",
                "one setting, one axis: put every value in one list, or zip the axes");
    };
    for (const SweepAxis& axis : sweep.fixed)
        check(axis, "set:");
    for (const SweepGroup& g : sweep.groups)
        for (const SweepAxis& axis : g.axes)
            check(axis, "the axis");
}

} // namespace

SweepFile parseSweepFile(const std::string& text, const std::string& fileName) {
    Diagnostics d(fileName);
    const YAML::Node root = parseYamlText(text, fileName);
    SweepFile sweep;
    sweep.file = fs::absolute(fileName).lexically_normal().string();
    sweep.name = fs::path(fileName).stem().string();
    if (!root.IsMap()) {
        d.error(d.at(1, 1, ""), "expected a map with project and axes, found " + describe(root));
        d.throwIfErrors();
    }
    checkKeys(d, root, "",
              {"name", "project", "set", "generate", "axes", "constraints", "sample", "serving"});
    if (root["name"].IsDefined())
        readString(d, root["name"], "name", sweep.name);
    std::string project;
    if (!root["project"].IsDefined())
        d.error(d.at(0, 0, "project"), "required key is missing",
                "the base project file, relative to the sweep file");
    else if (readString(d, root["project"], "project", project))
        sweep.projectPath =
            (fs::path(sweep.file).parent_path() / project).lexically_normal().string();
    std::error_code same;
    if (!sweep.projectPath.empty() &&
        (sweep.projectPath == sweep.file || fs::equivalent(sweep.projectPath, sweep.file, same)))
        d.error(locate(d, root["project"], "project"),
                "names this sweep file itself, expected the base project",
                "the project file whose settings the axes change, relative to the sweep file");
    readFixed(d, root["set"], sweep);
    readGenerator(d, root["generate"], sweep);
    readAxes(d, root, sweep);
    checkDistinctPaths(d, sweep);
    readConstraints(d, root["constraints"], sweep);
    readSampling(d, root["sample"], sweep);
    readSweepServing(d, root["serving"], sweep);
    double points = 1;
    for (const SweepGroup& g : sweep.groups)
        points *= static_cast<double>(g.size());
    if (sweep.sampling.method == SweepSampling::Method::All && points > kMaxSweepPoints) {
        char count[32];
        std::snprintf(count, sizeof count, "%.0f", points);
        d.error(locate(d, root["axes"], "axes"),
                std::string("the axes make ") + count + " points, more than the limit of 1000000",
                "sample some of them: sample: {method: latin-hypercube, count: 200}");
    }
    d.throwIfErrors();
    return sweep;
}

} // namespace astrolabe
