#include "cli/Commands.h"

#include "cli/ArgParser.h"
#include "cli/GenerateCommand.h"
#include "cli/TraceCommand.h"
#include "core/Error.h"
#include "core/Version.h"

#include <filesystem>
#include <functional>
#include <ostream>

namespace astrolabe::cli {
namespace {

namespace fs = std::filesystem;

struct Command {
    std::string name;
    std::string summary;
    std::function<ArgParser()> parser;
    std::function<int(const ParsedArgs&, std::ostream&, std::ostream&)> run;
};

void requireFile(const std::string& flag, const std::string& path) {
    if (path.empty())
        throw UsageError("missing required option --" + flag);
    if (!fs::is_regular_file(path))
        throw UsageError("--" + flag + ": file not found: " + path);
}

ArgParser versionParser() { return ArgParser("version", "Print the engine version.", {}); }

int versionCommand(const ParsedArgs&, std::ostream& out, std::ostream&) {
    out << "astrolabe " << engineVersion() << "\n";
    return kExitOk;
}

ArgParser runParser() {
    return ArgParser("run", "Run an Astrolabe project and print its report.",
                     {{"json", "FILE", "also write the full result as JSON", ""}},
                     {"PROJECT.yaml"});
}

int runCommand(const ParsedArgs& args, std::ostream& out, std::ostream&) {
    const std::string project = args.positional().at(0);
    requireFile("project", project);
    out << "project " << project << ": loaded (the engine lands with issues #3 and #4)\n";
    return kExitOk;
}

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
            {"network-backend", "NAME", "analytical-congestion-unaware or analytical-congestion-aware",
             "analytical-congestion-unaware"},
            {"json", "FILE", "also write the full result as JSON", ""},
        });
}

int astraCommand(const ParsedArgs& args, std::ostream& out, std::ostream&) {
    const std::string backend = args.value("network-backend", "analytical-congestion-unaware");
    if (backend != "analytical-congestion-unaware" && backend != "analytical-congestion-aware")
        throw UsageError("--network-backend: unknown backend \"" + backend +
                         "\"; expected analytical-congestion-unaware or analytical-congestion-aware");
    requireFile("system-configuration", args.value("system-configuration"));
    requireFile("network-configuration", args.value("network-configuration"));
    requireFile("remote-memory-configuration", args.value("remote-memory-configuration"));
    const std::string prefix = args.value("workload-configuration");
    if (prefix.empty())
        throw UsageError("missing required option --workload-configuration");
    requireFile("workload-configuration", prefix + ".0.et");
    out << "inputs validated\n";
    return kExitOk;
}

const std::vector<Command>& commands() {
    static const std::vector<Command> table{
        {"version", "print the version", versionParser, versionCommand},
        {"run", "run an Astrolabe project", runParser, runCommand},
        {"astra", "run ASTRA-sim 2.x inputs with ASTRA-sim's flags", astraParser, astraCommand},
        {"generate", "write Chakra traces (microbenchmarks)", generateParser, generateCommand},
        {"trace", "dump or check Chakra execution traces", traceParser, traceCommand},
    };
    return table;
}

std::string topLevelHelp() {
    std::string out = "usage: astrolabe-cli <command> [options]\n\ncommands:\n";
    for (const Command& c : commands()) {
        std::string name = "  " + c.name;
        name.resize(14, ' ');
        out += name + c.summary + "\n";
    }
    out += "\n'astrolabe-cli <command> --help' describes one command.\n";
    return out;
}

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        out << topLevelHelp();
        return args.empty() ? kExitUsage : kExitOk;
    }
    if (args[0] == "--version")
        return versionCommand({}, out, err);
    const Command* command = nullptr;
    for (const Command& c : commands())
        if (c.name == args[0])
            command = &c;
    if (!command) {
        std::vector<std::string> names;
        for (const Command& c : commands())
            names.push_back(c.name);
        const std::string guess = closestMatch(args[0], names);
        err << "astrolabe-cli: unknown command \"" << args[0] << "\""
            << (guess.empty() ? "" : " (did you mean \"" + guess + "\"?)") << "\n";
        return kExitUsage;
    }
    const ArgParser parser = command->parser();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const std::string& a : rest)
        if (a == "--help" || a == "-h") {
            out << parser.help();
            return kExitOk;
        }
    try {
        return command->run(parser.parse(rest), out, err);
    } catch (const UsageError& e) {
        err << "astrolabe-cli: " << e.what() << "\n";
        return kExitUsage;
    } catch (const Error& e) {
        err << "astrolabe-cli: " << (e.kind() == ErrorKind::Deadlock ? "" : "error: ") << e.what()
            << "\n";
        return e.kind() == ErrorKind::Deadlock ? kExitDeadlock : kExitFailure;
    }
}

} // namespace astrolabe::cli
