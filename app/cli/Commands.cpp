#include "cli/Commands.h"

#include "cli/ArgParser.h"
#include "cli/AstraCommand.h"
#include "cli/CalibrateCommand.h"
#include "cli/CompareCommand.h"
#include "cli/ExportAstraCommand.h"
#include "cli/FidelityCommand.h"
#include "cli/GenerateCommand.h"
#include "cli/GenerateLlmCommand.h"
#include "cli/GraphCommand.h"
#include "cli/ImportCommand.h"
#include "cli/LessonCommand.h"
#include "cli/OptimizeCommand.h"
#include "cli/RunCommand.h"
#include "cli/RunsCommand.h"
#include "cli/ServeCommand.h"
#include "cli/SettingsCommand.h"
#include "cli/SweepCommand.h"
#include "cli/SynthesizeCommand.h"
#include "cli/TraceCommand.h"
#include "cli/ValidateCommand.h"
#include "core/Error.h"
#include "core/Units.h"
#include "core/Version.h"

#include <algorithm>
#include <functional>
#include <new>
#include <ostream>

namespace astrolabe::cli {
namespace {

struct Command {
    std::string name;
    std::string summary;
    std::function<ArgParser()> parser;
    std::function<int(const ParsedArgs&, std::ostream&, std::ostream&)> run;
};

ArgParser versionParser() {
    return ArgParser("version", "Print the engine version.", {});
}

int versionCommand(const ParsedArgs&, std::ostream& out, std::ostream&) {
    out << "astrolabe " << engineVersion() << "\n";
    return kExitOk;
}

const std::vector<Command>& commands() {
    static const std::vector<Command> table{
        {"version", "print the version", versionParser, versionCommand},
        {"run", "run an Astrolabe project", runParser, runCommand},
        {"serve", "simulate LLM inference (the project's serving: section)", serveParser,
         serveCommand},
        {"astra", "run ASTRA-sim 2.x inputs with ASTRA-sim's flags", astraParser, astraCommand},
        {"export-astra", "write a project as ASTRA-sim 2.x inputs, with what would differ",
         exportAstraParser, exportAstraCommand},
        {"generate-llm", "same as 'generate llm': a transformer/MoE training iteration",
         generateLlmParser, generateLlmCommand},
        {"model-info", "print a training configuration's figures", modelInfoParser,
         modelInfoCommand},
        {"runs", "list, show, export or delete stored runs", runsParser, runsCommand},
        {"compare", "compare stored runs side by side", compareParser, compareCommand},
        {"fidelity", "one project through the unaware, aware and packet (ns-3) network models",
         fidelityParser, fidelityCommand},
        {"sweep", "run every point of a sweep on every core, or with --mpi across machines",
         sweepParser, sweepCommand},
        {"optimize", "'optimize bandwidth' (LIBRA) or 'optimize parallelism' (the planner)",
         optimizeParser, optimizeCommand},
        {"generate", "write Chakra traces: 'generate microbenchmark' or 'generate llm'",
         generateParser, generateCommand},
        {"trace", "dump, check or repair Chakra execution traces", traceParser, traceCommand},
        {"import", "'import pytorch': a PyTorch profiler trace into Chakra traces", importParser,
         importCommand},
        {"graph", "graph platforms: export as DOT/GraphML, import an edge-list CSV", graphParser,
         graphCommand},
        {"synthesize", "TACOS: synthesize a collective algorithm for a graph platform",
         synthesizeParser, synthesizeCommand},
        {"lesson", "'lesson check': run a lesson's steps and check the numbers it quotes",
         lessonParser, lessonCommand},
        {"calibrate",
         "'calibrate nccl-tests FILES... --project P': fit a dimension to measurements",
         calibrateParser, calibrateCommand},
        {"settings", "print the settings schema (--markdown: the docs tables)", settingsParser,
         settingsCommand},
        {"validate", "run the validation pack against published measurements", validateParser,
         validateCommand},
    };
    return table;
}

std::string topLevelHelp() {
    std::string out = "usage: astrolabe-cli <command> [options]\n\ncommands:\n";
    for (const Command& c : commands()) {
        std::string name = "  " + c.name;
        name.resize(std::max<size_t>(14, name.size() + 2), ' ');
        out += name + c.summary + "\n";
    }
    out += "\noptions for every command:\n"
           "  --units=as-entered|decimal|binary\n"
           "                sizes and bandwidths as entered (50 GiB/s, 400 GB/s; the default), or\n"
           "                all in decimal (GB, GB/s) or all in binary (GiB, GiB/s) prefixes\n";
    out += "\n'astrolabe-cli <command> --help' describes one command.\n";
    return out;
}

} // namespace

namespace {

/// Takes --units=CONVENTION (or --units CONVENTION) out of the arguments and applies it.
/// Returns false, with the message written, when its value is not a convention.
bool takeUnitsOption(std::vector<std::string>& args, std::ostream& err) {
    units::setConvention(units::Convention::AsEntered);
    for (size_t i = 0; i < args.size(); ++i) {
        std::string value;
        if (args[i].rfind("--units=", 0) == 0) {
            value = args[i].substr(8);
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
        } else if (args[i] == "--units" && i + 1 < args.size()) {
            value = args[i + 1];
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
                       args.begin() + static_cast<std::ptrdiff_t>(i + 2));
        } else {
            continue;
        }
        try {
            units::setConvention(units::parseConvention(value));
        } catch (const Error&) {
            err << "astrolabe-cli: --units: expected as-entered, decimal or binary, found \""
                << value << "\"\n";
            return false;
        }
        --i;
    }
    return true;
}

} // namespace

int runCli(const std::vector<std::string>& givenArgs, std::ostream& out, std::ostream& err) {
    std::vector<std::string> args = givenArgs;
    if (!takeUnitsOption(args, err))
        return kExitUsage;
    // "generate llm ..." is the generator's own command.
    if (args.size() >= 2 && args[0] == "generate" && args[1] == "llm") {
        args.erase(args.begin());
        args[0] = "generate-llm";
    }
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
    } catch (const ErrorList& list) {
        // One line per problem, so every error of every file is readable on its own.
        for (const Error& e : list.errors())
            err << "astrolabe-cli: error: " << e.what() << "\n";
        return kExitFailure;
    } catch (const Error& e) {
        err << "astrolabe-cli: " << (e.kind() == ErrorKind::Deadlock ? "" : "error: ") << e.what()
            << "\n";
        return e.kind() == ErrorKind::Deadlock ? kExitDeadlock : kExitFailure;
    } catch (const std::bad_alloc&) {
        // Inputs inside the documented limits can still ask for more than the machine has (a
        // 65,536-NPU ring cut into 16,384 chunks): say so, and what makes a run smaller.
        err << "astrolabe-cli: error: " << args[0]
            << ": out of memory: the input asks for more than this machine gave the process "
               "(hint: fewer NPUs, chunks or requests; a run that can use symmetry "
               "(run.exploit-symmetry) simulates one NPU; docs/limits.md says what grows with "
               "what)\n";
        return kExitFailure;
    }
}

} // namespace astrolabe::cli
