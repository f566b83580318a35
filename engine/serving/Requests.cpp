#include "serving/Requests.h"

#include "core/Error.h"
#include "core/InputFile.h"
#include "core/Units.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>
#include <sstream>

namespace astrolabe::serving {
namespace {

Error invalid(const std::string& key, const std::string& message, const std::string& hint = {}) {
    return Error(ErrorKind::Validation, message, SourceLocation{{}, 0, 0, key}, hint);
}

const std::vector<std::string>& lengthKinds() {
    static const std::vector<std::string> kinds{"fixed", "uniform", "lognormal", "empirical"};
    return kinds;
}

int32_t cachedPart(int32_t prompt, double prefixReuse) {
    const auto cached = static_cast<int32_t>(std::floor(prompt * prefixReuse));
    return std::clamp<int32_t>(cached, 0, prompt - 1);
}

} // namespace

double uniform01(std::mt19937_64& random) {
    return double(random() >> 11) * 0x1.0p-53;
}

double standardNormal(std::mt19937_64& random) {
    const double u1 = 1.0 - uniform01(random); // (0, 1]
    const double u2 = uniform01(random);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double gammaDraw(std::mt19937_64& random, double shape) {
    if (shape < 1.0) {
        const double u = 1.0 - uniform01(random);
        return gammaDraw(random, shape + 1.0) * std::pow(u, 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x = 0, v = 0;
        do {
            x = standardNormal(random);
            v = 1.0 + c * x;
        } while (v <= 0);
        v = v * v * v;
        const double u = 1.0 - uniform01(random);
        if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v))
            return d * v;
    }
}

LengthDistribution::LengthDistribution(const LengthSpec& spec, const std::string& key)
    : m_spec(spec) {
    const auto& kinds = lengthKinds();
    if (std::find(kinds.begin(), kinds.end(), spec.kind) == kinds.end()) {
        const std::string guess = closestMatch(spec.kind, kinds);
        throw invalid(key + "-distribution", "unknown length distribution \"" + spec.kind + "\"",
                      (guess.empty() ? "" : "did you mean \"" + guess + "\"? ") +
                          "valid: " + joinAlternatives(kinds));
    }
    if (spec.minimum < 1)
        throw invalid(key + "-min",
                      "expected a length of 1 token or more, found " + std::to_string(spec.minimum),
                      "a zero-length prompt or output cannot be served");
    if (spec.maximum < spec.minimum || spec.maximum > kMaxRequestTokens)
        throw invalid(key + "-max", "expected a length from min (" + std::to_string(spec.minimum) +
                                        ") to " + std::to_string(kMaxRequestTokens) + ", found " +
                                        std::to_string(spec.maximum));
    if ((spec.kind == "fixed" || spec.kind == "lognormal") &&
        !(spec.mean >= 1 && spec.mean <= double(kMaxRequestTokens)))
        throw invalid(key + "-mean",
                      "expected a mean length of 1 token or more, found " +
                          std::to_string(spec.mean),
                      "a zero-length prompt or output cannot be served");
    if (spec.kind == "lognormal" && !(spec.sigma >= 0 && spec.sigma <= 10))
        throw invalid(key + "-sigma",
                      "expected a sigma from 0 to 10, found " + std::to_string(spec.sigma));
    if (spec.kind != "empirical")
        return;
    if (spec.file.empty())
        throw invalid(key + "-file", "an empirical distribution needs a file of lengths",
                      "one length per line");
    const std::string text = readInputFile(spec.file, "the length file");
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line[0] == '#')
            continue;
        int64_t value = 0;
        const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), value);
        if (ec != std::errc() || value < 1 || value > kMaxRequestTokens ||
            (end != line.data() + line.size() && *end != '\r'))
            throw Error(ErrorKind::Input,
                        "expected a length of 1 to " + std::to_string(kMaxRequestTokens) +
                            " tokens, found " + quotedExcerpt(line),
                        SourceLocation{spec.file, number, 0, key + "-file"});
        if (int64_t(m_values.size()) >= kMaxServingRequests)
            throw Error(ErrorKind::Input, "more lengths than the limit", {spec.file, number, 0, {}},
                        kLimitsHint);
        m_values.push_back(static_cast<int32_t>(value));
    }
    if (m_values.empty())
        throw Error(ErrorKind::Input, "the length file holds no lengths",
                    SourceLocation{spec.file, 0, 0, key + "-file"}, "one length per line");
}

int32_t LengthDistribution::sample(std::mt19937_64& random) const {
    double value = m_spec.mean;
    if (m_spec.kind == "uniform")
        value = double(m_spec.minimum) +
                std::floor(uniform01(random) * double(m_spec.maximum - m_spec.minimum + 1));
    else if (m_spec.kind == "lognormal") {
        // mean = exp(mu + sigma^2 / 2)
        const double mu = std::log(m_spec.mean) - 0.5 * m_spec.sigma * m_spec.sigma;
        value = std::exp(mu + m_spec.sigma * standardNormal(random));
    } else if (m_spec.kind == "empirical")
        return m_values[size_t(uniform01(random) * double(m_values.size()))];
    const double clamped =
        std::clamp(std::round(value), double(m_spec.minimum), double(m_spec.maximum));
    return static_cast<int32_t>(clamped);
}

double LengthDistribution::mean() const {
    if (m_spec.kind == "uniform")
        return 0.5 * double(m_spec.minimum + m_spec.maximum);
    if (m_spec.kind == "empirical") {
        double sum = 0;
        for (int32_t v : m_values)
            sum += v;
        return sum / double(m_values.size());
    }
    return std::clamp(m_spec.mean, double(m_spec.minimum), double(m_spec.maximum));
}

Request closedLoopRequest(const ServingSpec& spec, int64_t id, double now, std::mt19937_64& random,
                          const LengthDistribution& input, const LengthDistribution& output) {
    Request r;
    r.id = id;
    r.arrivalSeconds = now;
    r.promptTokens = input.sample(random);
    r.outputTokens = output.sample(random);
    r.cachedTokens = cachedPart(r.promptTokens, spec.prefixReuse);
    return r;
}

std::vector<Request> syntheticRequests(const ServingSpec& spec) {
    const LengthDistribution input(spec.input, "serving.input");
    const LengthDistribution output(spec.output, "serving.output");
    if (!(spec.prefixReuse >= 0 && spec.prefixReuse < 1))
        throw invalid("serving.prefix-reuse", "expected a fraction from 0 to below 1, found " +
                                                  std::to_string(spec.prefixReuse));
    std::mt19937_64 random(static_cast<uint64_t>(spec.seed));
    std::vector<Request> out;
    if (spec.arrival == "concurrency") {
        if (spec.concurrency < 1)
            throw invalid("serving.concurrency", "expected 1 or more requests in flight, found " +
                                                     std::to_string(spec.concurrency));
        for (int i = 0; i < spec.concurrency; ++i)
            out.push_back(closedLoopRequest(spec, i, 0.0, random, input, output));
        return out;
    }
    if (spec.arrival != "poisson" && spec.arrival != "gamma") {
        const std::vector<std::string> kinds{"poisson", "gamma", "concurrency"};
        throw invalid("serving.arrival", "unknown arrival process \"" + spec.arrival + "\"",
                      "valid: " + joinAlternatives(kinds));
    }
    if (!(spec.rate > 0))
        throw invalid("serving.rate",
                      "expected a rate > 0 requests/s, found " + std::to_string(spec.rate));
    const double duration = spec.durationNs / 1e9;
    if (spec.rate * duration > double(kMaxServingRequests))
        throw invalid("serving.duration",
                      "the rate (" + units::formatNumber(spec.rate) +
                          " requests/s) x the duration (" + units::formatNumber(duration) +
                          " s) asks for more than " + std::to_string(kMaxServingRequests) +
                          " requests",
                      kLimitsHint);
    // Gamma gaps with coefficient of variation cv: shape 1 / cv^2, mean 1 / rate.
    const double shape = spec.arrival == "gamma" ? 1.0 / (spec.burstiness * spec.burstiness) : 1;
    if (spec.arrival == "gamma" && !(spec.burstiness > 0 && spec.burstiness <= 100))
        throw invalid("serving.burstiness", "expected a coefficient of variation from above 0 "
                                            "to 100, found " +
                                                std::to_string(spec.burstiness));
    double t = 0;
    for (int64_t id = 0;; ++id) {
        const double gap = spec.arrival == "poisson"
                               ? -std::log(1.0 - uniform01(random)) / spec.rate
                               : gammaDraw(random, shape) / (shape * spec.rate);
        t += gap;
        if (t >= duration)
            break;
        out.push_back(closedLoopRequest(spec, id, t, random, input, output));
    }
    // A run of no request would report zero latencies as if they were measured.
    if (out.empty())
        throw invalid("serving.rate",
                      "no request arrived in the window: " + units::formatNumber(spec.rate) +
                          " requests/s over " + units::formatNumber(duration) + " s expects " +
                          units::formatNumber(spec.rate * duration),
                      "raise serving.rate or serving.duration");
    return out;
}

} // namespace astrolabe::serving
