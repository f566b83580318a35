#include "core/Units.h"

#include "core/Error.h"
#include "core/Text.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace astrolabe::units {
namespace {

struct UnitFactor {
    std::string_view name;
    double factor;
};

constexpr double kKilo = 1e3, kMega = 1e6, kGiga = 1e9, kTera = 1e12;
constexpr double kKibi = 1024.0, kMebi = kKibi * 1024, kGibi = kMebi * 1024, kTebi = kGibi * 1024;

constexpr std::array kSizeUnits{
    UnitFactor{"B", 1},       UnitFactor{"KB", kKilo},  UnitFactor{"kB", kKilo},
    UnitFactor{"MB", kMega},  UnitFactor{"GB", kGiga},  UnitFactor{"TB", kTera},
    UnitFactor{"KiB", kKibi}, UnitFactor{"MiB", kMebi}, UnitFactor{"GiB", kGibi},
    UnitFactor{"TiB", kTebi},
};

constexpr std::array kBandwidthUnits{
    UnitFactor{"B/s", 1},          UnitFactor{"KB/s", kKilo},     UnitFactor{"kB/s", kKilo},
    UnitFactor{"MB/s", kMega},     UnitFactor{"GB/s", kGiga},     UnitFactor{"TB/s", kTera},
    UnitFactor{"KiB/s", kKibi},    UnitFactor{"MiB/s", kMebi},    UnitFactor{"GiB/s", kGibi},
    UnitFactor{"TiB/s", kTebi},    UnitFactor{"bps", 1 / 8.0},    UnitFactor{"Kbps", kKilo / 8},
    UnitFactor{"kbps", kKilo / 8}, UnitFactor{"Mbps", kMega / 8}, UnitFactor{"Gbps", kGiga / 8},
    UnitFactor{"Tbps", kTera / 8}, UnitFactor{"Gb/s", kGiga / 8}, UnitFactor{"Tb/s", kTera / 8},
};

// Factors to picoseconds.
constexpr std::array kTimeUnits{
    UnitFactor{"ps", 1},   UnitFactor{"ns", 1e3}, UnitFactor{"us", 1e6},
    UnitFactor{"µs", 1e6}, UnitFactor{"ms", 1e9}, UnitFactor{"s", 1e12},
};

[[noreturn]] void reject(std::string_view what, std::string_view text, std::string_view problem,
                         const char* forms) {
    throw Error(ErrorKind::Validation,
                "expected a " + std::string(what) + " with a unit, found " + quotedExcerpt(text) +
                    " (" + std::string(problem) + ")",
                {}, std::string("accepted forms: ") + forms);
}

template <size_t N>
double parseWithUnit(std::string_view text, const std::array<UnitFactor, N>& table,
                     std::string_view what, const char* forms) {
    const std::string_view body = trimmed(text);
    double value = 0;
    const char* begin = body.data();
    const char* end = body.data() + body.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr == begin)
        reject(what, text, "no number at the start", forms);
    if (!std::isfinite(value))
        reject(what, text, "the number is not finite", forms);
    if (value < 0) // the unit is there; what is wrong is the sign
        throw Error(ErrorKind::Validation,
                    "expected a " + std::string(what) + " of 0 or more, found " +
                        quotedExcerpt(text),
                    {}, std::string("accepted forms: ") + forms);
    const std::string_view unit = trimmed(std::string_view(ptr, static_cast<size_t>(end - ptr)));
    if (unit.empty())
        reject(what, text, "a bare number is ambiguous; write the unit", forms);
    for (const UnitFactor& u : table)
        if (u.name == unit)
            return value * u.factor;
    reject(what, text, "unknown unit " + quotedExcerpt(unit), forms);
}

} // namespace

const char* acceptedSizeForms() {
    return "<number> B|KB|MB|GB|TB (powers of 10) or KiB|MiB|GiB|TiB (powers of 2), e.g. \"1 "
           "MiB\", \"4096 B\"";
}
const char* acceptedBandwidthForms() {
    return "<number> B/s|KB/s|MB/s|GB/s|TB/s (powers of 10), KiB/s|MiB/s|GiB/s|TiB/s (powers of 2) "
           "or bps|Kbps|Mbps|Gbps|Tbps (bits), e.g. \"400 GB/s\", \"100 Gbps\"";
}
const char* acceptedTimeForms() {
    return "<number> ps|ns|us|µs|ms|s, e.g. \"936.25 ns\", \"2 us\"";
}

uint64_t parseSizeBytes(std::string_view text) {
    const double bytes = parseWithUnit(text, kSizeUnits, "size", acceptedSizeForms());
    if (bytes > 1.8e19)
        reject("size", text, "too large", acceptedSizeForms());
    if (bytes != std::floor(bytes))
        reject("size", text, "not a whole number of bytes", acceptedSizeForms());
    return static_cast<uint64_t>(bytes);
}

std::string bandwidthRangeProblem(double bytesPerSecond, std::string_view asWritten) {
    if (bytesPerSecond >= kMinBandwidthBytesPerSecond &&
        bytesPerSecond <= kMaxBandwidthBytesPerSecond)
        return {};
    std::string found =
        asWritten.empty() ? formatNumber(bytesPerSecond) + " B/s" : std::string(trimmed(asWritten));
    return "expected a bandwidth from 1 KB/s to 1000000 TB/s, found " + found;
}

double parseBandwidthBytesPerSecond(std::string_view text) {
    const double bps = parseWithUnit(text, kBandwidthUnits, "bandwidth", acceptedBandwidthForms());
    if (bps <= 0)
        reject("bandwidth", text, "must be greater than zero", acceptedBandwidthForms());
    std::string quoted(1, '"');
    quoted.append(trimmed(text)).push_back('"');
    if (std::string problem = bandwidthRangeProblem(bps, quoted); !problem.empty())
        throw Error(ErrorKind::Validation, std::move(problem), {}, kLimitsHint);
    return bps;
}

SimTime parseTime(std::string_view text) {
    const double ps = parseWithUnit(text, kTimeUnits, "time", acceptedTimeForms());
    if (ps > 9.2e18)
        reject("time", text, "too large", acceptedTimeForms());
    return SimTime::fromPsRounded(ps);
}

std::string formatNumber(double value) {
    // std::to_chars without a format gives the shortest representation that reads back exactly.
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

namespace {

std::atomic<Convention> g_convention{Convention::AsEntered};

bool whole(double value) {
    return value == std::floor(value);
}

/// The largest power of `kilo` (up to kilo^4) the value is a whole multiple of; 0 for none.
int wholeOrder(double value, double kilo) {
    double unit = kilo * kilo * kilo * kilo;
    for (int order = 4; order > 0; --order, unit /= kilo)
        if (value >= unit && whole(value / unit))
            return order;
    return 0;
}

/// Binary prefixes for this value under the current convention. As entered: the family in which
/// the value is a whole number of the larger unit (64 MiB, 50 GiB/s, 1 GB, 400 GB/s); `fallback`
/// when neither says (123456789 B).
bool useBinary(double value, bool fallback) {
    switch (g_convention.load(std::memory_order_relaxed)) {
    case Convention::Decimal:
        return false;
    case Convention::Binary:
        return true;
    case Convention::AsEntered:
        break;
    }
    const int binary = wholeOrder(value, kKibi), decimal = wholeOrder(value, kKilo);
    return binary == decimal ? fallback : binary > decimal;
}

Scale pick(double magnitude, bool binary, const std::array<std::string_view, 5>& decimal,
           const std::array<std::string_view, 5>& binaryNames) {
    const double kilo = binary ? kKibi : kKilo;
    const auto& names = binary ? binaryNames : decimal;
    double factor = 1;
    size_t i = 0;
    while (i + 1 < names.size() && magnitude >= factor * kilo) {
        factor *= kilo;
        ++i;
    }
    return {factor, names[i]};
}

} // namespace

void setConvention(Convention c) {
    g_convention.store(c, std::memory_order_relaxed);
}

Convention convention() {
    return g_convention.load(std::memory_order_relaxed);
}

const char* conventionName(Convention c) {
    switch (c) {
    case Convention::AsEntered:
        return "as-entered";
    case Convention::Decimal:
        return "decimal";
    case Convention::Binary:
        return "binary";
    }
    return "?";
}

Convention parseConvention(std::string_view text) {
    for (Convention c : {Convention::AsEntered, Convention::Decimal, Convention::Binary})
        if (text == conventionName(c))
            return c;
    throw Error(ErrorKind::Validation, "unknown unit convention \"" + std::string(text) +
                                           "\"; expected as-entered, decimal or binary");
}

std::string formatPlain(double value, int digits) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    char buf[400];
    const double magnitude = std::fabs(value);
    if (magnitude >= std::pow(10.0, digits)) {
        std::snprintf(buf, sizeof buf, "%.0f", value);
        return buf;
    }
    if (magnitude != 0 && magnitude < 1e-4) {
        // Fixed notation with `digits` significant digits, trailing zeros dropped.
        const int decimals =
            std::min(60, digits - 1 - static_cast<int>(std::floor(std::log10(magnitude))));
        std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
        std::string out = buf;
        while (out.back() == '0')
            out.pop_back();
        if (out.back() == '.')
            out.pop_back();
        return out;
    }
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    if (std::strchr(buf, 'e') != nullptr) // %g rounded up to the next power (999999.5 -> 1e+06)
        std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
}

std::string formatScaled(double value, Scale scale, int digits) {
    return formatPlain(value / scale.factor, digits) + " " + std::string(scale.symbol);
}

Scale sizeScale(double bytes, double like) {
    const double magnitude = std::fabs(bytes);
    return pick(magnitude, useBinary(like > 0 ? like : magnitude, true),
                {"B", "KB", "MB", "GB", "TB"}, {"B", "KiB", "MiB", "GiB", "TiB"});
}

Scale bandwidthScale(double bytesPerSecond, double like) {
    const double magnitude = std::fabs(bytesPerSecond);
    return pick(magnitude, useBinary(like > 0 ? like : magnitude, false),
                {"B/s", "KB/s", "MB/s", "GB/s", "TB/s"},
                {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"});
}

Scale timeScale(double ps, TimeSpelling spelling) {
    const double magnitude = std::fabs(ps);
    if (magnitude < 1e3 && magnitude != 0)
        return {1, "ps"};
    if (magnitude < 1e6)
        return {1e3, "ns"};
    if (magnitude < 1e9)
        return {1e6, spelling == TimeSpelling::MicroSign ? "\u00b5s" : "us"};
    if (magnitude < 1e12)
        return {1e9, "ms"};
    return {1e12, "s"};
}

std::string formatSize(uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    const Scale scale = sizeScale(b);
    if (scale.factor == 1)
        return std::to_string(bytes) + " B";
    return formatScaled(b, scale);
}

std::string formatBandwidth(double bytesPerSecond, double like, int digits) {
    return formatScaled(bytesPerSecond, bandwidthScale(bytesPerSecond, like), digits);
}

std::string formatTime(SimTime time, TimeSpelling spelling) {
    const double ps = static_cast<double>(time.ps());
    return formatScaled(ps, timeScale(ps, spelling));
}

std::string countOf(uint64_t count, std::string_view singular, std::string_view plural) {
    std::string out = std::to_string(count) + " ";
    if (count == 1)
        return out + std::string(singular);
    return out + (plural.empty() ? std::string(singular) + "s" : std::string(plural));
}

std::string formatFixed(double value, int decimals) {
    char text[400]; // %f of the largest double has 309 digits before the point
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

} // namespace astrolabe::units
