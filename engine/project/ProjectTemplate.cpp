// A sweep point's project: the base project's YAML with the axes' values put at their paths.
#include "project/ProjectFile.h"
#include "project/SweepFile.h"
#include "yaml/YamlSupport.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <variant>

namespace astrolabe {
using namespace config;

namespace {

/// "platform.dimensions[1].bandwidth" -> "platform", "dimensions", 1, "bandwidth".
using PathStep = std::variant<std::string, size_t>;

std::vector<PathStep> splitPath(const std::string& path, std::string& problem) {
    std::vector<PathStep> steps;
    size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '[') {
            const size_t close = path.find(']', i);
            const std::string digits =
                path.substr(i + 1, close == std::string::npos ? 0 : close - i - 1);
            if (close == std::string::npos || digits.empty() ||
                digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) {
                problem = "expected [index] with a whole number, found \"" + path.substr(i) + "\"";
                return {};
            }
            steps.emplace_back(static_cast<size_t>(std::stoul(digits)));
            i = close + 1;
            if (i < path.size() && path[i] == '.')
                ++i;
            continue;
        }
        const size_t end = path.find_first_of(".[", i);
        const std::string key =
            path.substr(i, end == std::string::npos ? std::string::npos : end - i);
        if (key.empty()) {
            problem = "an empty key in the path";
            return {};
        }
        // "dimensions.0" is "dimensions[0]" (brackets need quotes inside a YAML flow map); on
        // a map it is the key "0" again (comm-groups.1).
        if (key.size() <= 9 && key.find_first_not_of("0123456789") == std::string::npos)
            steps.emplace_back(static_cast<size_t>(std::stoul(key)));
        else
            steps.emplace_back(key);
        i = end == std::string::npos ? path.size() : end + (path[end] == '.' ? 1 : 0);
    }
    if (steps.empty())
        problem = "the path is empty";
    return steps;
}

/// The map key a step names: a key, or a number on a map (comm-groups.1); nullopt for a list index.
std::optional<std::string> keyOf(const YAML::Node& node, const PathStep& step) {
    if (const auto* key = std::get_if<std::string>(&step))
        return *key;
    if (node.IsMap())
        return std::to_string(std::get<size_t>(step));
    return std::nullopt;
}

std::string stepText(const PathStep& step) {
    if (const auto* key = std::get_if<std::string>(&step))
        return *key;
    return "[" + std::to_string(std::get<size_t>(step)) + "]";
}

} // namespace

struct ProjectTemplate::Impl {
    std::string path;
    YAML::Node root;
    /// yaml-cpp nodes share state even when only read, so the copying is serialised; reading
    /// the copied text (most of the time) is not.
    std::mutex mutex;
};

ProjectTemplate::ProjectTemplate(const std::string& projectPath, const std::string& projectText)
    : m_impl(std::make_unique<Impl>()) {
    m_impl->path = projectPath;
    m_impl->root = parseYamlText(projectText, projectPath);
}

ProjectTemplate::~ProjectTemplate() = default;

void ProjectTemplate::checkPath(const SweepAxis& axis, const std::string& sweepFile) const {
    std::string problem;
    const std::vector<PathStep> steps = splitPath(axis.path, problem);
    YAML::Node node;
    node.reset(m_impl->root);
    std::string walked;
    for (size_t i = 0; i < steps.size() && problem.empty(); ++i) {
        const bool last = i + 1 == steps.size();
        const std::optional<std::string> key = keyOf(node, steps[i]);
        if (key) {
            if (!node.IsMap()) {
                problem = (walked.empty() ? std::string("the project") : walked) + " is " +
                          describe(node) + ", not a map with the key \"" + *key + "\"";
                break;
            }
            if (!last && !node[*key].IsDefined()) {
                problem = "the base project has no " + joinKey(walked, *key);
                break;
            }
            walked = joinKey(walked, *key);
            node.reset(node[*key]);
        } else {
            const size_t index = std::get<size_t>(steps[i]);
            if (!node.IsSequence() || index >= node.size()) {
                problem = walked + " has " +
                          (node.IsSequence() ? std::to_string(node.size()) + " entries"
                                             : std::string("no list")) +
                          ", so there is no " + walked + stepText(steps[i]);
                break;
            }
            walked += stepText(steps[i]);
            node.reset(node[index]);
        }
    }
    if (!problem.empty()) {
        SourceLocation where = axis.where;
        if (where.file.empty())
            where.file = sweepFile;
        throw ErrorList(
            {Error(ErrorKind::Validation, "path \"" + axis.path + "\": " + problem, where,
                   "paths are keys of the project file joined by dots, "
                   "with [i] for a list entry: platform.dimensions[0].bandwidth")});
    }
}

SimulationSpec
ProjectTemplate::instantiate(const std::vector<std::pair<std::string, std::string>>& values) const {
    std::unique_lock lock(m_impl->mutex);
    YAML::Node root = YAML::Clone(m_impl->root);
    for (const auto& [path, value] : values) {
        std::string problem;
        const std::vector<PathStep> steps = splitPath(path, problem);
        if (!problem.empty())
            throw Error(ErrorKind::Validation, "path \"" + path + "\": " + problem);
        YAML::Node node;
        node.reset(root);
        for (size_t i = 0; i + 1 < steps.size(); ++i) {
            if (const auto key = keyOf(node, steps[i]))
                node.reset(node[*key]);
            else
                node.reset(node[std::get<size_t>(steps[i])]);
        }
        YAML::Node parsed;
        try {
            parsed = YAML::Load(value);
        } catch (const YAML::Exception& e) {
            throw Error(ErrorKind::Validation,
                        "path \"" + path + "\": the value " + quotedExcerpt(value) +
                            " is not YAML (" + e.msg + ")",
                        {}, "write it as in the project file: 4, 100 GiB/s, [ring, ring]");
        }
        if (const auto key = keyOf(node, steps.back()))
            node[*key] = parsed;
        else
            node[std::get<size_t>(steps.back())] = parsed;
    }
    YAML::Emitter out;
    out << root;
    const std::string text = out.c_str();
    lock.unlock();
    try {
        return parseProject(text, m_impl->path);
    } catch (const ErrorList& errors) {
        throw ErrorList(relocate(errors.errors(), values));
    } catch (const Error& error) {
        throw ErrorList(relocate({error}, values));
    }
}

std::vector<Error>
ProjectTemplate::relocate(const std::vector<Error>& errors,
                          const std::vector<std::pair<std::string, std::string>>& values) const {
    // The errors' lines are the re-emitted text's (no comments, another layout). A key of the
    // base file is pointed at in the base file; a value that was set is not in the file at all,
    // so only its key path is said (the message quotes the value found).
    std::vector<std::string> setKeys;
    for (const auto& value : values) {
        std::string problem, key;
        for (const PathStep& step : splitPath(value.first, problem)) {
            if (!key.empty() && step.index() == 0)
                key.push_back('.');
            key.append(stepText(step));
        }
        setKeys.push_back(std::move(key));
    }
    auto wasSet = [&](const std::string& keyPath) {
        return std::any_of(setKeys.begin(), setKeys.end(), [&](const std::string& set) {
            return keyPath.starts_with(set) &&
                   (keyPath.size() == set.size() || keyPath[set.size()] == '.' ||
                    keyPath[set.size()] == '[');
        });
    };
    std::lock_guard lock(m_impl->mutex);
    std::vector<Error> placed;
    for (const Error& error : errors) {
        SourceLocation where = error.where();
        if (where.file == m_impl->path) {
            where.line = where.column = 0;
            std::string problem;
            const std::vector<PathStep> steps = where.keyPath.empty() || wasSet(where.keyPath)
                                                    ? std::vector<PathStep>{}
                                                    : splitPath(where.keyPath, problem);
            YAML::Node node;
            node.reset(m_impl->root);
            for (size_t i = 0; i < steps.size() && node.IsDefined(); ++i) {
                const std::optional<std::string> key = keyOf(node, steps[i]);
                if (key && node.IsMap())
                    node.reset(node[*key]);
                else if (!key && node.IsSequence() && std::get<size_t>(steps[i]) < node.size())
                    node.reset(node[std::get<size_t>(steps[i])]);
                else
                    node.reset(YAML::Node(YAML::NodeType::Undefined));
            }
            if (!steps.empty() && node.IsDefined() && !node.Mark().is_null()) {
                where.line = node.Mark().line + 1;
                where.column = node.Mark().column + 1;
            }
        }
        placed.emplace_back(error.kind(), error.message(), std::move(where), error.hint());
    }
    return placed;
}

} // namespace astrolabe
