#include "cli/GenerateLlmCommand.h"

#include "cli/Commands.h"
#include "core/Error.h"
#include "core/Units.h"
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

std::vector<FlagSpec> modelFlags() {
    return {
        {"preset", "NAME", "starting point: " + joinAlternatives(presetNames()), "gpt3-175b"},
        {"layers", "N", "transformer layers", ""},
        {"hidden", "N", "hidden size h", ""},
        {"heads", "N", "attention heads", ""},
        {"kv-heads", "N", "key/value heads (GQA)", ""},
        {"ffn", "N", "FFN inner size", ""},
        {"vocab", "N", "vocabulary size", ""},
        {"seq", "N", "sequence length", ""},
        {"swiglu", "", "gated FFN (three matrices); --swiglu=false turns it off", ""},
        {"experts", "N", "MoE experts (0 = dense)", ""},
        {"top-k", "N", "experts per token", ""},
        {"shared-experts", "N", "always-active experts", ""},
        {"expert-ffn", "N", "expert FFN inner size", ""},
        {"micro-batch", "N", "sequences per micro-batch", ""},
        {"global-batch", "N", "sequences per iteration", ""},
        {"micro-batches", "M", "micro-batches per pipeline (sets the global batch)", ""},
        {"bytes", "N", "bytes per element (1, 2 or 4)", ""},
        {"flash-attention", "", "fused attention: no stored scores (--flash-attention=false)", ""},
        {"tp", "N", "tensor parallelism", ""},
        {"pp", "N", "pipeline stages", ""},
        {"dp", "N", "data parallelism", ""},
        {"ep", "N", "expert parallelism (carved out of dp)", ""},
        {"schedule", "NAME", "gpipe, 1f1b or interleaved", ""},
        {"virtual-stages", "V", "model chunks per stage (interleaved)", ""},
        {"zero", "0-3", "ZeRO stage (3 = FSDP)", ""},
        {"sp", "", "sequence parallelism (--sp=false turns it off)", ""},
        {"recompute", "", "full activation recomputation (--recompute=false: off)", ""},
        {"bucket", "SIZE", "gradient bucket, e.g. \"25 MiB\"", ""},
        {"placement", "ORDER", "innermost first, a permutation of tp,dp,pp", ""},
        {"peak-tflops", "X", "dense peak TFLOP/s per NPU", ""},
        {"hbm-bandwidth", "GB/s", "HBM bandwidth, 10^9 B/s", ""},
        {"efficiency", "X", "fraction of the roofline reached (0..1]", ""},
        {"hbm-capacity", "GiB", "HBM capacity for the out-of-memory warning", ""},
        {"platform-dims", "N,N,..", "NPUs per platform dimension: show which each group spans", ""},
        {"npus", "N",
         "fit tp x pp x dp (x ep) to N NPUs, keeping --tp and --pp while they divide N", ""},
    };
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

GeneratorSpec specFromArgs(const ParsedArgs& args) {
    GeneratorSpec s = presetSpec(args.value("preset", "gpt3-175b"));
    ModelSpec& m = s.model;
    m.layers = intFlag(args, "layers", m.layers);
    m.hidden = intFlag(args, "hidden", m.hidden);
    m.heads = intFlag(args, "heads", m.heads);
    m.kvHeads = intFlag(args, "kv-heads", m.kvHeads);
    m.ffn = intFlag(args, "ffn", m.ffn);
    m.vocabulary = intFlag(args, "vocab", m.vocabulary);
    m.sequence = intFlag(args, "seq", m.sequence);
    m.swiglu = boolFlag(args, "swiglu", m.swiglu);
    m.experts = intFlag(args, "experts", m.experts);
    m.topK = intFlag(args, "top-k", m.topK);
    m.sharedExperts = intFlag(args, "shared-experts", m.sharedExperts);
    m.expertFfn = intFlag(args, "expert-ffn", m.expertFfn);
    ParallelSpec& p = s.parallel;
    p.tp = intFlag(args, "tp", p.tp);
    p.pp = intFlag(args, "pp", p.pp);
    p.dp = intFlag(args, "dp", p.dp);
    p.ep = intFlag(args, "ep", p.ep);
    if (args.has("schedule"))
        p.schedule = parsePipelineSchedule(args.value("schedule"));
    p.virtualStages = intFlag(args, "virtual-stages", p.virtualStages);
    if (p.schedule == PipelineSchedule::Interleaved && !args.has("virtual-stages") &&
        p.virtualStages == 1)
        p.virtualStages = 2;
    p.zeroStage = intFlag(args, "zero", p.zeroStage);
    p.sequenceParallel = boolFlag(args, "sp", p.sequenceParallel);
    p.recompute = boolFlag(args, "recompute", p.recompute);
    if (args.has("bucket"))
        p.bucketBytes = units::parseSizeBytes(args.value("bucket"));
    p.placement = args.value("placement", p.placement);
    TrainingSpec& t = s.training;
    t.microBatch = intFlag(args, "micro-batch", t.microBatch);
    t.bytesPerElement = intFlag(args, "bytes", t.bytesPerElement);
    t.flashAttention = boolFlag(args, "flash-attention", t.flashAttention);
    t.globalBatch = intFlag(args, "global-batch", t.globalBatch);
    if (args.has("micro-batches"))
        t.globalBatch = intFlag(args, "micro-batches", 0) * t.microBatch * p.dp;
    else if (!args.has("global-batch") && t.microBatch * p.dp > 0 &&
             t.globalBatch % (t.microBatch * p.dp) != 0)
        t.globalBatch = std::max(1, t.globalBatch / (t.microBatch * p.dp)) * t.microBatch * p.dp;
    ComputeSpec& c = s.compute;
    c.peakTflops = doubleFlag(args, "peak-tflops", c.peakTflops);
    c.hbmGBps = doubleFlag(args, "hbm-bandwidth", c.hbmGBps);
    c.efficiency = doubleFlag(args, "efficiency", c.efficiency);
    c.hbmCapacityGiB = doubleFlag(args, "hbm-capacity", c.hbmCapacityGiB);
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
