// The memory group (`memory:`): ASTRA-sim's remote (disaggregated) memory, whose JSON file of its
// own (--remote-memory-configuration) holds the same five values. The model counts whole
// nanoseconds and whole bytes per ns, as ASTRA-sim does: the hooks below read and write those
// integers, and check the cross-key rules (bandwidth required, node counts for per-node).
#include "schema/Setting.h"
#include "spec/MemoryNames.h"
#include "spec/SpecValidation.h"
#include "yaml/ProjectContext.h"
#include "yaml/ProjectValues.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>

namespace astrolabe::settings {
namespace {

using config::Diagnostics;

Setting make(const std::string& key, Type type, const std::string& astraKey, int astraOrder,
             const std::string& label, const std::string& help) {
    Setting s = declare("memory." + key, type, label, "remote memory " + key, help);
    s.astraKey = astraKey;
    s.astraOrder = astraOrder;
    s.specJsonGroup = "memory";
    return s;
}

bool pooled(const SimulationSpec& spec) {
    return spec.memory.type == RemoteMemoryType::Pooled;
}

/// Whether the memory model of `type` reads the group's `key`; the others do nothing for it.
bool appliesTo(RemoteMemoryType type, std::string_view key) {
    using T = RemoteMemoryType;
    if (key == "type" || key == "astra-memory")
        return true;
    if (type == T::NoMemoryExpansion)
        return false;
    if (key == "latency" || key == "bandwidth")
        return true;
    if (key == "num-nodes" || key == "npus-per-node")
        return type == T::PerNodeMemoryExpansion;
    return type == T::Pooled; // groups, fabric-bandwidth, switch-dimension
}

/// The types that read `key`, for the warning about a key the chosen type ignores.
std::string typesReading(std::string_view key) {
    std::vector<std::string> names;
    for (const RemoteMemoryType t :
         {RemoteMemoryType::PerNodeMemoryExpansion, RemoteMemoryType::PerNpuMemoryExpansion,
          RemoteMemoryType::MemoryPool, RemoteMemoryType::Pooled})
        if (appliesTo(t, key))
            names.emplace_back(config::projectMemoryTypeName(t));
    return joinAlternatives(names);
}

/// A written key is one the type reads (a type switched in the window keeps the old type's
/// values in the spec; they are not written where they would do nothing).
std::function<bool(const SimulationSpec&)>
writtenFor(std::string key, std::function<bool(const SimulationSpec&)> also = {}) {
    return [key, also = std::move(also)](const SimulationSpec& spec) {
        return appliesTo(spec.memory.type, key) && (!also || also(spec));
    };
}

/// Reports the gaps of the memory section (memoryTierGaps) at `keys`, at their place in `group`.
void reportGaps(config::ProjectContext& c, const YAML::Node& group, const SimulationSpec& spec,
                std::initializer_list<std::string_view> keys) {
    for (const Error& gap : memoryTierGaps(spec.memory)) {
        const std::string& path = gap.where().keyPath;
        if (std::find(keys.begin(), keys.end(), path) == keys.end())
            continue;
        // A value given is named, at its place ("expected 1 or more nodes ..., found 0"); one
        // its reader refused already ("2.5", "-2") is not reported twice.
        const std::string key = path.substr(path.find('.') + 1);
        const YAML::Node value = group.IsMap() ? group[key] : YAML::Node();
        if (value.IsDefined() && value.IsScalar()) {
            const std::string& text = value.Scalar();
            int64_t whole = 0;
            const auto [end, error] =
                std::from_chars(text.data(), text.data() + text.size(), whole);
            if (error != std::errc() || end != text.data() + text.size() || whole < 0)
                continue;
            c.diagnostics.error(config::locate(c.diagnostics, value, path),
                                gap.message() + ", found " + text, gap.hint());
            continue;
        }
        c.diagnostics.error(config::locate(c.diagnostics, group, path), gap.message(), gap.hint());
    }
}

// A setting of the pooled memory alone (Astrolabe's; ASTRA-sim's JSON has no such key).
Setting pooledSetting(const std::string& key, Type type, const std::string& label,
                      const std::string& shortLabel, const std::string& help) {
    Setting s = declare("memory." + key, type, label, shortLabel, help);
    s.compat = Compat::ProjectOnly;
    s.specJsonGroup = "memory";
    return s;
}

// A bandwidth the memory model keeps as whole bytes per ns (= GB/s), as ASTRA-sim does.
bool readWholeGBps(Diagnostics& d, const YAML::Node& value, const std::string& path,
                   uint64_t& out) {
    double bytesPerSecond = 0;
    if (!config::readBandwidth(d, value, path, bytesPerSecond))
        return false;
    const double perNs = bytesPerSecond / 1e9;
    if (perNs < 1 || perNs != std::floor(perNs) || perNs > 1e15) {
        d.error(config::locate(d, value, path),
                "expected a whole number of GB/s (bytes per ns), found " + value.Scalar(),
                "the remote memory model takes integer bytes/ns, as ASTRA-sim does");
        return false;
    }
    out = static_cast<uint64_t>(perNs);
    return true;
}

// A node count, clamped into [0, 2^30] as before the schema (a bad count only matters, and is
// reported, for per-node memory).
void bindCount(Setting& s, int RemoteMemoryConfig::*member) {
    bindField(s, &SimulationSpec::memory, member);
    s.minimum = 0;
    s.maximum = 1 << 30;
    s.writeAstraWhen = [member](const SimulationSpec& spec) { return spec.memory.*member > 0; };
    s.writeProjectWhen = writtenFor(s.projectKey(), s.writeAstraWhen);
    s.hooks.readProject = [member, path = s.path](config::ProjectContext& c,
                                                  const YAML::Node& value, SimulationSpec& spec) {
        int64_t n = 0;
        if (!config::readInt(c.diagnostics, value, path, n))
            return;
        if (n < 0) // as every count of the group: named here, not as a missing value
            c.diagnostics.error(config::locate(c.diagnostics, value, path),
                                "expected 0 or more, found " + std::to_string(n));
        spec.memory.*member = static_cast<int>(std::clamp<int64_t>(n, 0, 1 << 30));
    };
}

Setting type() {
    Setting s = make("type", Type::Enum, "memory-type", 0, "Memory architecture",
                     "Where memory load/store nodes of the workload go. None: the workload may not "
                     "use remote memory. Per node: NPUs of one node share one memory that serves "
                     "requests in arrival order. Per NPU: every NPU has its own. Pool: one memory "
                     "shared by all NPUs, one request at a time. Pooled: a disaggregated pool of "
                     "memory groups reached through each NPU's port into an in-node pooled fabric "
                     "(ASTRA-sim 2.0's HierMem; Astrolabe only, docs/memory-tiers.md). "
                     "ASTRA-sim's upper-case names are also accepted.");
    bindEnum(s, &SimulationSpec::memory, &RemoteMemoryConfig::type, config::projectMemoryTypeName,
             config::parseProjectMemoryType, 5);
    s.astraChoices = remoteMemoryTypeNames();
    s.missing = {Missing::Level::Error, "required key is missing",
                 "expected " + joinAlternatives(config::projectMemoryTypeNames()),
                 "expected " + joinAlternatives(astraReadableMemoryTypeNames())};
    s.hooks.specJson = [](const SimulationSpec& spec, nlohmann::json& group) {
        group["type"] = remoteMemoryTypeName(spec.memory.type);
    };
    s.hooks.fromSpecJson = [](const nlohmann::json& group, SimulationSpec& spec) {
        const std::vector<std::string>& names = remoteMemoryTypeNames();
        if (const auto it = group.find("type"); it != group.end() && it->is_string())
            for (size_t i = 0; i < names.size(); ++i)
                if (names[i] == it->get<std::string>())
                    spec.memory.type = static_cast<RemoteMemoryType>(i);
    };
    // A key the chosen type does not read is named: it would otherwise look like a setting that
    // does nothing. (ASTRA-sim's own JSON files carry every key whatever the type; they are read
    // by their own reader, which says nothing.)
    s.hooks.afterProjectRead = [](config::ProjectContext& c, const YAML::Node& group,
                                  SimulationSpec& spec) {
        if (!group.IsMap() || !group["type"].IsDefined() || c.diagnostics.hasErrors())
            return;
        const char* typeName = config::projectMemoryTypeName(spec.memory.type);
        for (auto it = group.begin(); it != group.end(); ++it) {
            const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
            if (key.empty() || appliesTo(spec.memory.type, key) || typesReading(key).empty())
                continue;
            c.diagnostics.warning(
                config::locate(c.diagnostics, it->first, "memory." + key),
                std::string("ignored: memory type ") + typeName + " does not read it",
                spec.memory.type == RemoteMemoryType::NoMemoryExpansion
                    ? "type none has no remote memory; remove the key, or choose a type"
                    : "only " + typesReading(key) + " memory reads it");
        }
    };
    // One row for the whole memory: whether it differs from no remote memory at all.
    s.hooks.compare = [](const SimulationSpec& spec, std::vector<CompareRow>& rows) {
        rows.push_back({"memory", "remote memory",
                        spec.memory == RemoteMemoryConfig{} ? "default" : "custom", std::nullopt});
    };
    return s;
}

Setting latency() {
    Setting s = make("latency", Type::Quantity, "remote-mem-latency", 1, "Access latency",
                     "Fixed time added to every remote memory access, whatever its size. Whole "
                     "nanoseconds, as ASTRA-sim counts them.");
    s.unit = Unit::Nanoseconds;
    s.minimum = 0;
    s.whole = true;
    s.astraUnit = "cycles (ns)";
    s.get = [](const SimulationSpec& spec) -> Value {
        return static_cast<double>(spec.memory.latencyNs);
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        spec.memory.latencyNs = static_cast<uint64_t>(std::round(std::get<double>(v)));
    };
    s.specJsonKey = "latencyNs";
    s.hooks.readProject = [](config::ProjectContext& c, const YAML::Node& value,
                             SimulationSpec& spec) {
        Diagnostics& d = c.diagnostics;
        SimTime t;
        if (!config::readTime(d, value, "memory.latency", t))
            return;
        if (t.ps() % 1000 != 0)
            d.error(config::locate(d, value, "memory.latency"),
                    "expected a whole number of nanoseconds, found " + value.Scalar(),
                    "the remote memory model counts whole ns, as ASTRA-sim does");
        else
            spec.memory.latencyNs = static_cast<uint64_t>(t.ps() / 1000);
    };
    s.writeProjectWhen = writtenFor("latency");
    s.hooks.writeProject = [](std::ostream& out, const SimulationSpec& spec, const auto&) {
        out << "  latency: " << spec.memory.latencyNs << " ns\n";
    };
    return s;
}

Setting bandwidth() {
    Setting s = make("bandwidth", Type::Quantity, "remote-mem-bw", 2, "Bandwidth",
                     "How fast one remote memory moves data: an access of x bytes takes latency + "
                     "x / bandwidth. For the pooled type, the bandwidth of each memory group. "
                     "ASTRA-sim stores it as whole bytes per nanosecond, so it is a whole number "
                     "of GB/s of at least 1: 100 GB/s, not 12.5 GB/s or 100 GiB/s (107.37 GB/s). "
                     "Required unless the type is none (0: none).");
    s.unit = Unit::DecimalGBps;
    s.minimum = 0;
    s.whole = true;
    s.astraUnit = "bytes/ns (= GB/s)";
    s.get = [](const SimulationSpec& spec) -> Value {
        return static_cast<double>(spec.memory.bandwidthBytesPerNs);
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        spec.memory.bandwidthBytesPerNs = static_cast<uint64_t>(std::round(std::get<double>(v)));
    };
    s.specJsonKey = "bandwidthBytesPerNs";
    s.hooks.readProject = [](config::ProjectContext& c, const YAML::Node& value,
                             SimulationSpec& spec) {
        readWholeGBps(c.diagnostics, value, "memory.bandwidth", spec.memory.bandwidthBytesPerNs);
    };
    s.writeProjectWhen = writtenFor("bandwidth");
    s.hooks.writeProject = [](std::ostream& out, const SimulationSpec& spec, const auto&) {
        if (spec.memory.bandwidthBytesPerNs > 0)
            out << "  bandwidth: " << spec.memory.bandwidthBytesPerNs << " GB/s\n";
    };
    s.hooks.afterProjectRead = [](config::ProjectContext& c, const YAML::Node& group,
                                  SimulationSpec& spec) {
        if (!group["bandwidth"].IsDefined())
            reportGaps(c, group, spec, {"memory.bandwidth"});
    };
    return s;
}

Setting numNodes() {
    Setting s = make("num-nodes", Type::Int, "num-nodes", 3, "Nodes",
                     "Per-node memory only: how many nodes (servers) the NPUs are grouped into.");
    bindCount(s, &RemoteMemoryConfig::numNodes);
    s.specJsonKey = "numNodes";
    // Both counts are read by now: check them together, in key order.
    s.hooks.afterProjectRead = [](config::ProjectContext& c, const YAML::Node& group,
                                  SimulationSpec& spec) {
        reportGaps(c, group, spec, {"memory.num-nodes", "memory.npus-per-node"});
    };
    return s;
}

Setting npusPerNode() {
    Setting s = make("npus-per-node", Type::Int, "num-npus-per-node", 4, "NPUs per node",
                     "Per-node memory only: NPU r belongs to node r / (NPUs per node).");
    bindCount(s, &RemoteMemoryConfig::numNpusPerNode);
    s.specJsonKey = "numNpusPerNode";
    return s;
}

// The pooled memory's own two values: whole numbers, like the others of the group.
Setting groups() {
    Setting s =
        pooledSetting("groups", Type::Int, "Remote memory groups", "memory groups",
                      "Pooled memory only: how many memory groups the pool has. NPU r is served "
                      "by group r mod groups; NPUs sharing a group are served in arrival "
                      "order.");
    bindField(s, &SimulationSpec::memory, &RemoteMemoryConfig::groups);
    s.minimum = 0;
    s.maximum = 1 << 20;
    s.specJsonKey = "groups";
    s.writeProjectWhen = pooled;
    s.hooks.afterProjectRead = [](config::ProjectContext& c, const YAML::Node& group,
                                  SimulationSpec& spec) {
        reportGaps(c, group, spec, {"memory.groups", "memory.fabric-bandwidth"});
    };
    return s;
}

Setting fabricBandwidth() {
    Setting s = pooledSetting(
        "fabric-bandwidth", Type::Quantity, "Pooled fabric bandwidth", "fabric bandwidth",
        "Pooled memory only: the bandwidth of each NPU's port into the in-node "
        "pooled fabric; an NPU's accesses pass it one at a time. Whole GB/s.");
    s.unit = Unit::DecimalGBps;
    s.minimum = 0;
    s.whole = true;
    s.get = [](const SimulationSpec& spec) -> Value {
        return static_cast<double>(spec.memory.fabricBytesPerNs);
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        spec.memory.fabricBytesPerNs = static_cast<uint64_t>(std::round(std::get<double>(v)));
    };
    s.specJsonKey = "fabricBytesPerNs";
    s.hooks.readProject = [](config::ProjectContext& c, const YAML::Node& value,
                             SimulationSpec& spec) {
        readWholeGBps(c.diagnostics, value, "memory.fabric-bandwidth",
                      spec.memory.fabricBytesPerNs);
    };
    s.hooks.writeProject = [](std::ostream& out, const SimulationSpec& spec, const auto&) {
        out << "  fabric-bandwidth: " << spec.memory.fabricBytesPerNs << " GB/s\n";
    };
    s.writeProjectWhen = pooled;
    return s;
}

// Pooled memory through out-of-node switches (HierMem): which Switch dimension they are.
// SpecValidation checks it against the platform.
Setting switchDimension() {
    Setting s = pooledSetting(
        "switch-dimension", Type::Int, "Out-of-node switches (dimension)",
        "memory switch dimension",
        "Pooled memory only: the platform's Switch dimension whose switches join the pooled "
        "fabric to the memory groups (HierMem's out-of-node switches, 0 = the first dimension). "
        "Every access then also crosses the NPU's link to its switch there (a load down, a "
        "store up) and shares it with the collectives; under the congestion-aware model they "
        "queue behind each other. -1 (the default): the memory has paths of its own.");
    bindField(s, &SimulationSpec::memory, &RemoteMemoryConfig::switchDimension);
    s.minimum = -1;
    s.maximum = 1 << 20;
    s.specJsonKey = "switchDimension";
    s.writeProjectWhen = [](const SimulationSpec& spec) {
        return pooled(spec) && spec.memory.switchDimension >= 0;
    };
    return s;
}

// `astra-memory: <file.json>` stands for the whole section: the project reader reads that file
// itself (project/ProjectReader.cpp); the writer always spells the values out.
Setting astraMemoryFile() {
    Setting s;
    s.path = "memory.astra-memory";
    s.type = Type::Custom;
    s.compat = Compat::ProjectOnly;
    s.label = "ASTRA-sim remote memory file";
    s.help = "An ASTRA-sim remote-memory JSON file instead of the keys above (alone in the "
             "section); relative to the project's folder.";
    s.hooks.writeProject = [](std::ostream&, const SimulationSpec&, const auto&) {};
    return s;
}

} // namespace

const Group& memoryGroup() {
    static const Group group{"memory",
                             "Remote memory (`memory:`)",
                             {type(), latency(), bandwidth(), numNodes(), npusPerNode(), groups(),
                              fabricBandwidth(), switchDimension(), astraMemoryFile()},
                             "remote-memory JSON"};
    return group;
}

} // namespace astrolabe::settings
