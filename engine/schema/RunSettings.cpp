// The run group (`run:`): how Astrolabe runs a spec. Astrolabe's own settings, no ASTRA-sim key
// (its backend is chosen by the binary, not by a file).
#include "schema/Setting.h"
#include "yaml/ProjectValues.h"

#include <array>
#include <nlohmann/json.hpp>

namespace astrolabe::settings {
namespace {

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

std::vector<Setting> runSettings() {
    std::vector<Setting> out;
    const auto opt = &SimulationSpec::options;

    Setting s = make("backend", Type::Enum, "Network model", "network backend",
                     "Congestion-unaware: every message gets the full link bandwidth (fast, the "
                     "usual first estimate). Congestion-aware: messages sharing a link wait for "
                     "each other, so contention shows up.");
    bindEnum(s, opt, &RunOptions::backend, backendText, backendOf, 2);
    s.displayChoices = {networkBackendName(NetworkBackend::CongestionUnaware),
                        networkBackendName(NetworkBackend::CongestionAware)};
    s.astraKey = "--network-backend";
    s.compat = Compat::CommandLine;
    s.specJsonKey = "backend";
    s.compareKey = "options.backend";
    s.hooks.specJson = [](const SimulationSpec& spec, nlohmann::json& group) {
        group["backend"] = networkBackendName(spec.options.backend);
    };
    s.hooks.fromSpecJson = [](const nlohmann::json& group, SimulationSpec& spec) {
        if (const auto it = group.find("backend"); it != group.end() && it->is_string())
            for (NetworkBackend b :
                 {NetworkBackend::CongestionUnaware, NetworkBackend::CongestionAware})
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
    return out;
}

} // namespace

const Group& runGroup() {
    static const Group group{"run", "Run options (`run:`)", runSettings()};
    return group;
}

} // namespace astrolabe::settings
