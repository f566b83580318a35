#include "cli/CliSupport.h"

#include "cli/ArgParser.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "serving/ServingRun.h"
#include "yaml/ProjectValues.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <ostream>

namespace astrolabe::cli {

void refuseServingProject(const SimulationSpec& spec, const std::string& command,
                          const std::string& project) {
    if (serving::isServingProject(spec))
        throw UsageError(command +
                         ": the project describes serving (serving:) and no workload: "
                         "run it with 'astrolabe-cli serve " +
                         project + "'");
}

void makePrefixFolder(const std::string& prefix) {
    if (prefix.empty())
        return;
    const std::filesystem::path path(prefix);
    if (!path.has_filename() || std::filesystem::is_directory(path))
        throw UsageError("--out " + prefix +
                         ": a prefix names files (--out runs/gpt3/t writes "
                         "runs/gpt3/t.0.et, ...), and this one names a folder: add a name after "
                         "it, e.g. " +
                         (path / "trace").string());
    if (!path.parent_path().empty())
        makeOutputFolder(path.parent_path().string(), "--out " + prefix);
}

void requireFile(const std::string& label, const std::string& path) {
    const bool option = label.starts_with("--");
    if (path.empty())
        throw UsageError(option ? "missing required option " + label
                                : "missing the " + label + " argument");
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    if (std::filesystem::is_directory(status))
        throw UsageError(label + ": " + path + " is a folder; expected a file");
    if (!std::filesystem::exists(status))
        throw UsageError((option ? label + ": file" : label + " file") + " not found: " + path);
    if (!std::filesystem::is_regular_file(status))
        throw UsageError(label + ": " + path +
                         " is not a regular file (a pipe or a device cannot be "
                         "read twice); copy it to a file first");
}

int parseCount(const std::string& flag, const std::string& text, int minimum, int maximum) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty() || value < minimum ||
        value > maximum) {
        std::string expected = "--";
        expected += flag;
        expected +=
            maximum != INT_MAX ? ": expected a whole number from " + std::to_string(minimum) +
                                     " to " + std::to_string(maximum) + ", found \""
            : minimum == 1 ? ": expected a positive whole number, found \""
            : minimum == INT_MIN
                ? ": expected a whole number, found \""
                : ": expected a whole number of at least " + std::to_string(minimum) + ", found \"";
        expected += text;
        expected += "\"";
        throw UsageError(expected);
    }
    return value;
}

bool parseWholeNumber(const std::string& text, double& value) {
    size_t used = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        return false;
    }
    return used != 0 && used == text.size() && std::isfinite(value);
}

double parseReal(const std::string& flag, const std::string& text) {
    double value = 0;
    if (!parseWholeNumber(text, value))
        throw UsageError("--" + flag + ": expected a number, found \"" + text + "\"");
    return value;
}

bool parseBool(const std::string& flag, const std::string& text) {
    if (text == "true" || text == "1")
        return true;
    if (text == "false" || text == "0")
        return false;
    throw UsageError("--" + flag + ": expected true or false, found \"" + text + "\"");
}

void applyBackendOption(const std::string& text, NetworkBackend& backend) {
    if (text.empty())
        return;
    try {
        backend = config::parseBackend(text);
    } catch (const Error& e) {
        throw UsageError(std::string("--backend: ") + e.what());
    }
}

std::string padRight(std::string text, size_t width) {
    text.resize(std::max(text.size(), width), ' ');
    return text;
}

std::string padLeft(std::string text, size_t width) {
    if (text.size() < width)
        text.insert(0, width - text.size(), ' ');
    return text;
}

} // namespace astrolabe::cli
