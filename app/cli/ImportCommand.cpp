#include "cli/ImportCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "core/Limits.h"
#include "core/Units.h"
#include "trace/TraceImport.h"
#include "trace/kineto/ExpertComm.h"

#include <algorithm>
#include <ostream>
#include <vector>

namespace astrolabe::cli {
ArgParser importParser() {
    return ArgParser(
        "import",
        "Turn traces other tools wrote into Chakra ET files.\n"
        "  import pytorch TRACE.json --out PREFIX   a PyTorch profiler (Kineto) trace: every GPU\n"
        "      kernel becomes a node with its measured duration, NCCL and DeepEP kernels become\n"
        "      collectives, stream order and GPU-to-GPU flows become dependencies\n"
        "      (docs/real-traces.md). Writes PREFIX.0.et .. PREFIX.(N-1).et.\n"
        "  import pytorch --et ET.json --kineto TRACE.json --out PREFIX   PyTorch's execution\n"
        "      trace linked with its profiler trace (one rank): operators become host nodes of\n"
        "      their own time, kernels follow the operator that launched them.",
        {{"out", "PREFIX", "the traces to write: PREFIX.i.et", ""},
         {"et", "ET.json", "PyTorch's execution trace (ExecutionTraceObserver), with --kineto", ""},
         {"kineto", "TRACE.json", "the profiler trace of the same run, linked with --et", ""},
         {"npus", "N", "write the first GPU's trace for N NPUs (rank 0 duplicated)",
          "one per GPU in the trace"},
         {"moe-shape", "T,H,K,E",
          "simulate DeepEP's communication: size its all-to-alls from T tokens per micro-batch, "
          "hidden size H, top-K of E experts (and drop the measured launch timeline)",
          "communication as measured"}},
        {"FORMAT", "[TRACE]"});
}

namespace {

// --moe-shape T,H,K,E: DeepEP's kernels sized from the model's shape (kineto/ExpertComm.h).
void simulateExpertCommunication(const std::string& text, ImportedTraces& imported) {
    std::vector<uint64_t> v;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t comma = std::min(text.find(',', at), text.size());
        v.push_back(static_cast<uint64_t>(
            parseCount("moe-shape", text.substr(at, comma - at), 1, 1000000000)));
        at = comma + 1;
    }
    if (v.size() != 4)
        throw UsageError("import pytorch: --moe-shape takes four numbers, tokens,hidden,top-k,"
                         "experts (e.g. 4096,7168,8,256); found " +
                         std::to_string(v.size()));
    const kineto::ExpertSizes sizes = kineto::expertSizes({v[0], v[1], v[2], v[3]}, "--moe-shape");
    size_t dropped = 0;
    kineto::ExpertSizing sized;
    for (WorkloadTrace& t : imported.ranks) {
        dropped += kineto::dropLaunchTimeline(t);
        const kineto::ExpertSizing s = kineto::sizeExpertCommunication(t, sizes);
        sized.dispatch += s.dispatch;
        sized.combine += s.combine;
        sized.notify += s.notify;
    }
    imported.report.push_back(
        "simulated communication (--moe-shape): " + std::to_string(sized.dispatch) +
        " dispatch all-to-alls of " + std::to_string(sizes.dispatch) + " B, " +
        std::to_string(sized.combine) + " combine all-to-alls of " + std::to_string(sizes.combine) +
        " B, " + std::to_string(sized.notify) + " notify all-to-alls of " +
        std::to_string(sizes.notify) + " B; " + std::to_string(dropped) +
        " launch-timeline host nodes dropped");
    imported.needsReplay = false;
}

} // namespace

int importCommand(const ParsedArgs& args, std::ostream& out, std::ostream& /*err*/) {
    const std::string format = args.positional().at(0);
    if (format != "pytorch")
        throw UsageError("import: unknown format \"" + format + "\"; expected pytorch");
    const std::string prefix = args.value("out");
    if (prefix.empty())
        throw UsageError("import pytorch: missing --out PREFIX, the traces to write");
    ImportedTraces imported;
    if (args.has("et") || args.has("kineto")) {
        if (!args.has("et") || !args.has("kineto") || args.positional().size() > 1)
            throw UsageError("import pytorch: --et ET.json and --kineto TRACE.json go together, "
                             "without a TRACE argument");
        requireFile("--et", args.value("et"));
        requireFile("--kineto", args.value("kineto"));
        if (!isExecutionTrace(args.value("et")))
            throw UsageError("import pytorch: --et " + args.value("et") +
                             " is not a PyTorch execution trace (a JSON object with schema and "
                             "nodes)");
        if (detectTraceFormat(args.value("kineto")) != TraceFormat::PyTorchProfiler)
            throw UsageError("import pytorch: --kineto " + args.value("kineto") +
                             " is not a PyTorch profiler trace (a JSON object with traceEvents)");
        imported = importLinkedTraces(args.value("et"), args.value("kineto"));
    } else {
        if (args.positional().size() < 2)
            throw UsageError("import pytorch: missing TRACE, the profiler trace to import (or "
                             "--et ET.json --kineto TRACE.json)");
        const std::string path = args.positional().at(1);
        requireFile("trace", path);
        if (detectTraceFormat(path) != TraceFormat::PyTorchProfiler)
            throw UsageError("import pytorch: " + path +
                             " is not a PyTorch profiler trace (a JSON object with traceEvents); "
                             "Chakra ETs run as they are (trace check, trace repair)");
        imported = importTraces(path);
    }
    if (args.has("moe-shape"))
        simulateExpertCommunication(args.value("moe-shape"), imported);
    const int npus = args.has("npus")
                         ? parseCount("npus", args.value("npus"), 1, static_cast<int>(kMaxNpus))
                         : static_cast<int>(imported.ranks.size());
    makePrefixFolder(prefix);
    const std::string wrote = writeImportedTraces(imported, prefix, npus, args.has("npus"));
    for (size_t i = 0; i < imported.report.size(); ++i)
        out << (i == 0 ? "" : "  ") << imported.report[i] << "\n";
    out << "  " << wrote << "\n";
    return kExitOk;
}

} // namespace astrolabe::cli
