#include "yaml/ProjectValues.h"

#include "core/Collectives.h"
#include "core/Units.h"
#include "spec/MemoryNames.h"
#include "spec/NameTable.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <utility>

namespace astrolabe::config {
namespace {

// Relocates a units:: error (which knows no file) to the key it came from.
template <typename Parse>
bool readUnit(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
              Parse parse) {
    std::string text;
    if (!readString(diagnostics, node, keyPath, text))
        return false;
    try {
        parse(text);
        return true;
    } catch (const Error& e) {
        diagnostics.relocate(e, locate(diagnostics, node, keyPath));
        return false;
    }
}

// Among candidate spellings, the shortest one that reads back to exactly `value`; the first
// candidate when none does (only for values no unit text can carry exactly).
std::string shortestExact(double value, const std::vector<std::string>& candidates,
                          const std::function<double(const std::string&)>& reread) {
    std::string best;
    for (const std::string& text : candidates) {
        double back = 0;
        try {
            back = reread(text);
        } catch (const Error&) {
            continue;
        }
        if (back == value && (best.empty() || text.size() < best.size()))
            best = text;
    }
    return best.empty() ? candidates.front() : best;
}

struct FlopUnit {
    const char* name;
    double teraFlops;
};
constexpr FlopUnit kFlopUnits[] = {{"FLOP/s", 1e-12}, {"GFLOP/s", 1e-3}, {"TFLOP/s", 1},
                                   {"PFLOP/s", 1e3},  {"GFLOPS", 1e-3},  {"TFLOPS", 1},
                                   {"PFLOPS", 1e3}};
constexpr const char* kFlopForms = "<number> GFLOP/s|TFLOP/s|PFLOP/s, e.g. \"989 TFLOP/s\"";

/// The four collectives by name, then by their file-name form, to their Chakra numbers.
const NameTable<int>& collectives() {
    static const NameTable<int> table = [] {
        NameTable<int> out;
        for (const char* CollectiveNames::*form : {&CollectiveNames::name, &CollectiveNames::snake})
            for (CollectiveKind kind : kCollectiveKinds)
                out.emplace_back(namesOf(kind).*form, static_cast<int>(collectiveTypeOf(kind)));
        return out;
    }();
    return table;
}

const NameTable<RemoteMemoryType>& memoryTypes() {
    static const NameTable<RemoteMemoryType> table{
        {"none", RemoteMemoryType::NoMemoryExpansion},
        {"per-node", RemoteMemoryType::PerNodeMemoryExpansion},
        {"per-npu", RemoteMemoryType::PerNpuMemoryExpansion},
        {"pool", RemoteMemoryType::MemoryPool},
        {"pooled", RemoteMemoryType::Pooled},
        {"NO_MEMORY_EXPANSION", RemoteMemoryType::NoMemoryExpansion},
        {"PER_NODE_MEMORY_EXPANSION", RemoteMemoryType::PerNodeMemoryExpansion},
        {"PER_NPU_MEMORY_EXPANSION", RemoteMemoryType::PerNpuMemoryExpansion},
        {"MEMORY_POOL", RemoteMemoryType::MemoryPool}};
    return table;
}

const NameTable<NetworkBackend>& backends() {
    static const NameTable<NetworkBackend> table{
        {"congestion-unaware", NetworkBackend::CongestionUnaware},
        {"congestion-aware", NetworkBackend::CongestionAware},
        {"analytical-congestion-unaware", NetworkBackend::CongestionUnaware},
        {"packet", NetworkBackend::Packet},
        {"analytical-congestion-aware", NetworkBackend::CongestionAware},
        {"ns3", NetworkBackend::Packet}};
    return table;
}

const NameTable<TimingMode>& timings() {
    static const NameTable<TimingMode> table{{"astra-compatible", TimingMode::AstraCompatible},
                                             {"precise", TimingMode::Precise}};
    return table;
}

} // namespace

bool readBandwidth(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
                   double& bytesPerSecond) {
    return readUnit(diagnostics, node, keyPath, [&](const std::string& text) {
        bytesPerSecond = units::parseBandwidthBytesPerSecond(text);
    });
}

bool readTime(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
              SimTime& out) {
    return readUnit(diagnostics, node, keyPath,
                    [&](const std::string& text) { out = units::parseTime(text); });
}

bool readSize(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
              uint64_t& bytes) {
    return readUnit(diagnostics, node, keyPath,
                    [&](const std::string& text) { bytes = units::parseSizeBytes(text); });
}

double parseFlopRateTeraFlops(const std::string& text) {
    size_t begin = text.find_first_not_of(" \t");
    if (begin == std::string::npos)
        begin = text.size();
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + text.size(), value);
    const auto reject = [&](const std::string& problem) {
        throw Error(ErrorKind::Validation,
                    "expected a compute rate with a unit, found \"" + text + "\" (" + problem + ")",
                    {}, std::string("accepted forms: ") + kFlopForms);
    };
    if (ec != std::errc() || ptr == text.data() + begin)
        reject("no number at the start");
    if (!std::isfinite(value) || value < 0)
        reject("must be a finite number of 0 or more");
    std::string unit(ptr, text.data() + text.size());
    unit.erase(0, unit.find_first_not_of(" \t"));
    unit.erase(unit.find_last_not_of(" \t") + 1);
    if (unit.empty())
        reject("a bare number is ambiguous; write the unit");
    for (const FlopUnit& u : kFlopUnits)
        if (unit == u.name)
            return value * u.teraFlops;
    reject("unknown unit \"" + unit + "\"");
    return 0;
}

bool readFlopRate(Diagnostics& diagnostics, const YAML::Node& node, const std::string& keyPath,
                  double& teraFlops) {
    return readUnit(diagnostics, node, keyPath,
                    [&](const std::string& text) { teraFlops = parseFlopRateTeraFlops(text); });
}

std::string bandwidthText(double bytesPerSecond) {
    std::vector<std::string> candidates;
    for (const auto& [unit, factor] :
         {std::pair{"GiB/s", 1073741824.0}, std::pair{"GB/s", 1e9}, std::pair{"TB/s", 1e12},
          std::pair{"TiB/s", 1099511627776.0}, std::pair{"MB/s", 1e6},
          std::pair{"MiB/s", 1048576.0}, std::pair{"Gbps", 1e9 / 8}, std::pair{"B/s", 1.0}})
        candidates.push_back(units::formatNumber(bytesPerSecond / factor) + " " + unit);
    return shortestExact(bytesPerSecond, candidates, [](const std::string& t) {
        return units::parseBandwidthBytesPerSecond(t);
    });
}

std::string decimalGigabytesPerSecondText(double gigabytesPerSecond) {
    std::vector<std::string> candidates{units::formatNumber(gigabytesPerSecond) + " GB/s",
                                        units::formatNumber(gigabytesPerSecond / 1e3) + " TB/s",
                                        units::formatNumber(gigabytesPerSecond * 1e3) + " MB/s",
                                        units::formatNumber(gigabytesPerSecond * 1e9) + " B/s"};
    return shortestExact(gigabytesPerSecond, candidates, [](const std::string& t) {
        return units::parseBandwidthBytesPerSecond(t) / 1e9;
    });
}

std::string nanosecondsText(double ns) {
    std::vector<std::string> candidates{
        units::formatNumber(ns) + " ns", units::formatNumber(ns / 1e3) + " us",
        units::formatNumber(ns / 1e6) + " ms", units::formatNumber(ns * 1e3) + " ps"};
    return shortestExact(ns, candidates, [](const std::string& t) {
        return static_cast<double>(units::parseTime(t).ps()) / 1e3;
    });
}

std::string sizeText(uint64_t bytes) {
    std::string best = std::to_string(bytes) + " B";
    for (const auto& [unit, factor] :
         {std::pair{"KiB", uint64_t(1) << 10}, std::pair{"MiB", uint64_t(1) << 20},
          std::pair{"GiB", uint64_t(1) << 30}, std::pair{"TiB", uint64_t(1) << 40},
          std::pair{"KB", uint64_t(1000)}, std::pair{"MB", uint64_t(1000000)},
          std::pair{"GB", uint64_t(1000000000)}}) {
        if (bytes == 0 || bytes % factor != 0)
            continue;
        const std::string text = std::to_string(bytes / factor) + " " + unit;
        if (text.size() < best.size())
            best = text;
    }
    return best;
}

std::string flopRateText(double teraFlops) {
    return units::formatNumber(teraFlops) + " TFLOP/s"; // factor 1: exact
}

const std::vector<std::string>& projectCollectiveNames() {
    static const std::vector<std::string> names = collectiveKindNames();
    return names;
}
int parseProjectCollective(const std::string& name) {
    return parseName(collectives(), name, "collective", projectCollectiveNames());
}
const char* projectCollectiveName(int chakraType) {
    return nameOf(collectives(), chakraType);
}

const std::vector<std::string>& projectMemoryTypeNames() {
    static const std::vector<std::string> names{"none", "per-node", "per-npu", "pool", "pooled"};
    return names;
}
RemoteMemoryType parseProjectMemoryType(const std::string& name) {
    return parseName(memoryTypes(), name, "memory type", projectMemoryTypeNames());
}
const char* projectMemoryTypeName(RemoteMemoryType type) {
    return nameOf(memoryTypes(), type);
}

const std::vector<std::string>& backendNames() {
    static const std::vector<std::string> names{"congestion-unaware", "congestion-aware", "packet"};
    return names;
}
NetworkBackend parseBackend(const std::string& name) {
    return parseName(backends(), name, "network backend", backendNames());
}
const char* backendName(NetworkBackend backend) {
    return nameOf(backends(), backend);
}

const std::vector<std::string>& timingNames() {
    static const std::vector<std::string> names = tableNames(timings());
    return names;
}
TimingMode parseTiming(const std::string& name) {
    return parseName(timings(), name, "timing mode", timingNames());
}
const char* timingName(TimingMode timing) {
    return nameOf(timings(), timing);
}

std::string quotedText(const std::string& text) {
    // A YAML double-quoted scalar: quotes and backslashes escaped, and every character YAML
    // does not allow as it is (C0 controls, DEL) as an escape, so any text reads back exactly.
    static const char* const hex = "0123456789ABCDEF";
    std::string out = "\"";
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (ch == '\n') {
            out += "\\n";
        } else if (ch == '\t') {
            out += "\\t";
        } else if (byte < 0x20 || byte == 0x7f) {
            out += "\\x";
            out += hex[byte >> 4];
            out += hex[byte & 0xf];
        } else {
            out += ch;
        }
    }
    out += '"';
    return out;
}

} // namespace astrolabe::config
