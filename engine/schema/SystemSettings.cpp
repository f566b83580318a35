// The system group: ASTRA-sim's system JSON (spec §3), the settings 2.x ignores but Astrolabe
// honours (spec §5.10) and the command-line flags that belong to the system layer. Rows are in
// the project file's order; astraOrder keeps the exported JSON in ASTRA-sim's sample order.
#include "core/Units.h"
#include "schema/SystemSchema.h"
#include "spec/SpecValidation.h"
#include "spec/SystemNames.h"
#include "yaml/AstraJsonObject.h"
#include "yaml/ProjectContext.h"

#include <cmath>

namespace astrolabe::settings {
namespace {

Setting make(const std::string& key, Type type, const std::string& astraKey, int astraOrder,
             const std::string& label, const std::string& shortLabel, const std::string& help) {
    Setting s = declare("system." + key, type, label, shortLabel, help);
    s.astraKey = astraKey;
    s.astraOrder = astraOrder;
    return s;
}

// ASTRA-sim: int(endpoint-delay * injection-scale), only when the key was present.
Setting endpointDelay() {
    Setting s = make(
        "endpoint-delay", Type::Quantity, "endpoint-delay", 3, "Endpoint delay", "endpoint delay",
        "The fixed time an NPU needs to hand a message between the network and its memory: paid "
        "once when a collective step starts and again after every message received, before the "
        "next one can be sent. It adds up quickly for small messages. Multiplied by the "
        "injection scale.");
    s.unit = Unit::Nanoseconds;
    s.astraUnit = "cycles (ns)";
    s.minimum = 0;
    s.compareKey = "system.endpoint-delay";
    s.get = [](const SimulationSpec& spec) -> Value {
        return spec.system.endpointDelayConfiguredNs;
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        spec.system.endpointDelayConfiguredNs = std::get<double>(v);
        spec.system.endpointDelayFromFile = true;
    };
    s.writeProjectWhen = s.writeAstraWhen = [](const SimulationSpec& spec) {
        return spec.system.endpointDelayFromFile;
    };
    Hooks& h = s.hooks;
    h.shown = [](const SimulationSpec& spec) -> Value {
        return static_cast<double>(spec.system.endpointDelayNs);
    };
    h.edited = [](SimulationSpec& spec, const Value& v) {
        spec.system.endpointDelayNs = std::llround(std::get<double>(v));
        spec.system.endpointDelayFromFile = true; // set explicitly: scaled like a file value
    };
    h.specJson = [](const SimulationSpec& spec, nlohmann::json& group) {
        group["endpointDelayNs"] = spec.system.endpointDelayNs;
        group["endpointDelayFromFile"] = spec.system.endpointDelayFromFile;
    };
    h.fromSpecJson = [](const nlohmann::json& group, SimulationSpec& spec) {
        if (const auto it = group.find("endpointDelayNs"); it != group.end() && it->is_number())
            spec.system.endpointDelayNs = it->get<int64_t>();
        if (const auto it = group.find("endpointDelayFromFile");
            it != group.end() && it->is_boolean())
            spec.system.endpointDelayFromFile = it->get<bool>();
    };
    h.afterProjectRead = [](config::ProjectContext& c, const YAML::Node& node,
                            SimulationSpec& spec) {
        SystemConfig& system = spec.system;
        if (!system.endpointDelayFromFile)
            return;
        const double scaled = system.endpointDelayConfiguredNs * spec.options.injectionScale;
        if (!(scaled <= kMaxEndpointDelayNs))
            c.diagnostics.error(
                config::locate(c.diagnostics, node["endpoint-delay"], "system.endpoint-delay"),
                "expected at most one second after the injection scale, found " +
                    units::formatNumber(scaled) + " ns");
        else
            system.endpointDelayNs = static_cast<int64_t>(scaled);
    };
    h.afterAstraRead = [](AstraReadContext& c, SystemConfig& system) {
        if (!system.endpointDelayFromFile)
            return;
        const double scaled = system.endpointDelayConfiguredNs * c.injectionScale;
        if (scaled > kMaxEndpointDelayNs)
            c.json.error("endpoint-delay",
                         "expected at most " +
                             std::to_string(static_cast<int64_t>(kMaxEndpointDelayNs)) +
                             " cycles (ns, one second) after the injection scale, found " +
                             units::formatNumber(scaled));
        else
            system.endpointDelayNs = static_cast<int64_t>(scaled);
    };
    return s;
}

std::vector<Setting> scalars() {
    std::vector<Setting> out;
    const auto sys = &SimulationSpec::system;
    const auto opt = &SimulationSpec::options;

    Setting s = make("chunks", Type::Int, "preferred-dataset-splits", 5, "Chunks per collective",
                     "chunks (preferred dataset splits)",
                     "Each collective is cut into this many chunks that travel through the "
                     "network one after another, so one dimension can work on a chunk while "
                     "another dimension works on the next. Every chunk carries the same number of "
                     "bytes (at least one byte per NPU), so the simulated total can round up.");
    bindField(s, sys, &SystemConfig::preferredDatasetSplits);
    s.minimum = 1;
    s.maximum = 1 << 30;
    s.limit = kMaxChunksPerCollective;
    s.rangeNoun = "chunks";
    s.missing = {Missing::Level::Error,
                 "required key is missing: the number of chunks each collective is split into",
                 "add e.g. chunks: 4 (ASTRA-sim's preferred-dataset-splits)",
                 "add e.g. \"preferred-dataset-splits\": 1; ASTRA-sim crashes with a division by "
                 "zero without it, so Astrolabe refuses the file instead"};
    s.specJsonKey = "preferredDatasetSplits";
    s.compareKey = "system.chunks";
    out.push_back(s);

    s = make("active-chunks-per-dimension", Type::Int, "active-chunks-per-dimension", 4,
             "Active chunks per dimension", "active chunks per dimension",
             "How many chunks may be in flight on one network dimension at the same time. 1 "
             "means a dimension finishes one chunk's step before starting the next; higher "
             "values overlap chunks and keep links busier. With several queues per dimension "
             "each queue gets an equal share (rounded up).");
    bindField(s, sys, &SystemConfig::activeChunksPerDimension);
    s.minimum = 1;
    s.maximum = 1 << 30;
    s.specJsonKey = "activeChunksPerDimension";
    s.compareKey = "system.active-chunks";
    out.push_back(s);

    s = make("scheduling-policy", Type::Enum, "scheduling-policy", 1, "Scheduling policy",
             "scheduling policy",
             "Which collective's chunks go first when several wait: LIFO favours the newest "
             "collective, FIFO the oldest, EXPLICIT the priority written in the workload trace.");
    bindEnum(s, sys, &SystemConfig::schedulingPolicy, schedulingPolicyName, parseSchedulingPolicy,
             3);
    s.missing = {Missing::Level::Warning,
                 "missing; ASTRA-sim leaves it uninitialised, which behaves as LIFO", "",
                 "add \"scheduling-policy\": \"LIFO\" (or FIFO, EXPLICIT) to say what you mean"};
    s.specJsonKey = "schedulingPolicy";
    s.compareKey = "system.scheduling";
    out.push_back(s);

    s = make("collective-optimization", Type::Enum, "collective-optimization", 2,
             "All-reduce decomposition", "collective optimization",
             "How an all-reduce spans several dimensions. baseline: a full all-reduce on each "
             "dimension in turn. localBWAware: reduce-scatter on every dimension but the last, "
             "all-reduce on the last, then all-gather back, so later dimensions move less data.");
    bindEnum(s, sys, &SystemConfig::collectiveOptimization, collectiveOptimizationName,
             parseCollectiveOptimization, 2);
    s.specJsonKey = "collectiveOptimization";
    s.compareKey = "system.optimization";
    out.push_back(s);

    s = make("intra-dimension-scheduling", Type::Enum, "intra-dimension-scheduling", 30,
             "Order inside a dimension", "intra-dimension scheduling",
             "How a chunk joining a dimension's queue for a reduce-scatter or all-gather after "
             "its first phase is placed among the chunks waiting there. FIFO: behind them; RG: "
             "behind the last waiting chunk of the same kind, keeping reduce-scatters and "
             "all-gathers in runs; smallestFirst: ahead of larger ones (chunks on their last "
             "phase go to the back); lessRemainingPhaseFirst: ahead of chunks with more phases "
             "left. When every chunk visits the dimensions in the same order (ascending) there "
             "is nothing for RG and smallestFirst to reorder and they run as FIFO; with "
             "roundRobin or a Themis order they change the schedule. A baseline all-reduce's "
             "phases are all-reduces, which no policy reorders. (ASTRA-sim 2.x ignores this "
             "setting; Astrolabe honours it.)");
    bindEnum(s, sys, &SystemConfig::intraDimensionScheduling, intraDimensionSchedulingName,
             parseIntraDimensionScheduling, 4);
    s.compat = Compat::AstrolabeOnly;
    s.specJsonKey = "intraDimensionScheduling";
    s.compareKey = "system.intra-dim";
    out.push_back(s);

    s = make("inter-dimension-scheduling", Type::Enum, "inter-dimension-scheduling", 31,
             "Order of dimensions", "inter-dimension scheduling",
             "The order in which a chunk visits the dimensions. ascending: 0, 1, 2, ...; "
             "roundRobin rotates the start per chunk; themisGreedy is Themis' greedy rule as "
             "published (ISCA'22): the least loaded dimension takes the chunk's largest step; "
             "themis searches the dimension orders instead, replaying the collective in a model "
             "of the dimensions' queues, and gives each chunk the order that finishes the "
             "collective earliest; offlineGreedy and offlineGreedyFlex are ASTRA-sim's own Themis "
             "code, cycle-exact. (ASTRA-sim 2.x ignores this setting; Astrolabe honours it.)");
    bindEnum(s, sys, &SystemConfig::interDimensionScheduling, interDimensionSchedulingName,
             parseInterDimensionScheduling, 6);
    s.compat = Compat::AstrolabeOnly;
    s.specJsonKey = "interDimensionScheduling";
    s.compareKey = "system.inter-dim";
    out.push_back(s);

    out.push_back(endpointDelay());

    s = make("local-memory-bandwidth", Type::Quantity, "local-mem-bw", 20, "Local memory bandwidth",
             "local memory bandwidth",
             "How fast an NPU reads and writes its own memory. A reduction of x bytes costs three "
             "passes over the buffer (one write, two reads), so a slow memory makes all-reduce "
             "and reduce-scatter slower. Also the memory roof of the roofline model.");
    bindField(s, sys, &SystemConfig::localMemBandwidthGBps);
    s.unit = Unit::DecimalGBps;
    s.astraUnit = "GB/s";
    s.minimum = 0;
    s.writeProjectWhen = [](const SimulationSpec& sp) {
        return sp.system.localMemBandwidthGBps > 0;
    };
    s.specJsonKey = "localMemBandwidthGBps";
    s.compareKey = "system.local-mem-bw";
    out.push_back(s);

    // One per collective: what calibration from nccl-tests fits where the data has several
    // collectives (docs/calibration.md, "Per-collective bandwidth").
    for (const CollectiveKind kind : kCollectiveKinds) {
        const std::string name = collectiveKindName(kind);
        const auto index = static_cast<size_t>(kind);
        s = make(name + "-bandwidth-factor", Type::Double, "", 0,
                 std::string(namesOf(kind).label) + " bandwidth factor", name + " bandwidth factor",
                 "The share of a link's bandwidth the " + name +
                     "'s messages move at: NCCL's collectives are different kernels and reach "
                     "different bus bandwidths over the same link, and calibration from "
                     "nccl-tests fits one factor per collective measured. A message of x bytes "
                     "crosses a link as x / factor bytes (link statistics count those); its "
                     "reduction still costs x. 1: the link's bandwidth.");
        s.compat = Compat::ProjectOnly;
        s.get = [index](const SimulationSpec& sp) -> Value {
            return sp.system.bandwidthFactor[index];
        };
        s.set = [index](SimulationSpec& sp, const Value& v) {
            sp.system.bandwidthFactor[index] = std::get<double>(v);
        };
        s.writeProjectWhen = [index](const SimulationSpec& sp) {
            return sp.system.bandwidthFactor[index] != 1;
        };
        s.minimum = 0;
        s.minimumExclusive = true;
        s.maximum = 1e6;
        s.rangeNoun = "factor";
        s.specJsonKey = std::string(namesOf(kind).camel) + "BandwidthFactor";
        s.compareKey = "system." + name + "-bandwidth-factor";
        out.push_back(s);
    }

    // One per collective as well: the fixed cost calibration fits beside the bandwidth factor.
    for (const CollectiveKind kind : kCollectiveKinds) {
        const std::string name = collectiveKindName(kind);
        const auto index = static_cast<size_t>(kind);
        s = make(name + "-latency", Type::Quantity, "", 0,
                 std::string(namesOf(kind).label) + " latency", name + " latency",
                 "Time added once to every " + name +
                     " when its last chunk is done, beyond the endpoint delay and link latency "
                     "its steps pay: NCCL's collectives are different kernels with different "
                     "fixed costs, and calibration from nccl-tests fits one per collective "
                     "measured. 0: none.");
        s.unit = Unit::Nanoseconds;
        s.compat = Compat::ProjectOnly;
        s.get = [index](const SimulationSpec& sp) -> Value {
            return sp.system.collectiveLatencyNs[index];
        };
        s.set = [index](SimulationSpec& sp, const Value& v) {
            sp.system.collectiveLatencyNs[index] = std::get<double>(v);
        };
        s.writeProjectWhen = [index](const SimulationSpec& sp) {
            return sp.system.collectiveLatencyNs[index] != 0;
        };
        s.minimum = 0;
        s.maximum = 1e9;
        s.specJsonKey = std::string(namesOf(kind).camel) + "LatencyNs";
        s.compareKey = "system." + name + "-latency";
        out.push_back(s);
    }

    s = make("peak-perf", Type::Quantity, "peak-perf", 21, "Peak compute", "peak performance",
             "The NPU's peak arithmetic rate, used by the roofline model to time compute nodes "
             "from their operation count.");
    bindField(s, sys, &SystemConfig::peakPerfTFlops);
    s.unit = Unit::TeraFlops;
    s.astraUnit = "TFLOP/s";
    s.minimum = 0;
    s.writeProjectWhen =
        s.writeAstraWhen = [](const SimulationSpec& sp) { return sp.system.peakPerfTFlops > 0; };
    s.specJsonKey = "peakPerfTFlops";
    s.compareKey = "system.peak-perf";
    out.push_back(s);

    s = make("roofline", Type::Bool, "roofline-enabled", 22, "Roofline compute model", "roofline",
             "On: a compute node takes max(operations / peak compute, bytes / local memory "
             "bandwidth). Off: it takes the duration recorded in the trace.");
    bindField(s, sys, &SystemConfig::rooflineEnabled);
    s.specJsonKey = "rooflineEnabled";
    s.compareKey = "system.roofline";
    out.push_back(s);

    s = make("replay-only", Type::Bool, "replay-only", 24, "Replay only", "replay only",
             "Accepted for ASTRA-sim compatibility: replay the trace's recorded durations.");
    bindField(s, sys, &SystemConfig::replayOnly);
    s.specJsonKey = "replayOnly";
    out.push_back(s);

    s = make("trace-enabled", Type::Bool, "trace-enabled", 23, "Trace enabled", "trace enabled",
             "Accepted for ASTRA-sim compatibility (its per-event trace output).");
    bindField(s, sys, &SystemConfig::traceEnabled);
    s.specJsonKey = "traceEnabled";
    out.push_back(s);

    s = make("track-local-memory", Type::Bool, "track-local-mem", 25, "Track local memory",
             "track local memory",
             "Track each NPU's local memory from the tensors its trace's nodes read and write (the "
             "inputs and outputs attributes): report the peak per NPU and write the usage over "
             "time to the local memory trace file.");
    bindField(s, sys, &SystemConfig::trackLocalMemory);
    s.specJsonKey = "trackLocalMemory";
    out.push_back(s);

    s = make("local-memory-trace-file", Type::String, "local-mem-trace-filename", 26,
             "Local memory trace file", "local memory trace file",
             "Prefix of the local memory trace files: NPU n writes PREFIX.n.json (Chrome trace "
             "format). A relative prefix is taken from the project file's folder (astrolabe-cli "
             "astra: from the working directory, as ASTRA-sim).");
    bindField(s, sys, &SystemConfig::localMemTraceFilename);
    s.specJsonKey = "localMemTraceFilename";
    out.push_back(s);

    s = make("num-queues-per-dim", Type::Int, "--num-queues-per-dim", 0, "Queues per dimension",
             "queues per dimension",
             "Queues per network dimension. Each runs ceil(active-chunks-per-dimension / queues) "
             "chunks at once, and a collective's phases take the queues in turn. With more than "
             "one, the upper half send the other way round the ring, so the chunks in flight use "
             "both directions of the links (the congestion-aware model shows it). A localBWAware "
             "all-reduce keeps its reduce-scatters and all-reduce on the lower half and its "
             "all-gathers on the upper half: on one dimension it runs half as many chunks at "
             "once. ASTRA-sim's semantics.");
    bindField(s, opt, &RunOptions::numQueuesPerDim);
    s.compat = Compat::CommandLine;
    s.minimum = 1;
    s.maximum = 1 << 30;
    s.limit = kMaxQueuesPerDimension;
    s.specJsonGroup = "options";
    s.specJsonKey = "numQueuesPerDim";
    s.compareKey = "options.queues";
    out.push_back(s);

    s = make("injection-scale", Type::Double, "--injection-scale", 0, "Injection scale",
             "injection scale",
             "Multiplies the endpoint delay, to model slower or faster message injection.");
    bindField(s, opt, &RunOptions::injectionScale);
    s.compat = Compat::CommandLine;
    s.minimum = 0;
    s.minimumExclusive = true;
    s.rangeNoun = "factor";
    s.specJsonGroup = "options";
    s.specJsonKey = "injectionScale";
    s.compareKey = "options.injection-scale";
    out.push_back(s);

    s = make("rendezvous", Type::Bool, "--rendezvous-protocol", 0, "Rendezvous protocol",
             "rendezvous protocol",
             "Before each message the receiver first sends a small (8 KiB) ready-to-receive "
             "message, so every message pays for two trips.");
    bindField(s, opt, &RunOptions::rendezvousProtocol);
    s.compat = Compat::CommandLine;
    s.specJsonGroup = "options";
    s.specJsonKey = "rendezvousProtocol";
    s.compareKey = "options.rendezvous";
    out.push_back(s);
    return out;
}

} // namespace

const Group& systemGroup() {
    static const Group group = [] {
        Group g{"system", "System layer (`system:`)", collectiveSettings()};
        for (Setting& s : scalars())
            g.settings.push_back(std::move(s));
        for (Setting& s : astraOnlySettings())
            g.settings.push_back(std::move(s));
        return g;
    }();
    return group;
}

} // namespace astrolabe::settings
