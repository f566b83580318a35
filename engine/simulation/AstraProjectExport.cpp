#include "simulation/AstraProjectExport.h"

#include "astra/AstraExport.h"
#include "astra/AstraNetworkConfig.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "schema/Setting.h"
#include "simulation/WorkloadSource.h"
#include "trace/TraceIo.h"

#include <filesystem>

namespace astrolabe {
namespace {

namespace fs = std::filesystem;

bool usesInSwitch(const SystemConfig& s) {
    for (const auto* list : {&s.allReduce, &s.reduceScatter, &s.allGather, &s.allToAll})
        for (const AlgorithmSpec& a : *list)
            if (a.kind == AlgorithmKind::InSwitch)
                return true;
    return false;
}

void write(const std::string& path, const std::string& what, const std::string& text) {
    writeOutputFile(path, what, [&](std::ostream& out) { out << text; });
}

} // namespace

std::vector<std::string> astraExportDifferences(const SimulationSpec& spec) {
    std::vector<std::string> out;
    if (usesInSwitch(spec.system))
        out.push_back("system: the inSwitch algorithm is Astrolabe's (in-network reduction); "
                      "ASTRA-sim 2.x does not know it and will refuse system.json - choose "
                      "ring or direct for that dimension to run the same design there");
    if (spec.memory.type == RemoteMemoryType::Pooled)
        out.push_back("memory.type: Pooled (HierMem) is Astrolabe's; ASTRA-sim 2.x's "
                      "remote-memory JSON has no POOLED_MEMORY and will refuse it");
    const SimulationSpec defaults;
    for (const settings::Setting& s : settings::systemGroup().settings) {
        if (s.compat != settings::Compat::AstrolabeOnly || s.path.empty() || !s.get)
            continue;
        const settings::Value value = s.get(spec);
        if (value == s.get(defaults))
            continue;
        out.push_back(s.path + ": " + settings::projectText(s, value) +
                      " is honoured by Astrolabe, but ASTRA-sim 2.x ignores \"" + s.astraKey +
                      "\" and runs as with " + settings::projectText(s, s.get(defaults)) +
                      ": its times may differ");
    }
    if (spec.options.timing != TimingMode::AstraCompatible)
        out.push_back("run.timing: exact timing is Astrolabe's; ASTRA-sim rounds as "
                      "astra-compatible does, so times may differ by its rounding");
    return out;
}

AstraExportFiles exportAstraInputs(const SimulationSpec& spec, const std::string& folder) {
    if (spec.platform.graph)
        throw Error(ErrorKind::Validation,
                    "cannot export a graph platform to ASTRA-sim: its analytical network takes "
                    "dimension stacks only (Ring, FullyConnected, Switch)",
                    {spec.sourceFile, 0, 0, "platform.graph"},
                    "export the graph as DOT or GraphML instead: astrolabe-cli graph export");
    const fs::path dir(folder);
    // Everything that can fail on the input is done before anything is written: the traces of
    // a microbenchmark, then the folders, so that a refusal leaves no half-written export.
    std::vector<WorkloadTrace> traces;
    if (spec.workload.kind != WorkloadSource::Kind::ChakraTrace)
        traces = loadWorkloadTraces(spec, spec.platform.npuCount());
    AstraExportFiles f;
    f.network = (dir / "network.yml").string();
    f.system = (dir / "system.json").string();
    f.memory = (dir / "remote_memory.json").string();
    const std::string perNode =
        spec.system.perNodeCustom.empty() ? "" : (dir / "per_node_custom.yml").string();
    if (!spec.commGroups.empty())
        f.commGroups = (dir / "comm_groups.json").string();
    // No file written may be the project itself (exported into the folder it was read from,
    // an ASTRA-sim network.yml opened as a project would be replaced).
    for (const auto& [path, what] : {std::pair{f.network, "the ASTRA-sim network YAML"},
                                     std::pair{f.system, "the ASTRA-sim system JSON"},
                                     std::pair{f.memory, "the ASTRA-sim remote-memory JSON"},
                                     std::pair{perNode, "the per-node custom collectives"},
                                     std::pair{f.commGroups, "the communicator groups"}})
        if (!path.empty() && fs::is_directory(dir)) // a new folder holds no project
            checkOutputPath(path, what, {{spec.sourceFile, "the project"}});
    makeOutputFolder(dir.string(), "the ASTRA-sim inputs");
    if (spec.workload.kind != WorkloadSource::Kind::ChakraTrace)
        makeOutputFolder((dir / "workload").string(), "the microbenchmark's traces");
    write(f.network, "the ASTRA-sim network YAML", writeAstraNetworkYaml(spec.platform));
    if (!perNode.empty())
        write(perNode, "the per-node custom collectives", writePerNodeCustomYaml(spec.system));
    write(f.system, "the ASTRA-sim system JSON", writeAstraSystemJson(spec.system, perNode));
    write(f.memory, "the ASTRA-sim remote-memory JSON", writeAstraRemoteMemoryJson(spec.memory));
    if (!f.commGroups.empty())
        write(f.commGroups, "the communicator groups", writeCommGroupsJson(spec.commGroups));
    if (spec.workload.kind == WorkloadSource::Kind::ChakraTrace) {
        f.workloadPrefix = fs::absolute(spec.workload.tracePrefix).lexically_normal().string();
    } else {
        // The microbenchmark as the traces Astrolabe runs (with its communicator group).
        f.workloadPrefix = (dir / "workload" / "microbenchmark").string();
        for (size_t i = 0; i < traces.size(); ++i)
            writeWorkloadTrace(f.workloadPrefix + "." + std::to_string(i) + ".et", traces[i]);
    }
    f.arguments = {"--workload-configuration=" + f.workloadPrefix,
                   "--system-configuration=" + f.system, "--network-configuration=" + f.network,
                   "--remote-memory-configuration=" + f.memory};
    if (!f.commGroups.empty())
        f.arguments.push_back("--comm-group-configuration=" + f.commGroups);
    // The settings that are command-line flags in ASTRA-sim, from the schema.
    for (const settings::Setting& s : settings::systemGroup().settings)
        if (s.compat == settings::Compat::CommandLine && s.get)
            f.arguments.push_back(s.astraKey + "=" + settings::projectText(s, s.get(spec)));
    f.arguments.push_back(std::string("--network-backend=") +
                          networkBackendName(spec.options.backend));
    return f;
}

} // namespace astrolabe
