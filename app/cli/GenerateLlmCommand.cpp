#include "cli/GenerateLlmCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "core/Error.h"
#include "core/OutputFile.h"
#include "core/Units.h"
#include "generate/GeneratorSettings.h"
#include "generate/GeneratorValues.h"
#include "generate/ModelFigures.h"
#include "generate/ModelPresets.h"
#include "generate/ParallelismFit.h"
#include "generate/RankLayout.h"
#include "generate/WorkloadGenerator.h"
#include "hardware/Accelerator.h"
#include "trace/TraceIo.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <ostream>

namespace astrolabe::cli {
namespace {

using namespace astrolabe::generate;

// The generator's flags come from its settings table (generate/GeneratorSettings.h).
std::vector<FlagSpec> modelFlags() {
    std::vector<FlagSpec> flags{
        {"preset", "NAME", "starting point: " + joinAlternatives(presetNames()), "gpt3-175b"},
        {"gpu", "NAME",
         "accelerator whose peak, HBM bandwidth and capacity the roofline takes (the compute "
         "flags override them): " +
             joinAlternatives(hardware::acceleratorNames()),
         ""},
        {"precision", "P", "the --gpu peak taken: fp32, tf32, bf16, fp16 or fp8", "bf16"}};
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

/// The preset and the generator flags given, through the rules a sweep's generate: section
/// follows too (generate/GeneratorValues.h). A value that does not parse is a usage error.
GeneratorSpec specFromArgs(const ParsedArgs& args) {
    std::map<std::string, std::string> values;
    for (const std::string& name : generatorValueNames())
        if (name != "preset" && args.has(name))
            values[name] = args.value(name);
    try {
        return generatorSpecFrom(args.value("preset", "gpt3-175b"), values);
    } catch (const Error& e) {
        if (e.message().rfind("expected ", 0) == 0)
            throw UsageError("--" + e.where().keyPath + ": " + e.message());
        throw;
    }
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
    out << "parallelism           tp " << p.tp;
    if (p.cp > 1) // context parallelism multiplies the NPUs like the others
        out << " x cp " << p.cp;
    out << " x pp " << p.pp << " x dp " << p.dp;
    if (p.ep > 1)
        out << " (ep " << p.ep << ")";
    out << ", " << pipelineScheduleName(p.schedule);
    if (p.virtualStages > 1)
        out << " v " << p.virtualStages;
    out << ", ZeRO " << p.zeroStage << (p.sequenceParallel ? ", sp" : "")
        << (p.recompute ? ", recompute" : "") << ", placement " << p.placement << "\n";
    if (s.offload.any()) {
        out << "offload               parameters " << offloadTierName(s.offload.parameters)
            << ", gradients " << offloadTierName(s.offload.gradients) << ", optimizer "
            << offloadTierName(s.offload.optimizer) << ", prefetch " << s.offload.prefetch;
        if (s.offload.step == StepDevice::Cpu)
            out << ", step on the cpu at " << s.offload.cpuGBps << " GB/s";
        out << "\n";
    }
    if (s.output.tensors)
        out << "tensor lists          on (inputs / outputs for track-local-mem)\n";
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

int generateLlmCommand(const ParsedArgs& args, std::ostream& out, std::ostream& /*err*/) {
    const GeneratorSpec spec = specFromArgs(args);
    const ModelFigures figures = computeFigures(spec);
    printHeader(spec, args, out);
    out << formatFigures(figures);

    const std::string prefix = args.value("out");
    makePrefixFolder(prefix);
    // Rank by rank: the largest presets (~25 M nodes) never sit in memory at once. A failure
    // part way removes the ranks written (OutputSet).
    OutputSet written;
    const auto start = std::chrono::steady_clock::now();
    size_t nodes = 0, traces = 0;
    const CommGroups groups = forEachRankTrace(spec, [&](int rank, WorkloadTrace&& trace) {
        nodes += trace.nodes.size();
        ++traces;
        if (prefix.empty())
            return;
        const std::string path = prefix + "." + std::to_string(rank) + ".et";
        writeWorkloadTrace(path, trace);
        written.add(path);
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
    writeCommGroups(prefix, groups);
    written.commit();
    out << "wrote                 " << prefix << ".0.et .. " << prefix << "." << traces - 1
        << ".et, " << prefix << ".comm_groups.json\n";
    return kExitOk;
}

} // namespace astrolabe::cli
