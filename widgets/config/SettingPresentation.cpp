#include "config/SettingPresentation.h"

#include "core/Collectives.h"

#include <cmath>
#include <map>

namespace astrolabe::widgets {
namespace {

using settings::Value;

bool hasRemoteMemory(const SimulationSpec& spec) {
    return spec.memory.type != RemoteMemoryType::NoMemoryExpansion;
}
bool perNode(const SimulationSpec& spec) {
    return spec.memory.type == RemoteMemoryType::PerNodeMemoryExpansion;
}
bool pooled(const SimulationSpec& spec) {
    return spec.memory.type == RemoteMemoryType::Pooled;
}

std::string wholeNanoseconds(const Value& v, const char* why) {
    return std::fmod(std::get<double>(v), 1.0) != 0 ? std::string("use whole nanoseconds") + why
                                                    : std::string();
}

// One text field per collective: its algorithm list, "ring, direct".
std::vector<SettingTextField> algorithmFields() {
    std::vector<SettingTextField> fields;
    for (const CollectiveKind kind : kCollectiveKinds) {
        const CollectiveNames& names = namesOf(kind);
        fields.push_back({names.label, std::string("system.") + names.name,
                          std::string(names.name) + "-implementation",
                          [kind](const SimulationSpec& spec) {
                              return algorithmNames(spec.system.algorithms(kind), ", ");
                          },
                          [kind](SimulationSpec& spec, const std::string& text) {
                              spec.system.algorithms(kind) = parseAlgorithmNames(text);
                          }});
    }
    return fields;
}

std::map<std::string, SettingPresentation>& table() {
    static std::map<std::string, SettingPresentation> t = [] {
        std::map<std::string, SettingPresentation> m;
        const auto page = [&m](SettingPage where, std::initializer_list<const char*> paths) {
            for (const char* path : paths)
                m[path].page = where;
        };
        page(SettingPage::System,
             {"system.endpoint-delay", "system.chunks", "system.active-chunks-per-dimension",
              "system.scheduling-policy", "system.intra-dimension-scheduling",
              "system.inter-dimension-scheduling", "system.local-memory-bandwidth",
              "system.peak-perf", "system.roofline"});
        page(SettingPage::Collectives, {"system.collective-optimization", "system.algorithms"});
        page(SettingPage::Run,
             {"system.num-queues-per-dim", "system.injection-scale", "system.rendezvous"});
        // Every run option but the symmetry switch, which only tests and benchmarks turn off.
        for (const settings::Setting& s : settings::runGroup().settings)
            if (s.path != "run.exploit-symmetry")
                m[s.path].page = SettingPage::RunOptions;
        // Every memory key but the file that stands for the whole section.
        for (const settings::Setting& s : settings::memoryGroup().settings)
            if (s.path != "memory.astra-memory")
                m[s.path].page = SettingPage::Memory;

        m["system.endpoint-delay"].check = [](const Value& v) {
            return wholeNanoseconds(v, " (ASTRA-sim counts it in cycles)");
        };
        m["system.algorithms"].textFields = algorithmFields();

        m["run.backend"].choiceLabels = {"Analytical, congestion-unaware",
                                         "Analytical, congestion-aware", "Packet-level (ns-3)"};
        m["run.timing"].choiceLabels = {"ASTRA-sim compatible", "Precise (picoseconds)"};
        m["run.dependencies"].choiceLabels = {"Data and control", "Data only"};
        m["run.trace-rules"].choiceLabels = {"Lenient (report assumptions)", "Strict (refuse)"};
        m["graph.routing"].choiceLabels = {"Shortest path (lowest link id)",
                                           "ECMP (per-flow hash)"};

        m["memory.type"].choiceLabels = {"None", "Per node", "Per NPU", "Shared pool",
                                         "Pooled (HierMem)"};
        m["memory.latency"].enabledWhen = hasRemoteMemory;
        m["memory.latency"].check = [](const Value& v) { return wholeNanoseconds(v, ""); };
        m["memory.bandwidth"].enabledWhen = hasRemoteMemory;
        m["memory.bandwidth"].check = [](const Value& v) -> std::string {
            const double perNs = std::get<double>(v);
            return perNs != std::floor(perNs) || perNs < 1
                       ? "use a whole number of GB/s (bytes per ns), at least 1"
                       : "";
        };
        for (const char* path : {"memory.num-nodes", "memory.npus-per-node"})
            m[path].enabledWhen = perNode;
        for (const char* path :
             {"memory.groups", "memory.fabric-bandwidth", "memory.switch-dimension"})
            m[path].enabledWhen = pooled;
        return m;
    }();
    return t;
}

} // namespace

const SettingPresentation& presentationOf(const std::string& path) {
    static const SettingPresentation none;
    const auto& t = table();
    const auto it = t.find(path);
    return it != t.end() ? it->second : none;
}

std::string choiceLabel(const settings::Setting& setting, size_t index) {
    const std::vector<std::string>& labels = presentationOf(setting.path).choiceLabels;
    return index < labels.size() ? labels[index] : setting.choices.at(index);
}

void setPresentation(const std::string& path, SettingPresentation presentation) {
    table()[path] = std::move(presentation);
}

} // namespace astrolabe::widgets
