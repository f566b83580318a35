#include "core/Units.h"

#include "core/Error.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

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

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

[[noreturn]] void reject(std::string_view what, std::string_view text, std::string_view problem,
                         const char* forms) {
    throw Error(ErrorKind::Validation,
                "expected a " + std::string(what) + " with a unit, found \"" + std::string(text) +
                    "\" (" + std::string(problem) + ")",
                {}, std::string("accepted forms: ") + forms);
}

template <size_t N>
double parseWithUnit(std::string_view text, const std::array<UnitFactor, N>& table,
                     std::string_view what, const char* forms) {
    const std::string_view body = trim(text);
    double value = 0;
    const char* begin = body.data();
    const char* end = body.data() + body.size();
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr == begin)
        reject(what, text, "no number at the start", forms);
    if (!std::isfinite(value))
        reject(what, text, "the number is not finite", forms);
    if (value < 0)
        reject(what, text, "negative values are not allowed", forms);
    const std::string_view unit = trim(std::string_view(ptr, static_cast<size_t>(end - ptr)));
    if (unit.empty())
        reject(what, text, "a bare number is ambiguous; write the unit", forms);
    for (const UnitFactor& u : table)
        if (u.name == unit)
            return value * u.factor;
    reject(what, text, "unknown unit \"" + std::string(unit) + "\"", forms);
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

double parseBandwidthBytesPerSecond(std::string_view text) {
    const double bps = parseWithUnit(text, kBandwidthUnits, "bandwidth", acceptedBandwidthForms());
    if (bps <= 0)
        reject("bandwidth", text, "must be greater than zero", acceptedBandwidthForms());
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

static std::string formatScaled(double value, std::string_view unit) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    return std::string(buf) + " " + std::string(unit);
}

std::string formatSize(uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    if (b < kMebi)
        return formatScaled(b / kKibi, "KiB");
    if (b < kGibi)
        return formatScaled(b / kMebi, "MiB");
    if (b < kTebi)
        return formatScaled(b / kGibi, "GiB");
    return formatScaled(b / kTebi, "TiB");
}

std::string formatBandwidth(double bytesPerSecond) {
    // A whole number of binary GiB/s reads better as such ("50 GiB/s", not "53.6871 GB/s").
    const double gibs = bytesPerSecond / kGibi;
    if (bytesPerSecond >= kGibi && gibs == std::floor(gibs) &&
        bytesPerSecond / kGiga != std::floor(bytesPerSecond / kGiga))
        return formatScaled(gibs, "GiB/s");
    if (bytesPerSecond >= kTera)
        return formatScaled(bytesPerSecond / kTera, "TB/s");
    if (bytesPerSecond >= kGiga)
        return formatScaled(bytesPerSecond / kGiga, "GB/s");
    if (bytesPerSecond >= kMega)
        return formatScaled(bytesPerSecond / kMega, "MB/s");
    if (bytesPerSecond >= kKilo)
        return formatScaled(bytesPerSecond / kKilo, "KB/s");
    return formatScaled(bytesPerSecond, "B/s");
}

std::string formatTime(SimTime time, TimeSpelling spelling) {
    const double ps = static_cast<double>(time.ps());
    const double magnitude = std::fabs(ps);
    if (magnitude < 1e3 && magnitude != 0)
        return formatScaled(ps, "ps");
    if (magnitude < 1e6)
        return formatScaled(ps / 1e3, "ns");
    if (magnitude < 1e9)
        return formatScaled(ps / 1e6, spelling == TimeSpelling::MicroSign ? "\u00b5s" : "us");
    if (magnitude < 1e12)
        return formatScaled(ps / 1e9, "ms");
    return formatScaled(ps / 1e12, "s");
}

} // namespace astrolabe::units
