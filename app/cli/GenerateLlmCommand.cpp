#include "cli/GenerateLlmCommand.h"

#include "cli/Commands.h"
#include "core/Error.h"
#include "core/Units.h"
#include "generate/GeneratorSettings.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/ParallelismFit.h"
#include "generate/RankLayout.h"
#include "generate/WorkloadGenerator.h"
#include "trace/TraceIo.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>

namespace astrolabe::cli {
namespace {

using namespace astrolabe::generate;

/// *** Lead: return the Chakra protobuf writer here once trace/chakra/ is merged, e.g.
///     return [](const std::string& path, const WorkloadTrace& t) { writeWorkloadTrace(path, t); };
/// An empty function means "no writer yet": generate-llm then reports that nothing was written.
TraceWriter chakraWriter() {
    return [](const std::string& path, const WorkloadTrace& trace) {
        writeWorkloadTrace(path, trace);
    };
}

// The generator's flags come from its settings table (generate/GeneratorSettings.h).
std::vector<FlagSpec> modelFlags() {
    std::vector<FlagSpec> flags{
        {"preset", "NAME", "starting point: " + joinAlternatives(presetNames()), "gpt3-175b"}};
    for (const GeneratorSetting& s : generatorSettings())
        if (!s.flag.empty())
            flags.push_back({s.flag, s.metavar, s.help, ""});
    flags.push_back({"platform-dims", "N,N,..",
                     "NPUs per platform dimension: show which each group spans", ""});
    flags.push_back({"npus", "N",
                     "fit tp x pp x dp (x ep) to N NPUs, keeping --tp and --pp while they divide N",
                     ""});
    return flags;
}

int intFlag(const ParsedArgs& args, const std::string& name, int current) {
    if (!args.has(name))
        return current;
    const std::string text = args.value(name);
    try {
        size_t used = 0;
        const int value = std::stoi(text, &used);
        if (used == text.size())
            return value;
    } catch (const std::exception&) {
    }
    throw UsageError("--" + name + ": expected an integer, found \"" + text + "\"");
}

double doubleFlag(const ParsedArgs& args, const std::string& name, double current) {
    if (!args.has(name))
        return current;
    const std::string text = args.value(name);
    try {
        size_t used = 0;
        const double value = std::stod(text, &used);
        if (used == text.size())
            return value;
    } catch (const std::exception&) {
    }
    throw UsageError("--" + name + ": expected a number, found \"" + text + "\"");
}

bool boolFlag(const ParsedArgs& args, const std::string& name, bool current) {
    if (!args.has(name))
        return current;
    const std::string text = args.value(name);
    if (text == "true" || text == "1" || text == "yes")
        return true;
    if (text == "false" || text == "0" || text == "no")
        return false;
    throw UsageError("--" + name + ": expected true or false, found \"" + text + "\"");
}

GenValue flagValue(const GeneratorSetting& s, const ParsedArgs& args, const GenValue& current) {
    switch (s.type) {
    case GenType::Int:
    case GenType::Choice:
        return static_cast<int64_t>(
            intFlag(args, s.flag, static_cast<int>(std::get<int64_t>(current))));
    case GenType::Double:
        return doubleFlag(args, s.flag, std::get<double>(current));
    case GenType::Bool:
        return boolFlag(args, s.flag, std::get<bool>(current));
    case GenType::Name:
        return args.value(s.flag);
    case GenType::Size:
        return static_cast<int64_t>(units::parseSizeBytes(args.value(s.flag)));
    }
    return current;
}

GeneratorSpec specFromArgs(const ParsedArgs& args) {
    GeneratorSpec s = presetSpec(args.value("preset", "gpt3-175b"));
    for (const GeneratorSetting& setting : generatorSettings())
        if (!setting.flag.empty() && !setting.customFlag && args.has(setting.flag))
            setting.set(s, flagValue(setting, args, setting.get(s)));
    // What the table cannot say: interleaving needs 2+ chunks per stage unless told otherwise;
    // the global batch is whole micro-batches x micro-batch x dp unless given.
    ParallelSpec& p = s.parallel;
    if (p.schedule == PipelineSchedule::Interleaved && !args.has("virtual-stages") &&
        p.virtualStages == 1)
        p.virtualStages = 2;
    TrainingSpec& t = s.training;
    t.globalBatch = intFlag(args, "global-batch", t.globalBatch);
    if (args.has("micro-batches"))
        t.globalBatch = intFlag(args, "micro-batches", 0) * t.microBatch * p.dp;
    else if (!args.has("global-batch") && t.microBatch * p.dp > 0 &&
             t.globalBatch % (t.microBatch * p.dp) != 0)
        t.globalBatch = std::max(1, t.globalBatch / (t.microBatch * p.dp)) * t.microBatch * p.dp;
    if (args.has("npus")) {
        // The same fit as the GUI's model builder; a given --global-batch must stay as given.
        const ParallelFit fit = fitParallelism(
            s, intFlag(args, "npus", 0),
            args.has("global-batch") ? BatchRule::GlobalBatchFixed : BatchRule::MicroBatchesFixed);
        if (!fit.fits)
            throw Error(ErrorKind::Validation, fit.reason, SourceLocation{{}, 0, 0, "npus"});
        s = fit.spec;
    }
    return s;
}

std::vector<int> platformDims(const ParsedArgs& args) {
    std::vector<int> dims;
    const std::string text = args.value("platform-dims");
    size_t start = 0;
    while (start < text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string part = text.substr(start, comma - start);
        size_t used = 0;
        int value = 0;
        try {
            value = std::stoi(part, &used);
        } catch (const std::exception&) {
        }
        if (used != part.size() || value <= 0)
            throw UsageError("--platform-dims: expected positive integers separated by commas, "
                             "found \"" +
                             text + "\"");
        dims.push_back(value);
        start = comma + 1;
    }
    return dims;
}

void printHeader(const GeneratorSpec& s, const ParsedArgs& args, std::ostream& out) {
    const ParallelSpec& p = s.parallel;
    out << "model                 " << s.model.name << "\n";
    out << "parallelism           tp " << p.tp << " x pp " << p.pp << " x dp " << p.dp;
    if (p.ep > 1)
        out << " (ep " << p.ep << ")";
    out << ", " << pipelineScheduleName(p.schedule);
    if (p.virtualStages > 1)
        out << " v " << p.virtualStages;
    out << ", ZeRO " << p.zeroStage << (p.sequenceParallel ? ", sp" : "")
        << (p.recompute ? ", recompute" : "") << ", placement " << p.placement << "\n";
    const std::vector<int> dims = platformDims(args);
    if (!dims.empty()) {
        int npus = 1;
        for (int d : dims)
            npus *= d;
        out << "platform dimensions   " << placementSummary(p, dims)
            << (npus != p.npus() ? " (platform has " + std::to_string(npus) + " NPUs, workload " +
                                       std::to_string(p.npus()) + ")"
                                 : "")
            << "\n";
    }
}

} // namespace

ArgParser modelInfoParser() {
    return ArgParser(
        "model-info",
        "Print a training configuration's figures: parameters, FLOPs per iteration\n"
        "(against 6NT and Megatron's closed form), memory per NPU and pipeline bubble.",
        modelFlags());
}

int modelInfoCommand(const ParsedArgs& args, std::ostream& out, std::ostream&) {
    const GeneratorSpec spec = specFromArgs(args);
    const ModelFigures figures = computeFigures(spec);
    printHeader(spec, args, out);
    out << formatFigures(figures);
    return kExitOk;
}

ArgParser generateLlmParser() {
    std::vector<FlagSpec> flags = modelFlags();
    flags.push_back({"out", "PREFIX", "write PREFIX.<rank>.et and PREFIX.comm_groups.json", ""});
    return ArgParser("generate-llm",
                     "Generate one training iteration of a transformer / MoE (or DLRM, ResNet)\n"
                     "as Chakra traces, one per NPU, with communicator groups.",
                     flags);
}

int generateLlmCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const GeneratorSpec spec = specFromArgs(args);
    const ModelFigures figures = computeFigures(spec);
    printHeader(spec, args, out);
    out << formatFigures(figures);

    const std::string prefix = args.value("out");
    const TraceWriter writer = chakraWriter();
    // Rank by rank: the largest presets (~25 M nodes) never sit in memory at once.
    const auto start = std::chrono::steady_clock::now();
    size_t nodes = 0, traces = 0;
    const CommGroups groups = forEachRankTrace(spec, [&](int rank, WorkloadTrace&& trace) {
        nodes += trace.nodes.size();
        ++traces;
        if (!prefix.empty() && writer)
            writer(prefix + "." + std::to_string(rank) + ".et", trace);
    });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char line[160];
    std::snprintf(line, sizeof line,
                  "generated             %zu traces, %zu nodes, %zu groups in %.2f s\n", traces,
                  nodes, groups.size(), seconds);
    out << line;

    if (prefix.empty())
        return kExitOk;
    if (!writer) {
        err << "astrolabe-cli: error: --out " << prefix
            << ": the Chakra trace writer is not wired into this build yet; nothing was written "
               "(the figures above and the in-memory generation are complete)\n";
        return kExitFailure;
    }
    writeCommGroups(prefix, groups);
    out << "wrote                 " << prefix << ".0.et .. " << prefix << "." << traces - 1
        << ".et, " << prefix << ".comm_groups.json\n";
    return kExitOk;
}

} // namespace astrolabe::cli
