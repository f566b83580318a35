#include "cli/AstraCommand.h"

#include "astra/AstraInputs.h"
#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "cli/RunReport.h"
#include "cli/TerminalProgress.h"
#include "export/AstraReport.h"
#include "simulation/Simulation.h"

#include <filesystem>
#include <fstream>
#include <ostream>

namespace astrolabe::cli {

ArgParser astraParser() {
    return ArgParser(
        "astra",
        "Run an ASTRA-sim 2.x analytical configuration unchanged: the same flags, the same files,\n"
        "the same report lines.",
        {
            {"workload-configuration", "PREFIX", "Chakra ET prefix; NPU i reads PREFIX.i.et", ""},
            {"system-configuration", "FILE", "system JSON", ""},
            {"network-configuration", "FILE", "analytical network YAML", ""},
            {"remote-memory-configuration", "FILE", "remote memory JSON", ""},
            {"comm-group-configuration", "FILE", "communicator groups JSON", "empty"},
            {"logging-configuration", "FILE", "accepted for compatibility; ignored", "empty"},
            {"logging-folder", "DIR", "folder for log.log and err.log", "log"},
            {"num-queues-per-dim", "N", "queues per network dimension", "1"},
            {"injection-scale", "X", "multiplies endpoint-delay", "1"},
            {"comm-scale", "X", "accepted for compatibility; no effect (as in ASTRA-sim)", "1"},
            {"compute-scale", "X", "accepted for compatibility; no effect (as in ASTRA-sim)", "1"},
            {"rendezvous-protocol", "BOOL", "8 KiB control message before every data message",
             "false"},
            {"network-backend", "NAME",
             "analytical-congestion-unaware, analytical-congestion-aware or ns3 (the packet tier)",
             "analytical-congestion-unaware"},
            {"json", "FILE", "also write the full result as JSON", ""},
            progressFlag(),
        });
}

int astraCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string backend = args.value("network-backend", "analytical-congestion-unaware");
    if (backend != "analytical-congestion-unaware" && backend != "analytical-congestion-aware" &&
        backend != "ns3")
        throw UsageError("--network-backend: unknown backend \"" + backend +
                         "\"; expected analytical-congestion-unaware, "
                         "analytical-congestion-aware or ns3");
    requireFile("--system-configuration", args.value("system-configuration"));
    requireFile("--network-configuration", args.value("network-configuration"));
    requireFile("--remote-memory-configuration", args.value("remote-memory-configuration"));
    const std::string prefix = args.value("workload-configuration");
    if (prefix.empty())
        throw UsageError("missing required option --workload-configuration");
    requireFile("--workload-configuration", prefix + ".0.et");

    AstraInputs inputs;
    inputs.workloadPrefix = prefix;
    inputs.systemFile = args.value("system-configuration");
    inputs.networkFile = args.value("network-configuration");
    inputs.remoteMemoryFile = args.value("remote-memory-configuration");
    inputs.commGroupFile = args.value("comm-group-configuration", "empty");
    inputs.numQueuesPerDim =
        parseCount("num-queues-per-dim", args.value("num-queues-per-dim", "1"));
    inputs.injectionScale = parseReal("injection-scale", args.value("injection-scale", "1"));
    inputs.rendezvousProtocol =
        parseBool("rendezvous-protocol", args.value("rendezvous-protocol", "false"));
    inputs.backend = backend == "analytical-congestion-aware" ? NetworkBackend::CongestionAware
                     : backend == "ns3"                       ? NetworkBackend::Packet
                                                              : NetworkBackend::CongestionUnaware;
    // --comm-scale and --compute-scale have no effect in ASTRA-sim either; only type-checked.
    parseReal("comm-scale", args.value("comm-scale", "1"));
    parseReal("compute-scale", args.value("compute-scale", "1"));

    std::vector<std::string> warnings;
    const SimulationSpec spec = loadAstraInputs(inputs, &warnings);
    for (const std::string& w : warnings)
        err << "astrolabe-cli: warning: " << w << "\n";
    std::shared_ptr<const RunResult> result;
    {
        TerminalProgress progress(err, args); // its line is cleared before the report
        result = runSimulation(spec, &progress);
    }
    // ASTRA-sim prints its log lines on the console and keeps them in <logging-folder>/log.log.
    const std::string folder = args.value("logging-folder", "log");
    std::error_code ignored;
    std::filesystem::create_directories(folder, ignored);
    std::ofstream log(std::filesystem::path(folder) / "log.log");
    writeAstraReport(out, *result);
    if (log)
        writeAstraReport(log, *result);
    // <local-mem-trace-filename>.<rank>.json, relative to the working directory as in ASTRA-sim;
    // the line saying where goes to stderr so that stdout stays ASTRA-sim's report.
    writeMemoryTraces(err, spec, *result, {});
    if (const std::string json = args.value("json"); !json.empty())
        writeResultJsonFile(*result, spec, json);
    return kExitOk;
}

} // namespace astrolabe::cli
