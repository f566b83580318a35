// The `system:` section of a project file.
#include "config/AstraSystemConfig.h"
#include "config/ProjectReading.h"
#include "config/SpecValidation.h"
#include "core/Units.h"

#include <algorithm>
#include <cmath>

namespace astrolabe::config {
namespace {

const std::vector<std::string>& systemKeys() {
    static const std::vector<std::string> keys{"astra-system",
                                               "algorithms",
                                               "custom-algorithms",
                                               "per-node-custom",
                                               "scheduling-policy",
                                               "collective-optimization",
                                               "intra-dimension-scheduling",
                                               "inter-dimension-scheduling",
                                               "chunks",
                                               "active-chunks-per-dimension",
                                               "endpoint-delay",
                                               "local-memory-bandwidth",
                                               "peak-perf",
                                               "roofline",
                                               "replay-only",
                                               "trace-enabled",
                                               "track-local-memory",
                                               "local-memory-trace-file",
                                               "num-queues-per-dim",
                                               "injection-scale",
                                               "rendezvous"};
    return keys;
}

// Keys that are command-line flags in ASTRA-sim, so they may accompany `astra-system`.
const std::vector<std::string>& flagKeys() {
    static const std::vector<std::string> keys{"astra-system", "num-queues-per-dim",
                                               "injection-scale", "rendezvous"};
    return keys;
}

std::vector<AlgorithmSpec>* listFor(SystemConfig& system, const std::string& collective) {
    if (collective == "all-reduce")
        return &system.allReduce;
    if (collective == "reduce-scatter")
        return &system.reduceScatter;
    if (collective == "all-gather")
        return &system.allGather;
    if (collective == "all-to-all")
        return &system.allToAll;
    return nullptr;
}

std::string* customFor(SystemConfig& system, const std::string& collective) {
    if (collective == "all-reduce")
        return &system.customAllReduce;
    if (collective == "reduce-scatter")
        return &system.customReduceScatter;
    if (collective == "all-gather")
        return &system.customAllGather;
    if (collective == "all-to-all")
        return &system.customAllToAll;
    return nullptr;
}

void readAlgorithmList(Diagnostics& d, const YAML::Node& node, const std::string& path,
                       std::vector<AlgorithmSpec>& out) {
    if (!node.IsSequence()) {
        d.error(locate(d, node, path),
                "expected a list of algorithm names (one per dimension), found " + describe(node),
                "e.g. [ring, direct]");
        return;
    }
    out.clear();
    for (size_t i = 0; i < node.size(); ++i) {
        const std::string at = path + "[" + std::to_string(i) + "]";
        AlgorithmSpec spec;
        if (readName(d, node[i], at, spec, parseAlgorithm))
            out.push_back(spec);
    }
}

// `algorithms:` is a map per collective, or one list used for all four.
void readAlgorithms(Diagnostics& d, const YAML::Node& node, SystemConfig& system) {
    const std::string path = "system.algorithms";
    if (node.IsSequence()) {
        readAlgorithmList(d, node, path, system.allReduce);
        system.reduceScatter = system.allGather = system.allToAll = system.allReduce;
        return;
    }
    if (!node.IsMap()) {
        d.error(locate(d, node, path),
                "expected a map {all-reduce: [...], ...} or one list for every collective, found " +
                    describe(node));
        return;
    }
    checkKeys(d, node, path, projectCollectiveNames());
    for (const std::string& name : projectCollectiveNames())
        if (node[name].IsDefined())
            readAlgorithmList(d, node[name], joinKey(path, name), *listFor(system, name));
}

void readCustom(ProjectContext& c, const YAML::Node& node, SystemConfig& system) {
    const std::string path = "system.custom-algorithms";
    if (!node.IsMap()) {
        c.diagnostics.error(locate(c.diagnostics, node, path),
                            "expected a map {all-reduce: <ET prefix>, ...}, found " +
                                describe(node));
        return;
    }
    checkKeys(c.diagnostics, node, path, projectCollectiveNames());
    for (const std::string& name : projectCollectiveNames()) {
        std::string prefix;
        if (node[name].IsDefined() &&
            readString(c.diagnostics, node[name], joinKey(path, name), prefix))
            *customFor(system, name) = c.resolve(prefix);
    }
}

void readPerNodeCustom(ProjectContext& c, const YAML::Node& node, SystemConfig& system) {
    const std::string path = "system.per-node-custom";
    Diagnostics& d = c.diagnostics;
    if (node.IsScalar()) { // a per-node YAML file, as ASTRA-sim's JSON references
        c.absorb([&] { system.perNodeCustom = loadPerNodeCustomYaml(c.resolve(node.Scalar())); });
        return;
    }
    if (!node.IsMap()) {
        d.error(locate(d, node, path),
                "expected a map {<workload node id>: <ET prefix>} or a YAML file, found " +
                    describe(node));
        return;
    }
    system.perNodeCustom.clear();
    for (auto it = node.begin(); it != node.end(); ++it) {
        const std::string key = it->first.IsScalar() ? it->first.Scalar() : "?";
        uint64_t id = 0;
        try {
            id = it->first.as<uint64_t>();
        } catch (const YAML::BadConversion&) {
            d.error(locate(d, it->first, joinKey(path, key)),
                    "expected a workload node id (a whole number), found " + describe(it->first));
            continue;
        }
        std::string prefix;
        if (readString(d, it->second, joinKey(path, key), prefix))
            system.perNodeCustom.emplace_back(id, c.resolve(prefix));
    }
    std::sort(system.perNodeCustom.begin(), system.perNodeCustom.end());
}

void readCount(Diagnostics& d, const YAML::Node& node, const std::string& path, int minimum,
               int& out) {
    int64_t n = 0;
    if (!readInt(d, node, path, n))
        return;
    if (n < minimum || n > (1 << 30))
        d.error(locate(d, node, path), "expected a whole number of " + std::to_string(minimum) +
                                           " or more, found " + std::to_string(n));
    else
        out = static_cast<int>(n);
}

void readFlags(ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    if (node["num-queues-per-dim"].IsDefined())
        readCount(d, node["num-queues-per-dim"], "system.num-queues-per-dim", 1,
                  spec.options.numQueuesPerDim);
    if (node["injection-scale"].IsDefined()) {
        double scale = 0;
        if (readDouble(d, node["injection-scale"], "system.injection-scale", scale)) {
            if (!(scale > 0) || !std::isfinite(scale))
                d.error(locate(d, node["injection-scale"], "system.injection-scale"),
                        "expected a factor greater than 0, found " +
                            node["injection-scale"].Scalar());
            else
                spec.options.injectionScale = scale;
        }
    }
    if (node["rendezvous"].IsDefined())
        readBool(d, node["rendezvous"], "system.rendezvous", spec.options.rendezvousProtocol);
}

void readInline(ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    SystemConfig& s = spec.system;
    const auto at = [&](const char* key) { return node[key]; };
    const auto path = [](const char* key) { return std::string("system.") + key; };

    if (at("algorithms").IsDefined())
        readAlgorithms(d, at("algorithms"), s);
    if (at("custom-algorithms").IsDefined())
        readCustom(c, at("custom-algorithms"), s);
    if (at("per-node-custom").IsDefined())
        readPerNodeCustom(c, at("per-node-custom"), s);
    if (at("scheduling-policy").IsDefined())
        readName(d, at("scheduling-policy"), path("scheduling-policy"), s.schedulingPolicy,
                 parseSchedulingPolicy);
    if (at("collective-optimization").IsDefined())
        readName(d, at("collective-optimization"), path("collective-optimization"),
                 s.collectiveOptimization, parseCollectiveOptimization);
    if (at("intra-dimension-scheduling").IsDefined())
        readName(d, at("intra-dimension-scheduling"), path("intra-dimension-scheduling"),
                 s.intraDimensionScheduling, parseIntraDimensionScheduling);
    if (at("inter-dimension-scheduling").IsDefined())
        readName(d, at("inter-dimension-scheduling"), path("inter-dimension-scheduling"),
                 s.interDimensionScheduling, parseInterDimensionScheduling);
    if (at("chunks").IsDefined())
        readCount(d, at("chunks"), path("chunks"), 1, s.preferredDatasetSplits);
    else
        d.error(locate(d, node, path("chunks")),
                "required key is missing: the number of chunks each collective is split into",
                "add e.g. chunks: 4 (ASTRA-sim's preferred-dataset-splits)");
    if (at("active-chunks-per-dimension").IsDefined())
        readCount(d, at("active-chunks-per-dimension"), path("active-chunks-per-dimension"), 1,
                  s.activeChunksPerDimension);
    SimTime delay;
    if (at("endpoint-delay").IsDefined() &&
        readTime(d, at("endpoint-delay"), path("endpoint-delay"), delay)) {
        s.endpointDelayConfiguredNs = static_cast<double>(delay.ps()) / 1e3;
        s.endpointDelayFromFile = true;
    }
    double bytesPerSecond = 0;
    if (at("local-memory-bandwidth").IsDefined() &&
        readBandwidth(d, at("local-memory-bandwidth"), path("local-memory-bandwidth"),
                      bytesPerSecond))
        s.localMemBandwidthGBps = bytesPerSecond / 1e9;
    if (at("peak-perf").IsDefined())
        readFlopRate(d, at("peak-perf"), path("peak-perf"), s.peakPerfTFlops);
    if (at("roofline").IsDefined())
        readBool(d, at("roofline"), path("roofline"), s.rooflineEnabled);
    if (at("replay-only").IsDefined())
        readBool(d, at("replay-only"), path("replay-only"), s.replayOnly);
    if (at("trace-enabled").IsDefined())
        readBool(d, at("trace-enabled"), path("trace-enabled"), s.traceEnabled);
    if (at("track-local-memory").IsDefined())
        readBool(d, at("track-local-memory"), path("track-local-memory"), s.trackLocalMemory);
    if (at("local-memory-trace-file").IsDefined())
        readString(d, at("local-memory-trace-file"), path("local-memory-trace-file"),
                   s.localMemTraceFilename);
    readFlags(c, node, spec);
    // Same rule as ASTRA-sim's --injection-scale: it scales a configured delay, not the default.
    if (s.endpointDelayFromFile) {
        const double scaled = s.endpointDelayConfiguredNs * spec.options.injectionScale;
        if (!(scaled <= kMaxEndpointDelayNs))
            c.diagnostics.error(locate(c.diagnostics, at("endpoint-delay"), path("endpoint-delay")),
                                "expected at most one second after the injection scale, found " +
                                    units::formatNumber(scaled) + " ns");
        else
            s.endpointDelayNs = static_cast<int64_t>(scaled);
    }
}

} // namespace

void readProjectSystem(ProjectContext& c, const YAML::Node& node, SimulationSpec& spec) {
    Diagnostics& d = c.diagnostics;
    if (!node.IsMap()) {
        d.error(locate(d, node, "system"),
                "expected a map of system settings (or astra-system: <file.json>), found " +
                    describe(node));
        return;
    }
    checkKeys(d, node, "system", systemKeys());
    spec.system.sourceFile = d.file();
    if (!node["astra-system"].IsDefined()) {
        readInline(c, node, spec);
        return;
    }
    for (auto it = node.begin(); it != node.end(); ++it) {
        const std::string key = it->first.Scalar();
        const bool allowed =
            std::find(flagKeys().begin(), flagKeys().end(), key) != flagKeys().end();
        const bool known =
            std::find(systemKeys().begin(), systemKeys().end(), key) != systemKeys().end();
        if (!allowed && known)
            d.error(locate(d, it->first, "system." + key),
                    "cannot be combined with astra-system (the JSON file sets it)",
                    "remove it, or replace astra-system by inline settings");
    }
    readFlags(c, node, spec);
    std::string file;
    if (readString(d, node["astra-system"], "system.astra-system", file))
        c.absorb([&] {
            spec.system =
                loadAstraSystemJson(c.resolve(file), spec.options.injectionScale, c.warnings);
        });
}

} // namespace astrolabe::config
