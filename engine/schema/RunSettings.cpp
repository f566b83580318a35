// The run group (`run:`): how Astrolabe runs a spec. Astrolabe's own settings, no ASTRA-sim key
// (its backend is chosen by the binary, not by a file).
#include "schema/Setting.h"
#include "yaml/ProjectValues.h"

#include <array>
#include <nlohmann/json.hpp>

namespace astrolabe::settings {
namespace {

template <typename T> constexpr bool s_bytes = std::is_same_v<T, uint64_t>;

Setting make(const std::string& key, Type type, const std::string& label,
             const std::string& shortLabel, const std::string& help) {
    Setting s = declare("run." + key, type, label, shortLabel, help);
    s.compat = Compat::ProjectOnly;
    s.specJsonGroup = "options";
    return s;
}

NetworkBackend backendOf(const std::string& name) {
    return config::parseBackend(name);
}
const char* backendText(NetworkBackend b) {
    return config::backendName(b);
}
TimingMode timingOf(const std::string& name) {
    return config::parseTiming(name);
}
const char* timingText(TimingMode t) {
    return config::timingName(t);
}

// A run option held as a bool but written as one of two names (`names[1]` means true), with the
// spec JSON's boolean under `jsonKey`.
void bindChoices(Setting& s, bool RunOptions::*field, std::array<const char*, 2> names,
                 const char* noun, const char* jsonKey) {
    s.choices = {names[0], names[1]};
    s.get = [=](const SimulationSpec& spec) -> Value {
        return std::string(names[spec.options.*field ? 1 : 0]);
    };
    s.set = [=](SimulationSpec& spec, const Value& v) {
        const std::string& name = std::get<std::string>(v);
        if (name != names[0] && name != names[1])
            throw Error(ErrorKind::Validation,
                        std::string("unknown ") + noun + " \"" + name + "\"; expected " + names[0] +
                            " or " + names[1],
                        {}, config::didYouMean(name, {names[0], names[1]}));
        spec.options.*field = name == names[1];
    };
    s.hooks.specJson = [=](const SimulationSpec& spec, nlohmann::json& group) {
        group[jsonKey] = spec.options.*field;
    };
    s.hooks.fromSpecJson = [=](const nlohmann::json& group, SimulationSpec& spec) {
        if (const auto it = group.find(jsonKey); it != group.end() && it->is_boolean())
            spec.options.*field = it->get<bool>();
    };
}

// The packet tier's settings (run.packet-*), read only when run.backend is packet.
template <typename T> void bindPacket(Setting& s, T PacketOptions::*member, const char* jsonKey) {
    s.get = [member](const SimulationSpec& spec) -> Value {
        const T v = spec.options.packet.*member;
        if constexpr (std::is_same_v<T, double>)
            return v;
        else if constexpr (s_bytes<T>)
            return static_cast<double>(v);
        else
            return static_cast<int64_t>(v);
    };
    s.set = [member](SimulationSpec& spec, const Value& v) {
        if constexpr (std::is_same_v<T, double>)
            spec.options.packet.*member = std::get<double>(v);
        else if constexpr (s_bytes<T>)
            spec.options.packet.*member = static_cast<T>(std::get<double>(v));
        else
            spec.options.packet.*member = static_cast<T>(std::get<int64_t>(v));
    };
    s.specJsonKey = jsonKey;
}

template <typename Enum>
void bindPacketEnum(Setting& s, Enum PacketOptions::*member, std::vector<std::string> names,
                    const char* noun) {
    s.type = Type::Enum;
    s.choices = names;
    s.get = [member, names](const SimulationSpec& spec) -> Value {
        return names[static_cast<size_t>(spec.options.packet.*member)];
    };
    s.set = [member, names, noun](SimulationSpec& spec, const Value& v) {
        const std::string& name = std::get<std::string>(v);
        for (size_t i = 0; i < names.size(); ++i)
            if (names[i] == name) {
                spec.options.packet.*member = static_cast<Enum>(i);
                return;
            }
        throw Error(ErrorKind::Validation, std::string("unknown ") + noun + " \"" + name + "\"", {},
                    config::didYouMean(name, names));
    };
}

// Written to a project only when it uses the packet tier or changed one of them.
bool usesPacketSettings(const SimulationSpec& spec) {
    return spec.options.backend == NetworkBackend::Packet || spec.options.packet != PacketOptions{};
}

void appendPacketSettings(std::vector<Setting>& out) {
    Setting s = make("packet-transport", Type::Enum, "Packet tier: transport", "packet transport",
                     "ns-3's TCP variant for every flow: dctcp (ECN marks at switch queues scale "
                     "the window down, the datacenter default) or newreno (loss-based, the plain "
                     "baseline). Stock ns-3 has no RoCE/DCQCN (docs/network-models.md).");
    bindPacketEnum(s, &PacketOptions::transport, {"dctcp", "newreno"}, "packet transport");
    s.specJsonKey = "packetTransport";
    s.writeProjectWhen = usesPacketSettings;
    out.push_back(s);

    s = make("packet-routing", Type::Enum, "Packet tier: routing", "packet routing",
             "ecmp: each flow (5-tuple hash) keeps one of the equal-cost shortest paths; spray: "
             "each packet takes the next equal-cost path in turn (packet spraying).");
    bindPacketEnum(s, &PacketOptions::routing, {"ecmp", "spray"}, "packet routing");
    s.specJsonKey = "packetRouting";
    s.writeProjectWhen = usesPacketSettings;
    out.push_back(s);

    s = make("packet-subflows", Type::Int, "Packet tier: sub-flows per message", "packet sub-flows",
             "Each message is split into this many TCP connections of equal size (application-"
             "level flow splitting); with ECMP each one hashes to its own path.");
    bindPacket(s, &PacketOptions::subflows, "packetSubflows");
    s.minimum = 1;
    s.maximum = 64;
    s.writeProjectWhen = usesPacketSettings;
    out.push_back(s);

    s = make("packet-mtu", Type::Int, "Packet tier: MTU (bytes)", "packet MTU",
             "IP MTU of every link in bytes; TCP segments carry the MTU less 40 bytes of IP and "
             "TCP headers (no TCP timestamps, as RoCE carries none). 9000 is a jumbo frame; "
             "RoCE fabrics often run 4096, which doubles the packets and so the simulation's "
             "wall time (the simulated times differ by a few per cent).");
    bindPacket(s, &PacketOptions::mtuBytes, "packetMtu");
    s.minimum = 576;
    s.maximum = 65000;
    s.writeProjectWhen = usesPacketSettings;
    out.push_back(s);

    s = make("packet-ack-every", Type::Int, "Packet tier: segments per ACK", "segments per ACK",
             "A receiver acknowledges every this many full segments (delayed ACK; 10 us at "
             "most), as NICs coalesce ACKs. Fewer ACKs make ns-3 faster; DCTCP still echoes every "
             "change of ECN mark at once.");
    bindPacket(s, &PacketOptions::ackEvery, "packetAckEvery");
    s.minimum = 1;
    s.maximum = 64;
    s.writeProjectWhen = usesPacketSettings;
    out.push_back(s);

    s = make("packet-queue", Type::Quantity, "Packet tier: queue per port", "packet queue",
             "Bytes each output port of a switch or NPU can queue before it drops.");
    bindPacket(s, &PacketOptions::queueBytes, "packetQueueBytes");
    s.unit = Unit::Bytes;
    s.minimum = 16 * 1024;
    s.maximum = 1024.0 * 1024 * 1024;
    s.writeProjectWhen = usesPacketSettings;
    out.push_back(s);

    s = make("packet-ecn-threshold", Type::Quantity, "Packet tier: ECN marking threshold",
             "ECN threshold",
             "DCTCP: a port marks packets when its instantaneous queue exceeds this many bytes "
             "(RED with min = max threshold). Ignored by newreno.");
    bindPacket(s, &PacketOptions::ecnThresholdBytes, "packetEcnThresholdBytes");
    s.unit = Unit::Bytes;
    s.minimum = 1500;
    s.maximum = 1024.0 * 1024 * 1024;
    s.writeProjectWhen = usesPacketSettings;
    out.push_back(s);

    s = make("packet-stall-timeout", Type::Quantity, "Packet tier: stall timeout", "stall timeout",
             "A packet run that delivers no byte for this long (simulated) while flows wait "
             "ends with an error naming the flow and its first link, never a hang.");
    bindPacket(s, &PacketOptions::stallTimeoutNs, "packetStallTimeoutNs");
    s.unit = Unit::Nanoseconds;
    s.minimum = 1000;
    s.minimumExclusive = false;
    s.writeProjectWhen = usesPacketSettings;
    out.push_back(s);
}

std::vector<Setting> runSettings() {
    std::vector<Setting> out;
    const auto opt = &SimulationSpec::options;

    Setting s = make("backend", Type::Enum, "Network model", "network backend",
                     "Congestion-unaware: every message gets the full link bandwidth (fast, the "
                     "usual first estimate). Congestion-aware: messages sharing a link wait for "
                     "each other, so contention shows up. Packet: every message becomes TCP "
                     "flows through ns-3 (switch queues, ECN, ECMP); slowest, most faithful.");
    bindEnum(s, opt, &RunOptions::backend, backendText, backendOf, 3);
    s.displayChoices = {networkBackendName(NetworkBackend::CongestionUnaware),
                        networkBackendName(NetworkBackend::CongestionAware),
                        networkBackendName(NetworkBackend::Packet)};
    s.astraKey = "--network-backend";
    s.compat = Compat::CommandLine;
    s.specJsonKey = "backend";
    s.compareKey = "options.backend";
    s.hooks.specJson = [](const SimulationSpec& spec, nlohmann::json& group) {
        group["backend"] = networkBackendName(spec.options.backend);
    };
    s.hooks.fromSpecJson = [](const nlohmann::json& group, SimulationSpec& spec) {
        if (const auto it = group.find("backend"); it != group.end() && it->is_string())
            for (NetworkBackend b : {NetworkBackend::CongestionUnaware,
                                     NetworkBackend::CongestionAware, NetworkBackend::Packet})
                if (it->get<std::string>() == networkBackendName(b))
                    spec.options.backend = b;
    };
    out.push_back(s);

    s = make("timing", Type::Enum, "Timing", "timing",
             "ASTRA-sim compatible: durations are cut to whole nanoseconds where ASTRA-sim does, "
             "giving the same numbers as ASTRA-sim. Precise: rounded once to the picosecond.");
    bindEnum(s, opt, &RunOptions::timing, timingText, timingOf, 2);
    s.displayChoices = {"ASTRA-sim compatible", "precise"};
    s.specJsonKey = "timing";
    s.compareKey = "options.timing";
    out.push_back(s);

    s = make("dependencies", Type::Enum, "Dependencies", "dependencies",
             "data-and-control follows every dependency of the trace; data-only ignores control "
             "dependencies (the behaviour of older ASTRA-sim trace feeders).");
    bindChoices(s, &RunOptions::dataDepsOnly, {"data-and-control", "data-only"}, "dependency mode",
                "dataDepsOnly");
    s.displayChoices = {"data + control", "data only"};
    s.compareKey = "options.deps";
    out.push_back(s);

    s = make("trace-rules", Type::Enum, "Trace rules", "trace rules",
             "lenient runs traces as PyTorch's Chakra converter writes them: dependencies on "
             "nodes absent from the file count as met, CPU-side collective calls run on the host, "
             "and every such assumption is reported (docs/real-traces.md). strict refuses them.");
    bindChoices(s, &RunOptions::strictTraces, {"lenient", "strict"}, "trace rules", "strictTraces");
    s.displayChoices = {"lenient", "strict"};
    s.compareKey = "options.traceRules";
    out.push_back(s);

    s = make("record-timeline", Type::Bool, "Record timeline", "record timeline",
             "Keep what every NPU did and when, for the Timeline and Utilization views. Turn off "
             "for very large runs when only the totals matter.");
    bindField(s, opt, &RunOptions::recordTimeline);
    s.specJsonKey = "recordTimeline";
    out.push_back(s);

    s = make("record-link-intervals", Type::Bool, "Record link busy intervals",
             "record link intervals",
             "Also keep when each link was busy (more memory; needed for per-link detail).");
    bindField(s, opt, &RunOptions::recordLinkIntervals);
    s.specJsonKey = "recordLinkIntervals";
    out.push_back(s);

    s = make("exploit-symmetry", Type::Bool, "Exploit symmetry", "exploit symmetry",
             "Simulate one representative NPU when every NPU provably behaves the same; results "
             "are identical and the run is up to N times cheaper.");
    bindField(s, opt, &RunOptions::exploitSymmetry);
    out.push_back(s);
    appendPacketSettings(out);
    return out;
}

} // namespace

const Group& runGroup() {
    static const Group group{"run", "Run options (`run:`)", runSettings()};
    return group;
}

} // namespace astrolabe::settings
