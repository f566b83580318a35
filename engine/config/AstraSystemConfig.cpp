#include "config/AstraSystemConfig.h"

#include "config/JsonSupport.h"
#include "config/SpecValidation.h"
#include "config/YamlSupport.h"
#include "core/InputFile.h"
#include "core/Units.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace astrolabe {
namespace {

namespace fs = std::filesystem;
using config::Diagnostics;
using nlohmann::json;

const std::vector<std::string>& systemKeys() {
    static const std::vector<std::string> keys{
        "scheduling-policy",
        "collective-optimization",
        "endpoint-delay",
        "local-reduction-delay",
        "active-chunks-per-dimension",
        "preferred-dataset-splits",
        "all-reduce-implementation",
        "reduce-scatter-implementation",
        "all-gather-implementation",
        "all-to-all-implementation",
        "all-reduce-implementation-custom",
        "reduce-scatter-implementation-custom",
        "all-gather-implementation-custom",
        "all-to-all-implementation-custom",
        "per-node-custom-implementation",
        "local-mem-bw",
        "peak-perf",
        "roofline-enabled",
        "trace-enabled",
        "replay-only",
        "track-local-mem",
        "local-mem-trace-filename",
        "model-shared-bus",
        "L",
        "o",
        "g",
        "G",
        "boost-mode",
        "intra-dimension-scheduling",
        "inter-dimension-scheduling",
    };
    return keys;
}

// Typed access to the flat top-level object, reporting wrong types with the key's line.
class SystemReader {
public:
    SystemReader(Diagnostics& diagnostics, const config::JsonDocument& doc)
        : m_diagnostics(diagnostics)
        , m_doc(doc) {}

    bool has(const std::string& key) const { return m_doc.value.contains(key); }
    const json& value(const std::string& key) const { return m_doc.value.at(key); }
    SourceLocation where(const std::string& key, const std::string& path = {}) const {
        return config::locateJsonKey(m_diagnostics, m_doc.text, key, path.empty() ? key : path);
    }
    void error(const std::string& key, const std::string& message, const std::string& hint = {},
               ErrorKind kind = ErrorKind::Validation) {
        m_diagnostics.error(where(key), message, hint, kind);
    }
    Diagnostics& diagnostics() { return m_diagnostics; }

    bool number(const std::string& key, double& out) {
        if (!has(key))
            return false;
        const json& v = value(key);
        if (!v.is_number()) {
            error(key, "expected a number, found " + config::describeJson(v));
            return false;
        }
        out = v.get<double>();
        return true;
    }

    /// A whole number; JSON floats with an integral value are accepted (upstream casts them).
    bool integer(const std::string& key, int64_t& out) {
        double d = 0;
        if (!number(key, d))
            return false;
        if (d != std::floor(d) || std::fabs(d) > 9e15) {
            error(key, "expected a whole number, found " + config::describeJson(value(key)));
            return false;
        }
        out = static_cast<int64_t>(d);
        return true;
    }

    /// ASTRA-sim's on/off switches are ints (nonzero = on); JSON booleans are accepted too.
    bool flag(const std::string& key, bool& out) {
        if (!has(key))
            return false;
        const json& v = value(key);
        if (v.is_boolean()) {
            out = v.get<bool>();
            return true;
        }
        if (v.is_number()) {
            out = v.get<double>() != 0;
            return true;
        }
        error(key, "expected 0 or 1 (or true/false), found " + config::describeJson(v));
        return false;
    }

    bool text(const std::string& key, std::string& out) {
        if (!has(key))
            return false;
        const json& v = value(key);
        if (!v.is_string()) {
            error(key, "expected a text value, found " + config::describeJson(v));
            return false;
        }
        out = v.get<std::string>();
        return true;
    }

    /// A name looked up through `parse` (which throws an Error listing the valid names).
    template <typename Enum, typename Parse>
    void named(const std::string& key, Enum& out, Parse parse) {
        std::string name;
        if (!text(key, name))
            return;
        try {
            out = parse(name);
        } catch (const Error& e) {
            m_diagnostics.relocate(e, where(key));
        }
    }

private:
    Diagnostics& m_diagnostics;
    const config::JsonDocument& m_doc;
};

void readAlgorithms(SystemReader& r, const std::string& key, std::vector<AlgorithmSpec>& out) {
    if (!r.has(key))
        return;
    const json& v = r.value(key);
    if (v.is_string()) {
        // ASTRA-sim 1.0 wrote "ring_doubleBinaryTree"; 2.x wants a list.
        std::string list;
        const std::string old = v.get<std::string>();
        for (size_t from = 0; from <= old.size();) {
            const size_t to = std::min(old.find('_', from), old.size());
            list += (list.empty() ? "\"" : ", \"") + old.substr(from, to - from) + "\"";
            from = to + 1;
        }
        r.error(key,
                "expected a list of algorithm names (one per dimension), found " +
                    config::describeJson(v),
                "write [" + list + "]");
        return;
    }
    if (!v.is_array()) {
        r.error(key, "expected a list of algorithm names (one per dimension), found " +
                         config::describeJson(v));
        return;
    }
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string path = key + "[" + std::to_string(i) + "]";
        if (!v[i].is_string()) {
            r.diagnostics().error(r.where(key, path), "expected an algorithm name, found " +
                                                          config::describeJson(v[i]));
            continue;
        }
        try {
            out.push_back(parseAlgorithm(v[i].get<std::string>()));
        } catch (const Error& e) {
            r.diagnostics().relocate(e, r.where(key, path));
        }
    }
}

void readCustom(SystemReader& r, const std::string& key, std::string& out) {
    if (!r.has(key))
        return;
    const json& v = r.value(key);
    if (!v.is_array() || v.size() != 1 || !v[0].is_string()) {
        r.error(
            key,
            "expected a list with exactly one custom collective ET prefix, found " +
                (v.is_array() ? std::to_string(v.size()) + " entries" : config::describeJson(v)),
            "one prefix applies to every collective of this type; use "
            "per-node-custom-implementation to vary it per node");
        return;
    }
    out = v[0].get<std::string>();
    if (out.empty())
        r.error(key, "expected a custom collective ET prefix, found an empty text");
}

std::string resolveNextTo(const std::string& path, const std::string& referrer) {
    if (fs::path(path).is_absolute() || fs::exists(path))
        return path;
    const fs::path sibling = fs::path(referrer).parent_path() / path;
    return fs::exists(sibling) ? sibling.lexically_normal().string() : path;
}

void readScalars(SystemReader& r, SystemConfig& system, double injectionScale) {
    r.named("scheduling-policy", system.schedulingPolicy, parseSchedulingPolicy);
    if (!r.has("scheduling-policy"))
        r.diagnostics().warning(
            r.where("scheduling-policy"),
            "missing; ASTRA-sim leaves it uninitialised, which behaves as LIFO",
            "add \"scheduling-policy\": \"LIFO\" (or FIFO, EXPLICIT) to say what you mean");
    r.named("collective-optimization", system.collectiveOptimization, parseCollectiveOptimization);
    r.named("intra-dimension-scheduling", system.intraDimensionScheduling,
            parseIntraDimensionScheduling);
    r.named("inter-dimension-scheduling", system.interDimensionScheduling,
            parseInterDimensionScheduling);

    double delay = 0;
    if (r.number("endpoint-delay", delay)) {
        if (delay < 0 || !std::isfinite(delay)) {
            r.error("endpoint-delay",
                    "expected 0 cycles (ns) or more, found " + units::formatNumber(delay));
        } else if (delay * injectionScale > kMaxEndpointDelayNs) {
            r.error("endpoint-delay",
                    "expected at most " +
                        std::to_string(static_cast<int64_t>(kMaxEndpointDelayNs)) +
                        " cycles (ns, one second) after the injection scale, found " +
                        units::formatNumber(delay * injectionScale));
        } else {
            // ASTRA-sim: int(endpoint-delay * injection-scale), only when the key is present.
            system.endpointDelayConfiguredNs = delay;
            system.endpointDelayNs = static_cast<int64_t>(delay * injectionScale);
            system.endpointDelayFromFile = true;
        }
    }
    int64_t n = 0;
    if (r.integer("active-chunks-per-dimension", n)) {
        if (n < 1)
            r.error("active-chunks-per-dimension",
                    "expected 1 or more, found " + std::to_string(n));
        else
            system.activeChunksPerDimension = static_cast<int>(std::min<int64_t>(n, 1 << 30));
    }
    if (!r.has("preferred-dataset-splits")) {
        r.error("preferred-dataset-splits",
                "required key is missing: the number of chunks each collective is split into",
                "add e.g. \"preferred-dataset-splits\": 1; ASTRA-sim crashes with a division by "
                "zero without it, so Astrolabe refuses the file instead");
    } else if (r.integer("preferred-dataset-splits", n)) {
        if (n < 1)
            r.error("preferred-dataset-splits",
                    "expected 1 or more chunks, found " + std::to_string(n),
                    "0 makes ASTRA-sim divide by zero");
        else
            system.preferredDatasetSplits = static_cast<int>(std::min<int64_t>(n, 1 << 30));
    }

    double value = 0;
    if (r.number("local-mem-bw", value)) {
        if (value < 0)
            r.error("local-mem-bw", "expected 0 GB/s or more, found " + units::formatNumber(value));
        else
            system.localMemBandwidthGBps = value;
    }
    if (r.number("peak-perf", value)) {
        if (value < 0)
            r.error("peak-perf", "expected 0 TFLOP/s or more, found " + units::formatNumber(value));
        else
            system.peakPerfTFlops = value;
    }
    r.flag("roofline-enabled", system.rooflineEnabled);
    r.flag("trace-enabled", system.traceEnabled);
    r.flag("replay-only", system.replayOnly);
    r.flag("track-local-mem", system.trackLocalMemory);
    r.text("local-mem-trace-filename", system.localMemTraceFilename);

    bool on = false;
    if (r.flag("model-shared-bus", on) && on)
        r.error("model-shared-bus", "the LogGP shared-bus model is not supported by Astrolabe",
                "set \"model-shared-bus\": 0; the fixed endpoint-delay model is used instead",
                ErrorKind::Unsupported);
    for (const char* key : {"L", "o", "g", "G", "local-reduction-delay"})
        r.number(key, value); // type-checked; only the shared-bus model would use them
    if (r.flag("boost-mode", on) && on)
        r.diagnostics().warning(r.where("boost-mode"),
                                "ignored: boost mode (simulate only NPU 0's peers) existed only "
                                "in ASTRA-sim 1.0; every NPU is simulated");
}

void readPerNodeCustom(SystemReader& r, SystemConfig& system, const std::string& fileName) {
    std::string path;
    if (!r.text("per-node-custom-implementation", path))
        return;
    const std::string resolved = resolveNextTo(path, fileName);
    if (!fs::is_regular_file(resolved)) {
        r.error("per-node-custom-implementation", "file not found: " + path,
                "the path is taken relative to the working directory (as ASTRA-sim does) or "
                "to this JSON's folder");
        return;
    }
    try {
        system.perNodeCustom = loadPerNodeCustomYaml(resolved);
    } catch (const ErrorList& list) {
        for (const Error& e : list.errors())
            r.diagnostics().relocate(e, e.where());
    } catch (const Error& e) {
        r.diagnostics().relocate(e, e.where());
    }
}

} // namespace

SystemConfig parseAstraSystemJson(const std::string& text, const std::string& fileName,
                                  double injectionScale, std::vector<std::string>* warnings) {
    Diagnostics diagnostics(fileName);
    const config::JsonDocument doc = config::parseJsonText(text, fileName);
    if (!doc.value.is_object()) {
        diagnostics.error(diagnostics.at(1, 1, {}),
                          "expected a JSON object of system settings, found " +
                              config::describeJson(doc.value));
        diagnostics.throwIfErrors();
    }
    SystemReader r(diagnostics, doc);
    for (const auto& [key, unused] : doc.value.items()) {
        (void)unused;
        bool known = false;
        for (const std::string& k : systemKeys())
            known = known || k == key;
        if (!known) {
            std::string hint = config::didYouMean(key, systemKeys());
            diagnostics.warning(r.where(key), "unknown key, ignored (as ASTRA-sim 2.x does)", hint);
        }
    }

    SystemConfig system;
    system.sourceFile = fileName;
    readScalars(r, system, injectionScale);
    readAlgorithms(r, "all-reduce-implementation", system.allReduce);
    readAlgorithms(r, "reduce-scatter-implementation", system.reduceScatter);
    readAlgorithms(r, "all-gather-implementation", system.allGather);
    readAlgorithms(r, "all-to-all-implementation", system.allToAll);
    readCustom(r, "all-reduce-implementation-custom", system.customAllReduce);
    readCustom(r, "reduce-scatter-implementation-custom", system.customReduceScatter);
    readCustom(r, "all-gather-implementation-custom", system.customAllGather);
    readCustom(r, "all-to-all-implementation-custom", system.customAllToAll);
    readPerNodeCustom(r, system, fileName);

    diagnostics.throwIfErrors();
    diagnostics.moveWarningsTo(warnings);
    return system;
}

SystemConfig loadAstraSystemJson(const std::string& path, double injectionScale,
                                 std::vector<std::string>* warnings) {
    return parseAstraSystemJson(readInputFile(path, "the system configuration"), path,
                                injectionScale, warnings);
}

std::vector<std::pair<uint64_t, std::string>> loadPerNodeCustomYaml(const std::string& path) {
    Diagnostics diagnostics(path);
    const YAML::Node root = config::loadYamlFile(path);
    std::vector<std::pair<uint64_t, std::string>> entries;
    if (!root.IsMap()) {
        diagnostics.error(diagnostics.at(1, 1, {}),
                          "expected a map <workload node id>: <custom ET prefix>, found " +
                              config::describe(root));
        diagnostics.throwIfErrors();
    }
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
        uint64_t id = 0;
        try {
            id = it->first.as<uint64_t>();
        } catch (const YAML::BadConversion&) {
            diagnostics.error(config::locate(diagnostics, it->first, key),
                              "expected a workload node id (a whole number), found " +
                                  config::describe(it->first));
            continue;
        }
        std::string prefix;
        if (config::readString(diagnostics, it->second, key, prefix))
            entries.emplace_back(id, prefix);
    }
    diagnostics.throwIfErrors();
    std::sort(entries.begin(), entries.end());
    return entries;
}

} // namespace astrolabe
