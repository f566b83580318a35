#include "cli/ImportCommand.h"

#include "cli/CliSupport.h"
#include "cli/Commands.h"
#include "core/Limits.h"
#include "core/Units.h"
#include "trace/TraceIo.h"
#include "trace/WorkloadLoader.h"
#include "trace/kineto/KinetoImport.h"

#include <cstdio>
#include <ostream>

namespace astrolabe::cli {
namespace {

std::string percent(double part, double whole) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", whole > 0 ? 100.0 * part / whole : 0.0);
    return text;
}

void printKernels(const kineto::KinetoImport& imported, std::ostream& out) {
    out << "  kernels by class (count, time, share of all GPU time):\n";
    for (int k = 0; k <= static_cast<int>(kineto::KernelClass::Compute); ++k) {
        const auto kind = static_cast<kineto::KernelClass>(k);
        size_t count = 0;
        double time = 0;
        for (const kineto::KernelRow& row : imported.kernels)
            if (row.kind == kind) {
                count += row.count;
                time += row.timeUs;
            }
        if (count == 0)
            continue;
        out << "    " << kineto::kernelClassName(kind) << ": " << count << ", " << time << " us, "
            << percent(time, imported.totalTimeUs) << "\n";
        for (const kineto::KernelRow& row : imported.kernels)
            if (row.kind == kind)
                out << "      " << row.count << " x " << row.name << ": " << row.timeUs << " us, "
                    << percent(row.timeUs, imported.totalTimeUs) << "\n";
    }
}

} // namespace

ArgParser importParser() {
    return ArgParser(
        "import",
        "Turn traces other tools wrote into Chakra ET files.\n"
        "  import pytorch TRACE.json --out PREFIX   a PyTorch profiler (Kineto) trace: every GPU\n"
        "      kernel becomes a node with its measured duration, NCCL and DeepEP kernels become\n"
        "      collectives, stream order and GPU-to-GPU flows become dependencies\n"
        "      (docs/real-traces.md). Writes PREFIX.0.et .. PREFIX.(N-1).et.",
        {{"out", "PREFIX", "the traces to write: PREFIX.i.et", ""},
         {"npus", "N", "write the first GPU's trace for N NPUs (rank 0 duplicated)",
          "one per GPU in the trace"}},
        {"FORMAT", "TRACE"});
}

int importCommand(const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    const std::string format = args.positional().at(0);
    if (format != "pytorch")
        throw UsageError("import: unknown format \"" + format + "\"; expected pytorch");
    const std::string prefix = args.value("out");
    if (prefix.empty())
        throw UsageError("import pytorch: missing --out PREFIX, the traces to write");
    const std::string path = args.positional().at(1);
    requireFile("TRACE", path);
    const kineto::KinetoTrace trace = kineto::readKinetoTrace(path);
    const kineto::KinetoImport imported = kineto::importKineto(trace);
    const int npus = args.has("npus")
                         ? parseCount("npus", args.value("npus"), 1, static_cast<int>(kMaxNpus))
                         : static_cast<int>(imported.traces.size());
    if (!makeOutputFolder(prefix, err))
        return kExitFailure;
    for (int rank = 0; rank < npus; ++rank) {
        const size_t source = args.has("npus") ? 0 : static_cast<size_t>(rank);
        writeWorkloadTrace(workloadFileName(prefix, rank), imported.traces[source]);
    }
    out << path << ": " << units::countOf(trace.events, "event") << ", "
        << units::countOf(trace.activities.size(), "GPU activity", "GPU activities") << " on "
        << units::countOf(imported.devices.size(), "GPU") << " (rank " << trace.rank << " of "
        << trace.worldSize << ")\n";
    out << "  measured span of GPU " << imported.devices.front() << ": " << imported.measuredSpanUs
        << " us (first kernel start to last kernel end)\n";
    printKernels(imported, out);
    out << "  assumed: " << imported.sizeUnknown
        << " communication kernels without a size in the trace run with size 0 (run with "
           "system.replay-only to take them as measured); "
        << imported.flowDeps << " dependencies from GPU-to-GPU flows; " << trace.hostFlows
        << " flows from the host and " << trace.unpairedFlows << " unpaired flows not imported\n";
    out << "  wrote " << workloadFileName(prefix, 0)
        << (npus > 1 ? " .. " + workloadFileName(prefix, npus - 1) : std::string()) << "\n";
    return kExitOk;
}

} // namespace astrolabe::cli
