// The run group (`run:`): how Astrolabe runs a spec. Astrolabe's own settings, no ASTRA-sim key
// (its backend is chosen by the binary, not by a file).
#include "config/ProjectValues.h"
#include "config/schema/Setting.h"

#include <nlohmann/json.hpp>

namespace astrolabe::settings {
namespace {

Setting make(const std::string& key, Type type, const std::string& label,
             const std::string& shortLabel, const std::string& help) {
    Setting s = declare("run." + key, type, label, shortLabel, help);
    s.compat = Compat::ProjectOnly;
    s.specJsonGroup = "options";
    s.editor = Editor::RunOptions;
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

std::vector<Setting> runSettings() {
    std::vector<Setting> out;
    const auto opt = &SimulationSpec::options;

    Setting s = make("backend", Type::Enum, "Network model", "network backend",
                     "Congestion-unaware: every message gets the full link bandwidth (fast, the "
                     "usual first estimate). Congestion-aware: messages sharing a link wait for "
                     "each other, so contention shows up.");
    bindEnum(s, opt, &RunOptions::backend, backendText, backendOf, 2);
    s.choiceLabels = {"Analytical, congestion-unaware", "Analytical, congestion-aware"};
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
    s.choiceLabels = {"ASTRA-sim compatible", "Precise (picoseconds)"};
    s.displayChoices = {"ASTRA-sim compatible", "precise"};
    s.specJsonKey = "timing";
    s.compareKey = "options.timing";
    out.push_back(s);

    s = make("dependencies", Type::Enum, "Dependencies", "dependencies",
             "data-and-control follows every dependency of the trace; data-only ignores control "
             "dependencies (the behaviour of older ASTRA-sim trace feeders).");
    s.choices = {"data-and-control", "data-only"};
    s.choiceLabels = {"Data and control", "Data only"};
    s.displayChoices = {"data + control", "data only"};
    s.get = [](const SimulationSpec& spec) -> Value {
        return std::string(spec.options.dataDepsOnly ? "data-only" : "data-and-control");
    };
    s.set = [](SimulationSpec& spec, const Value& v) {
        const std::string& name = std::get<std::string>(v);
        if (name != "data-and-control" && name != "data-only")
            throw Error(ErrorKind::Validation,
                        "unknown dependency mode \"" + name +
                            "\"; expected data-and-control or data-only",
                        {}, config::didYouMean(name, {"data-and-control", "data-only"}));
        spec.options.dataDepsOnly = name == "data-only";
    };
    s.compareKey = "options.deps";
    s.hooks.specJson = [](const SimulationSpec& spec, nlohmann::json& group) {
        group["dataDepsOnly"] = spec.options.dataDepsOnly;
    };
    s.hooks.fromSpecJson = [](const nlohmann::json& group, SimulationSpec& spec) {
        if (const auto it = group.find("dataDepsOnly"); it != group.end() && it->is_boolean())
            spec.options.dataDepsOnly = it->get<bool>();
    };
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
    s.editor = Editor::None;
    out.push_back(s);
    return out;
}

} // namespace

const Group& runGroup() {
    static const Group group{"run", "Run options (`run:`)", runSettings()};
    return group;
}

} // namespace astrolabe::settings
