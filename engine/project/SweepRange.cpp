// A sweep axis given as a range (docs/sweeps.md): its ends, and the values between them.
#include "project/SweepRange.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace astrolabe {
using namespace config;

namespace {

/// "25 GiB/s" -> (25, "GiB/s"); "4" -> (4, ""). False when the text does not start with a number.
bool splitNumber(const std::string& text, double& number, std::string& unit) {
    const char* begin = text.c_str();
    char* end = nullptr;
    number = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(number))
        return false;
    std::string rest(end);
    const size_t first = rest.find_first_not_of(' ');
    unit = first == std::string::npos ? "" : rest.substr(first);
    return true;
}

std::string numberText(double value, bool integer) {
    if (integer)
        return std::to_string(static_cast<long long>(std::llround(value)));
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

struct RangeEnd {
    double value = 0;
    std::string unit;
};

bool readRangeEnd(Diagnostics& d, const YAML::Node& node, const std::string& key, RangeEnd& out) {
    if (!node.IsDefined()) {
        d.error(locate(d, node, key), "required key is missing", "e.g. from: 1, to: 64");
        return false;
    }
    if (!node.IsScalar() || !splitNumber(node.Scalar(), out.value, out.unit)) {
        d.error(locate(d, node, key),
                "expected a number (with a unit if the setting has one), found " + describe(node));
        return false;
    }
    return true;
}

} // namespace

void readRange(Diagnostics& d, const YAML::Node& node, const std::string& path, SweepAxis& axis) {
    if (!node.IsMap()) {
        d.error(locate(d, node, path), "expected {from, to, steps}, found " + describe(node));
        return;
    }
    checkKeys(d, node, path, {"from", "to", "steps", "step", "scale", "integer"});
    RangeEnd from, to;
    if (!readRangeEnd(d, node["from"], joinKey(path, "from"), from) ||
        !readRangeEnd(d, node["to"], joinKey(path, "to"), to))
        return;
    if (from.unit != to.unit) {
        d.error(locate(d, node["to"], joinKey(path, "to")),
                "expected the unit of 'from' (\"" + from.unit + "\"), found \"" + to.unit + "\"");
        return;
    }
    std::string scale = "linear";
    if (node["scale"].IsDefined() && readString(d, node["scale"], joinKey(path, "scale"), scale) &&
        scale != "linear" && scale != "log") {
        d.error(locate(d, node["scale"], joinKey(path, "scale")),
                "expected linear or log, found \"" + scale + "\"");
        return;
    }
    const bool log = scale == "log";
    if (log && (from.value <= 0 || to.value <= 0)) {
        d.error(locate(d, node, path), "a log range needs from and to above 0");
        return;
    }
    const bool hasSteps = node["steps"].IsDefined(), hasStep = node["step"].IsDefined();
    if (hasSteps == hasStep) {
        d.error(locate(d, node, path), "expected exactly one of steps (how many values) or step "
                                       "(the increment of a linear range)");
        return;
    }
    std::vector<double> numbers;
    if (hasSteps) {
        int64_t steps = 0;
        if (!readInt(d, node["steps"], joinKey(path, "steps"), steps))
            return;
        if (steps < 1 || static_cast<size_t>(steps) > kMaxAxisValues) {
            d.error(locate(d, node["steps"], joinKey(path, "steps")),
                    "expected 1 to " + std::to_string(kMaxAxisValues) + ", found " +
                        std::to_string(steps));
            return;
        }
        for (int64_t i = 0; i < steps; ++i) {
            const double t =
                steps == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(steps - 1);
            numbers.push_back(log ? from.value * std::pow(to.value / from.value, t)
                                  : from.value + (to.value - from.value) * t);
        }
    } else {
        double step = 0;
        if (!readDouble(d, node["step"], joinKey(path, "step"), step))
            return;
        if (log || step == 0 || !std::isfinite(step) || (to.value - from.value) / step < 0 ||
            (to.value - from.value) / step > static_cast<double>(kMaxAxisValues)) {
            d.error(locate(d, node["step"], joinKey(path, "step")),
                    "expected an increment leading from 'from' to 'to' in at most " +
                        std::to_string(kMaxAxisValues) + " values of a linear range");
            return;
        }
        const double n = std::floor((to.value - from.value) / step + 1e-9);
        for (double i = 0; i <= n; ++i)
            numbers.push_back(from.value + i * step);
    }
    // Whole-number ends without a unit (chunks, sizes, counts) give whole numbers unless told.
    bool integer = from.unit.empty() && from.value == std::floor(from.value) &&
                   to.value == std::floor(to.value);
    if (node["integer"].IsDefined())
        readBool(d, node["integer"], joinKey(path, "integer"), integer);
    // The numbers are monotonic and rounding keeps them so: a value that rounds like another is
    // next to it, and comparing with the last one kept drops every repeat without a set of all.
    axis.values.reserve(numbers.size());
    for (const double value : numbers) {
        std::string text = numberText(value, integer);
        if (!from.unit.empty())
            text += " " + from.unit;
        if (axis.values.empty() || axis.values.back() != text)
            axis.values.push_back(std::move(text));
    }
}

} // namespace astrolabe
